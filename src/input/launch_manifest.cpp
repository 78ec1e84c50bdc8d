// Compose files and Kubernetes manifests through libyaml's document loader. Aliases stay shared nodes, so a walk is
// bounded by a visit budget and a depth instead of by the file's size alone.
#include "ropelens/input/launch_manifest.hpp"

#include <functional>
#include <stdexcept>

#include <fmt/format.h>
#include <yaml.h>

#include "ropelens/input/shell_words.hpp"

namespace ropelens {
namespace launch_manifest_detail {

constexpr int kMaxWalkDepth = 32;           // containers sit a few levels down; deeper nodes are not searched
constexpr std::size_t kMaxVisits = 200000;  // an alias-heavy document is cut here, never walked exponentially
constexpr int kMaxYamlDepth = 64;

class YamlDocument {
 public:
  explicit YamlDocument(yaml_document_t& document) : document_(document) {}

  const yaml_node_t* root() const { return yaml_document_get_root_node(&document_); }
  const yaml_node_t* node(int index) const { return yaml_document_get_node(&document_, index); }

  static bool is_scalar(const yaml_node_t* node) { return node && node->type == YAML_SCALAR_NODE; }
  static bool is_map(const yaml_node_t* node) { return node && node->type == YAML_MAPPING_NODE; }
  static bool is_list(const yaml_node_t* node) { return node && node->type == YAML_SEQUENCE_NODE; }
  static int line(const yaml_node_t* node) { return static_cast<int>(node->start_mark.line) + 1; }

  static std::string text(const yaml_node_t* node) {
    if (!is_scalar(node)) return "";
    return {reinterpret_cast<const char*>(node->data.scalar.value), node->data.scalar.length};
  }

  // A mapping's value for `key` (a scalar key), or null.
  const yaml_node_t* get(const yaml_node_t* map, std::string_view key) const {
    if (!is_map(map)) return nullptr;
    for (auto* pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; ++pair)
      if (text(node(pair->key)) == key) return node(pair->value);
    return nullptr;
  }

  void each_item(const yaml_node_t* list, const std::function<void(const yaml_node_t*)>& visit) const {
    if (!is_list(list)) return;
    for (auto* item = list->data.sequence.items.start; item < list->data.sequence.items.top; ++item) visit(node(*item));
  }

  void each_pair(const yaml_node_t* map,
                 const std::function<void(const std::string&, const yaml_node_t*)>& visit) const {
    if (!is_map(map)) return;
    for (auto* pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; ++pair)
      visit(text(node(pair->key)), node(pair->value));
  }

 private:
  yaml_document_t& document_;
};

// A command as a list of words: a list of scalars, or a string split as a shell splits it (Compose's form).
std::vector<std::string> words_of(const YamlDocument& doc, const yaml_node_t* value, const std::string& what) {
  std::vector<std::string> words;
  if (YamlDocument::is_scalar(value)) {
    for (const ShellCommand& command : split_shell_commands(YamlDocument::text(value)))
      words.insert(words.end(), command.words.begin(), command.words.end());
    return words;
  }
  if (!YamlDocument::is_list(value))
    throw std::invalid_argument(
        fmt::format("line {}: {} is neither a string nor a list of strings", YamlDocument::line(value), what));
  doc.each_item(value, [&](const yaml_node_t* item) {
    if (!YamlDocument::is_scalar(item))
      throw std::invalid_argument(
          fmt::format("line {}: {} holds a value that is not a string", YamlDocument::line(item), what));
    words.push_back(YamlDocument::text(item));
  });
  return words;
}

// Compose `environment`: a mapping, or a list of "NAME=value"; Kubernetes `env`: a list of {name, value}.
std::map<std::string, std::string> env_of(const YamlDocument& doc, const yaml_node_t* value) {
  std::map<std::string, std::string> env;
  doc.each_pair(value, [&](const std::string& name, const yaml_node_t* v) { env[name] = YamlDocument::text(v); });
  doc.each_item(value, [&](const yaml_node_t* item) {
    if (YamlDocument::is_map(item)) {
      if (const auto* v = doc.get(item, "value"))
        env[YamlDocument::text(doc.get(item, "name"))] = YamlDocument::text(v);
      return;
    }
    const std::string assignment = YamlDocument::text(item);
    if (const auto eq = assignment.find('='); eq != std::string::npos && eq > 0)
      env[assignment.substr(0, eq)] = assignment.substr(eq + 1);
  });
  return env;
}

ManifestContainer container_of(const YamlDocument& doc, const yaml_node_t* spec, std::string name,
                               std::string_view entrypoint_key, std::string_view arguments_key,
                               std::string_view env_key) {
  ManifestContainer container;
  container.name = std::move(name);
  container.image = YamlDocument::text(doc.get(spec, "image"));
  container.line = YamlDocument::line(spec);
  const auto* entrypoint = doc.get(spec, entrypoint_key);
  const auto* arguments = doc.get(spec, arguments_key);
  if (entrypoint) {
    container.entrypoint = words_of(doc, entrypoint, container.name + " " + std::string(entrypoint_key));
    container.line = YamlDocument::line(entrypoint);
  }
  if (arguments) {
    container.arguments = words_of(doc, arguments, container.name + " " + std::string(arguments_key));
    if (!entrypoint) container.line = YamlDocument::line(arguments);
  }
  container.env = env_of(doc, doc.get(spec, env_key));
  return container;
}

void compose_services(const YamlDocument& doc, const yaml_node_t* services, std::vector<ManifestContainer>& out) {
  doc.each_pair(services, [&](const std::string& name, const yaml_node_t* service) {
    if (YamlDocument::is_map(service))
      out.push_back(container_of(doc, service, "service " + name, "entrypoint", "command", "environment"));
  });
}

// Every `containers` list under a Kubernetes document, named after the document's kind and metadata.name.
class KubernetesWalk {
 public:
  KubernetesWalk(const YamlDocument& doc, std::vector<ManifestContainer>& out) : doc_(doc), out_(out) {}

  void walk(const yaml_node_t* node, const std::string& owner, int depth) {
    if (!node || depth > kMaxWalkDepth || ++visits_ > kMaxVisits) return;
    std::string named = owner;
    if (const auto* kind = doc_.get(node, "kind"); YamlDocument::is_scalar(kind)) {
      named = YamlDocument::text(kind);
      if (const auto* name = doc_.get(doc_.get(node, "metadata"), "name"); YamlDocument::is_scalar(name))
        named += " " + YamlDocument::text(name);
    }
    doc_.each_pair(node, [&](const std::string& key, const yaml_node_t* value) {
      if (key == "containers" && YamlDocument::is_list(value)) return containers(value, named);
      walk(value, named, depth + 1);
    });
    doc_.each_item(node, [&](const yaml_node_t* item) { walk(item, named, depth + 1); });
  }

 private:
  void containers(const yaml_node_t* list, const std::string& owner) {
    doc_.each_item(list, [&](const yaml_node_t* spec) {
      if (!YamlDocument::is_map(spec)) return;
      std::string name = owner.empty() ? "container" : owner + ", container";
      if (const auto* n = doc_.get(spec, "name"); YamlDocument::is_scalar(n)) name += " " + YamlDocument::text(n);
      out_.push_back(container_of(doc_, spec, name, "command", "args", "env"));
    });
  }

  const YamlDocument& doc_;
  std::vector<ManifestContainer>& out_;
  std::size_t visits_ = 0;
};

// vLLM production-stack Helm values: each `servingEngineSpec.modelSpec[]` entry as the chart renders it into the
// vllm container (helm/templates/deployment-vllm-multi.yaml @a6c01db0): `vllm serve MODEL_URL --host 0.0.0.0 --port
// 8000`, then the vllmConfig keys as flags in the template's order, the extraArgs verbatim, --revision and
// --chat-template; image repository:tag; env the entry's `env` plus VLLM_USE_V1=0 for `v0: "1"`.
class HelmModelSpec {
 public:
  HelmModelSpec(const YamlDocument& doc, const yaml_node_t* spec) : doc_(doc), spec_(spec) {}

  ManifestContainer container() const {
    ManifestContainer c;
    c.name = "modelSpec " + text(spec_, "name");
    c.image = text(spec_, "repository") + ":" + text(spec_, "tag");
    c.line = YamlDocument::line(spec_);
    std::vector<std::string> words = {
        text(spec_, "repository") == "lmcache/vllm-openai" ? "/opt/venv/bin/vllm" : "vllm",
        "serve",
        text(spec_, "modelURL"),
        "--host",
        "0.0.0.0",
        "--port",
        "8000"};
    if (truthy(spec_, "enableLoRA")) words.emplace_back("--enable-lora");
    if (truthy(spec_, "enableTool")) words.emplace_back("--enable-auto-tool-choice");
    if (truthy(spec_, "toolCallParser")) add(words, "--tool-call-parser", text(spec_, "toolCallParser"));
    if (const auto* config = doc_.get(spec_, "vllmConfig"); YamlDocument::is_map(config)) {
      vllm_config(config, words);
      if (text(config, "v0") == "1") c.env["VLLM_USE_V1"] = "0";
    }
    if (truthy(spec_, "modelRevision")) add(words, "--revision", text(spec_, "modelRevision"));
    if (truthy(spec_, "chatTemplate")) add(words, "--chat-template", "/templates/" + text(spec_, "chatTemplate"));
    c.entrypoint = std::move(words);
    for (const auto& [name, value] : env_of(doc_, doc_.get(spec_, "env"))) c.env[name] = value;
    return c;
  }

 private:
  void vllm_config(const yaml_node_t* config, std::vector<std::string>& words) const {
    if (doc_.get(config, "enableChunkedPrefill"))
      words.emplace_back(truthy(config, "enableChunkedPrefill") ? "--enable-chunked-prefill"
                                                                : "--no-enable-chunked-prefill");
    words.emplace_back(truthy(config, "enablePrefixCaching") ? "--enable-prefix-caching"
                                                             : "--no-enable-prefix-caching");
    static constexpr std::pair<std::string_view, std::string_view> kValued[] = {
        {"maxModelLen", "--max-model-len"},
        {"dtype", "--dtype"},
        {"tensorParallelSize", "--tensor-parallel-size"},
        {"maxNumSeqs", "--max-num-seqs"},
        {"gpuMemoryUtilization", "--gpu_memory_utilization"},
        {"maxLoras", "--max_loras"},
        {"runner", "--runner"},
        {"convert", "--convert"}};
    for (const auto& [key, flag] : kValued)
      if (doc_.get(config, key)) add(words, std::string(flag), text(config, key));
    if (const auto* extra = doc_.get(config, "extraArgs"); truthy(config, "extraArgs")) {
      const std::vector<std::string> args = words_of(doc_, extra, "vllmConfig.extraArgs");
      words.insert(words.end(), args.begin(), args.end());
    }
  }

  static void add(std::vector<std::string>& words, std::string flag, std::string value) {
    words.push_back(std::move(flag));
    words.push_back(std::move(value));
  }

  std::string text(const yaml_node_t* map, std::string_view key) const {
    return YamlDocument::text(doc_.get(map, key));
  }

  // Go templates' truth: a missing key, false, 0, "" and an empty list are false (a quoted "false" is a string).
  bool truthy(const yaml_node_t* map, std::string_view key) const {
    const yaml_node_t* value = doc_.get(map, key);
    if (!value) return false;
    if (YamlDocument::is_list(value)) return value->data.sequence.items.top > value->data.sequence.items.start;
    if (!YamlDocument::is_scalar(value)) return true;
    const std::string t = YamlDocument::text(value);
    if (value->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return !t.empty();
    return !(t.empty() || t == "false" || t == "False" || t == "0" || t == "null" || t == "~");
  }

  const YamlDocument& doc_;
  const yaml_node_t* spec_;
};

void helm_model_specs(const YamlDocument& doc, const yaml_node_t* specs, std::vector<ManifestContainer>& out) {
  doc.each_item(specs, [&](const yaml_node_t* spec) {
    if (YamlDocument::is_map(spec)) out.push_back(HelmModelSpec(doc, spec).container());
  });
}

void read_document(const YamlDocument& doc, std::vector<ManifestContainer>& out) {
  const auto* services = doc.get(doc.root(), "services");
  if (YamlDocument::is_map(services)) return compose_services(doc, services, out);
  const auto* model_specs = doc.get(doc.get(doc.root(), "servingEngineSpec"), "modelSpec");
  if (YamlDocument::is_list(model_specs)) return helm_model_specs(doc, model_specs, out);
  KubernetesWalk(doc, out).walk(doc.root(), "", 0);
}

// libyaml's parser and each document it loads, freed however reading ends.
class YamlParser {
 public:
  explicit YamlParser(std::string_view text) {
    if (!yaml_parser_initialize(&parser_)) throw std::runtime_error("libyaml: out of memory");
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~YamlParser() { yaml_parser_delete(&parser_); }
  YamlParser(const YamlParser&) = delete;
  YamlParser& operator=(const YamlParser&) = delete;

  // Stops at the first collection nested deeper than kMaxYamlDepth: libyaml's time grows with the square of the
  // depth (200,000 nested brackets took 84 s), and no manifest nests more than a dozen levels.
  void refuse_deep_nesting() {
    int depth = 0;
    for (;;) {
      yaml_event_t event;
      if (!yaml_parser_parse(&parser_, &event)) return;  // the loader reports it, with its line
      const yaml_event_type_t type = event.type;
      const std::size_t line = event.start_mark.line + 1;
      yaml_event_delete(&event);
      if (type == YAML_STREAM_END_EVENT) return;
      if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
        if (++depth > kMaxYamlDepth)
          throw std::invalid_argument(fmt::format("line {}: nested deeper than {} levels", line, kMaxYamlDepth));
      } else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
        --depth;
      }
    }
  }

  // Calls `read` on each document until the stream ends.
  void each_document(const std::function<void(const YamlDocument&)>& read) {
    for (;;) {
      yaml_document_t document;
      if (!yaml_parser_load(&parser_, &document)) throw std::invalid_argument(problem());
      struct Owned {
        yaml_document_t& d;
        ~Owned() { yaml_document_delete(&d); }
      } owned{document};
      const YamlDocument doc(document);
      if (!doc.root()) return;  // the stream's end
      read(doc);
    }
  }

 private:
  std::string problem() const {
    const yaml_mark_t& mark = parser_.problem_mark;
    return fmt::format("line {}, column {}: {}{}", mark.line + 1, mark.column + 1,
                       parser_.problem ? parser_.problem : "not YAML",
                       parser_.context ? fmt::format(" ({})", parser_.context) : std::string());
  }

  yaml_parser_t parser_{};
};

}  // namespace launch_manifest_detail

std::vector<ManifestContainer> read_launch_manifest(std::string_view text) {
  if (text.size() > kMaxManifestBytes)
    throw std::invalid_argument(fmt::format("{} bytes: larger than a launch manifest can be ({} bytes at most)",
                                            text.size(), kMaxManifestBytes));
  std::vector<ManifestContainer> containers;
  launch_manifest_detail::YamlParser(text).refuse_deep_nesting();
  launch_manifest_detail::YamlParser(text).each_document(
      [&](const launch_manifest_detail::YamlDocument& doc) { launch_manifest_detail::read_document(doc, containers); });
  return containers;
}

namespace launch_manifest_detail {

void collect_settings(const YamlDocument& doc, const yaml_node_t* node, const std::string& path, int depth,
                      std::size_t& visits, YamlSettings& out) {
  if (!node || depth > kMaxWalkDepth || ++visits > kMaxVisits) return;
  const auto child = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (YamlDocument::is_scalar(node)) {
    out[path] = {YamlDocument::text(node), YamlDocument::line(node)};
  } else if (YamlDocument::is_map(node)) {
    doc.each_pair(node, [&](const std::string& key, const yaml_node_t* value) {
      collect_settings(doc, value, child(key), depth + 1, visits, out);
    });
  } else {
    std::size_t index = 0;
    doc.each_item(node, [&](const yaml_node_t* item) {
      collect_settings(doc, item, child(std::to_string(index++)), depth + 1, visits, out);
    });
  }
}

}  // namespace launch_manifest_detail

YamlSettings read_yaml_settings(std::string_view text) {
  using namespace launch_manifest_detail;
  if (text.size() > kMaxManifestBytes)
    throw std::invalid_argument(
        fmt::format("{} bytes: larger than a settings file can be ({} bytes at most)", text.size(), kMaxManifestBytes));
  YamlSettings settings;
  YamlParser(text).refuse_deep_nesting();
  bool first = true;
  std::size_t visits = 0;
  YamlParser(text).each_document([&](const YamlDocument& doc) {
    if (first && YamlDocument::is_map(doc.root())) collect_settings(doc, doc.root(), "", 0, visits, settings);
    first = false;
  });
  return settings;
}

}  // namespace ropelens
