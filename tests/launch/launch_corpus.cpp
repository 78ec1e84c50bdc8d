#include "launch/launch_corpus.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "gguf_writer.hpp"
#include "ropelens/model/text.hpp"
#include "support.hpp"

namespace ropelens::test {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";
const json kEmptyObject = json::object();
const json kEmptyArray = json::array();

std::vector<std::string> strings(const json& value) {
  std::vector<std::string> out;
  if (value.is_array())
    for (const json& item : value) out.push_back(item.get<std::string>());
  return out;
}

CorpusCase case_from(const json& j) {
  CorpusCase c;
  c.id = j.at("id").get<std::string>();
  c.engine = j.at("engine").get<std::string>();
  c.release = j.value("release", "");
  c.form = j.value("form", "command");
  c.launch = j.value("launch", "");
  c.file = j.value("file", "");
  if (j.contains("models") && j["models"].is_object())
    for (const auto& [name, facts] : j["models"].items()) c.models.emplace_back(name, facts.get<std::string>());
  if (j.contains("model_arg") && j["model_arg"].is_string()) c.model_arg = j["model_arg"].get<std::string>();
  c.ropelens_args = strings(j.value("ropelens_args", json::array()));
  c.recipe = j.value("recipe", false);
  const json& expect = j.at("expect");
  c.expect.exit = expect.at("exit").get<int>();
  c.expect.findings = strings(expect.value("findings", json::array()));
  if (expect.contains("served_tokens") && expect["served_tokens"].is_number_integer())
    c.expect.served_tokens = expect["served_tokens"].get<std::int64_t>();
  c.known_gap = j.value("known_gap", "");
  if (c.launch.empty() == c.file.empty()) throw std::invalid_argument("give one of launch and file");
  return c;
}

// A facts path as the case writes it: under the corpus folder, else from the repository's root.
std::string facts_path(const std::string& corpus_dir, const std::string& facts) {
  const fs::path in_corpus = fs::path(corpus_dir) / facts;
  if (fs::exists(in_corpus)) return in_corpus.string();
  return source_path(facts);
}

bool is_gguf_facts(const std::string& path) { return path.ends_with(".gguf.json"); }

// A metadata value as the facts give it: integers as uint32 unless typed, floats as float32, strings, booleans,
// arrays of numbers or strings; {"type": "u64", "value": …} for another type.
void put_value(GgufWriter& writer, const std::string& key, const json& value) {
  if (value.is_object()) {
    const std::string type = value.at("type").get<std::string>();
    const json& v = value.at("value");
    if (type == "u64") writer.u64(key, v.get<std::uint64_t>());
    else if (type == "i64") writer.i64(key, v.get<std::int64_t>());
    else if (type == "i32") writer.i32(key, v.get<std::int32_t>());
    else if (type == "u32") writer.u32(key, v.get<std::uint32_t>());
    else if (type == "f64") writer.f64(key, v.get<double>());
    else if (type == "f32") writer.f32(key, v.get<float>());
    else if (type == "bool") writer.boolean(key, v.get<bool>());
    else if (type == "str") writer.str(key, v.get<std::string>());
    else throw std::invalid_argument(fmt::format("{}: unknown type {}", key, type));
  } else if (value.is_boolean()) {
    writer.boolean(key, value.get<bool>());
  } else if (value.is_number_integer()) {
    writer.u32(key, value.get<std::uint32_t>());
  } else if (value.is_number()) {
    writer.f32(key, value.get<float>());
  } else if (value.is_string()) {
    writer.str(key, value.get<std::string>());
  } else if (value.is_array() && !value.empty() && value[0].is_string()) {
    writer.string_array(key, value.get<std::vector<std::string>>());
  } else if (value.is_array() &&
             std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_number_integer(); })) {
    writer.i32_array(key, value.get<std::vector<std::int32_t>>());
  } else if (value.is_array()) {
    writer.f32_array(key, value.get<std::vector<float>>());
  } else {
    throw std::invalid_argument(fmt::format("{}: a value the facts format does not take", key));
  }
}

// A header-only GGUF file from a case's facts: its metadata, and its tensors' infos (an F32 tensor's values when the
// facts give them, since llama.cpp reads rope_freqs).
void write_gguf(const std::string& facts_file, const std::string& out) {
  const json facts = json::parse(read_file(facts_file));
  GgufWriter writer;
  writer.alignment(32);
  writer.str("general.architecture", facts.at("general.architecture").get<std::string>());
  if (facts.contains("general.name")) writer.str("general.name", facts["general.name"].get<std::string>());
  const json& metadata = facts.contains("metadata") ? facts["metadata"] : kEmptyObject;
  for (const auto& [key, value] : metadata.items()) put_value(writer, key, value);
  const json& tensors = facts.contains("tensors") ? facts["tensors"] : kEmptyArray;
  for (const json& tensor : tensors) {
    const auto shape = tensor.at("shape").get<std::vector<std::uint64_t>>();
    if (tensor.value("type", "F32") == "F32" && tensor.contains("values")) {
      writer.f32_tensor(tensor.at("name").get<std::string>(), tensor["values"].get<std::vector<float>>());
      continue;
    }
    // Other tensors' data is not part of the facts: an F32 vector holds ones (a neutral rope_freqs), the rest is
    // left out of the header.
    if (tensor.value("type", "F32") == "F32" && shape.size() == 1)
      writer.f32_tensor(tensor.at("name").get<std::string>(),
                        std::vector<float>(static_cast<std::size_t>(shape[0]), 1.0f));
  }
  fs::create_directories(fs::path(out).parent_path());
  writer.write(out);
}

// The bytes a facts file stands for: a config.json as it is, a GGUF built from its facts.
void materialize(const std::string& facts_file, const std::string& out) {
  fs::create_directories(fs::path(out).parent_path());
  if (is_gguf_facts(facts_file)) write_gguf(facts_file, out);
  else fs::copy_file(facts_file, out, fs::copy_options::overwrite_existing);
}

bool is_path(const std::string& name) {
  return name.starts_with("/") || name.starts_with("./") || name.starts_with("../") || name.starts_with("~") ||
         name.ends_with(".gguf") || name.ends_with(".GGUF") || name.ends_with(".json");
}

// An Ollama name's manifest and blob under <store>: registry.ollama.ai/library/MODEL/TAG.
void ollama_model(const fs::path& store, std::string name, const std::string& facts_file) {
  if (name.starts_with("ollama:")) name = name.substr(7);
  std::string tag = "latest";
  if (const auto colon = name.rfind(':'); colon != std::string::npos) {
    tag = name.substr(colon + 1);
    name = name.substr(0, colon);
  }
  const std::string ns = name.find('/') == std::string::npos ? "library/" + name : name;
  std::string digest(64, '0');
  const std::string seed = ns + ":" + tag;
  for (std::size_t i = 0; i < seed.size(); ++i) digest[i % 64] = "0123456789abcdef"[(seed[i] + i) % 16];
  materialize(facts_file, (store / "blobs" / ("sha256-" + digest)).string());
  write_file(
      (store / "manifests" / "registry.ollama.ai" / ns / tag).string(),
      json{{"layers",
            json::array({json{{"mediaType", "application/vnd.ollama.image.model"}, {"digest", "sha256:" + digest}}})}}
          .dump());
}

// A Hugging Face id's snapshot: its config.json (and the safetensors index beside it in the corpus), or its one GGUF
// file.
void hub_model(const fs::path& hub, std::string id, const std::string& facts_file) {
  if (const auto colon = id.find(':'); colon != std::string::npos) id.resize(colon);  // llama.cpp -hf REPO:QUANT
  const std::string folder = "models--" + id.substr(0, id.find('/')) + "--" + id.substr(id.find('/') + 1);
  const fs::path repo = hub / folder;
  const std::string name = is_gguf_facts(facts_file) ? id.substr(id.rfind('/') + 1) + ".gguf" : "config.json";
  materialize(facts_file, cache_blob(repo, kCommit, name).string());
  // The weights' size (metadata.total_size) for the memory check, when the case keeps the index beside the config.
  const fs::path index = fs::path(facts_file).parent_path() / "model.safetensors.index.json";
  if (name == "config.json" && fs::exists(index))
    materialize(index.string(), cache_blob(repo, kCommit, "model.safetensors.index.json").string());
  write_file((repo / "refs" / "main").string(), kCommit);
}

std::vector<std::string> sorted_unique(std::vector<std::string> codes) {
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  return codes;
}

CorpusGot got_from(const RunResult& run) {
  CorpusGot got;
  got.exit = run.exit_code;
  json document;
  try {
    document = json::parse(run.out);
  } catch (const json::exception&) {
    got.error = fmt::format("not a JSON document (exit {}): {}", run.exit_code, run.err.substr(0, 300));
    return got;
  }
  const json& files = document.contains("files") ? document["files"] : kEmptyArray;
  for (const json& file : files) {
    if (file.contains("error") && got.error.empty()) got.error = file["error"].get<std::string>();
    if (!got.served_tokens && file.contains("target") && file["target"].is_number_integer())
      got.served_tokens = file["target"].get<std::int64_t>();
    const json& diagnostics = file.contains("diagnostics") ? file["diagnostics"] : kEmptyArray;
    for (const json& d : diagnostics)
      if (d.value("severity", "") == "error" || d.value("severity", "") == "warning")
        got.findings.push_back(d.at("code").get<std::string>());
  }
  got.findings = sorted_unique(std::move(got.findings));
  return got;
}

}  // namespace

std::vector<CorpusCase> read_corpus(const std::string& corpus_dir) {
  std::ifstream in(fs::path(corpus_dir) / "cases.jsonl");
  if (!in) throw std::runtime_error(corpus_dir + "/cases.jsonl: cannot be read");
  std::vector<CorpusCase> cases;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      cases.push_back(case_from(json::parse(line)));
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}/cases.jsonl:{}: {}", corpus_dir, number, e.what()));
    }
  }
  return cases;
}

CorpusGot run_corpus_case(const CorpusCase& c, const std::string& corpus_dir) {
  TempDir scratch;
  const fs::path root(scratch.path());
  const fs::path hub = root / "hub";
  const fs::path store = root / "ollama";
  fs::create_directories(hub);
  fs::create_directories(store);
  std::optional<std::string> model_option;
  try {
    for (const auto& [name, facts] : c.models) {
      const std::string facts_file = facts_path(corpus_dir, facts);
      if (c.engine == "ollama" && !is_path(name)) {
        ollama_model(store, name, facts_file);
      } else if (name.starts_with("/") || name.starts_with("~")) {  // a path on the server: served as --model
        const std::string local = (root / "served" / fs::path(name).filename()).string();
        materialize(facts_file, local);
        model_option = local;
      } else if (is_path(name)) {
        materialize(facts_file, (root / name).lexically_normal().string());
      } else {
        hub_model(hub, name, facts_file);
      }
    }
    if (c.model_arg) {
      const std::string facts_file = facts_path(corpus_dir, *c.model_arg);
      const std::string local = (root / "model" / (is_gguf_facts(facts_file) ? "model.gguf" : "config.json")).string();
      materialize(facts_file, local);
      model_option = local;
    }
  } catch (const std::exception& e) {
    CorpusGot failed;
    failed.exit = -1;
    failed.error = fmt::format("the case's models cannot be served: {}", e.what());
    return failed;
  }
  std::vector<std::string> args{"check", "--format", "json"};
  std::string stdin_text;
  if (!c.launch.empty()) {
    args.insert(args.end(), {"--serve", "-"});
    stdin_text = c.launch;
  } else {
    const fs::path source = fs::path(corpus_dir) / c.file;
    const fs::path relative = fs::path(c.file).lexically_relative("files");
    const fs::path copy =
        root / (relative.empty() || relative.string().starts_with("..") ? source.filename() : relative);
    fs::create_directories(copy.parent_path());
    fs::copy_file(source, copy, fs::copy_options::overwrite_existing);
    args.push_back(copy.lexically_relative(root).string());
  }
  // An Ollama case runs llama.cpp as that Ollama release runs it (`--stack ollama@0.5.12`).
  args.insert(args.end(), {"--stack", c.release.empty() ? c.engine : c.engine + "@" + c.release});
  if (model_option) args.insert(args.end(), {"--model", *model_option});
  args.insert(args.end(), c.ropelens_args.begin(), c.ropelens_args.end());
  std::string line;
  for (const std::string& arg : args) line += " " + shell_word(arg);
  const ScopedEnv hub_cache("HF_HUB_CACHE", hub.string());
  const ScopedEnv ollama_models("OLLAMA_MODELS", store.string());
  const ScopedEnv home("HOME", root.string());
  const ScopedEnv context("OLLAMA_CONTEXT_LENGTH", "");
  const ScopedEnv parallel("OLLAMA_NUM_PARALLEL", "");
  const ScopedEnv cache_type("OLLAMA_KV_CACHE_TYPE", "");
  return got_from(run_cli_in(root.string(), line.substr(1), stdin_text));
}

bool verdict_matches(const CorpusCase& c, const CorpusGot& got) {
  if (got.exit != c.expect.exit || got.findings != sorted_unique(c.expect.findings)) return false;
  return !c.expect.served_tokens || got.served_tokens == c.expect.served_tokens;
}

bool recipe_clean(const CorpusGot& got) {
  return (got.exit == 0 || got.exit == 1) && got.error.empty() &&
         std::all_of(got.findings.begin(), got.findings.end(),
                     [](const std::string& code) { return code == "ROPE103"; });
}

std::string describe(const CorpusExpect& expect) {
  return fmt::format("exit {} [{}]{}", expect.exit, fmt::join(sorted_unique(expect.findings), " "),
                     expect.served_tokens ? fmt::format(" @{}", *expect.served_tokens) : "");
}

std::string describe(const CorpusGot& got) {
  return fmt::format("exit {} [{}]{}{}", got.exit, fmt::join(got.findings, " "),
                     got.served_tokens ? fmt::format(" @{}", *got.served_tokens) : "",
                     got.error.empty() ? "" : fmt::format(" ({})", got.error));
}

int report_corpus(const std::string& corpus_dir, std::ostream& out) {
  const std::vector<CorpusCase> cases = read_corpus(corpus_dir);
  std::size_t width = 4;
  for (const CorpusCase& c : cases) width = std::max(width, c.id.size());
  int right = 0;
  int known_gaps = 0;
  int failures = 0;
  int recipes = 0;
  int recipes_clean = 0;
  out << fmt::format("{:<{}}  {:<40}  {}\n", "case", width, "expected", "got");
  for (const CorpusCase& c : cases) {
    const CorpusGot got = run_corpus_case(c, corpus_dir);
    const bool ok = verdict_matches(c, got);
    const bool gap = !c.known_gap.empty();
    right += ok ? 1 : 0;
    known_gaps += !ok && gap ? 1 : 0;
    failures += ok == gap ? 1 : 0;
    if (c.recipe) {
      ++recipes;
      recipes_clean += recipe_clean(got) ? 1 : 0;
    }
    const std::string status = ok ? (gap ? "FIXED (drop its known_gap)" : "ok")
                                  : (gap ? fmt::format("known gap: {}", c.known_gap) : "MISMATCH");
    out << fmt::format("{:<{}}  {:<40}  {}  {}\n", c.id, width, describe(c.expect), describe(got), status);
  }
  const auto share = [](int part, int whole) { return whole == 0 ? 0.0 : 100.0 * part / whole; };
  const int total = static_cast<int>(cases.size());
  out << fmt::format(
      "\n{} of {} verdicts right ({:.1f}%), {} known gaps, {} failing; {} of {} cases are correct recipes "
      "({:.1f}%), {} of them clean (nothing beyond ROPE103: {:.1f}%), {} clean recipes in all ({:.1f}% of the "
      "lines)\n",
      right, total, share(right, total), known_gaps, failures, recipes, total, share(recipes, total), recipes_clean,
      share(recipes_clean, recipes), recipes_clean, share(recipes_clean, total));
  return failures;
}

}  // namespace ropelens::test
