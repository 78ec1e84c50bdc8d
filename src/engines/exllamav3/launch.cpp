// ExLlamaV3 as TabbyAPI serves it (docs/engines.md, "ExLlamaV3 and TabbyAPI"), theroyallab/tabbyAPI @e632af41:
// - `python main.py …` (or start.py, which passes its arguments on): common/args.py makes one flag of every field of
//   common/config_models.py, `--field-name` for the field field_name (argparse, allow_abbrev on, an unknown flag
//   refuses to start); the model is the folder `--model-name` under `--model-dir` (default "models"), not a path;
// - its `config.yml` (section `model:`): common/tabby_config.py merges config.yml, then TABBY_SECTION_FIELD
//   variables, then the flags, each overriding the one before; `--config FILE` reads FILE alone and ignores every
//   other flag (_from_args returns early);
// - pydantic refuses a cache_size that is not a multiple of 256 (Field(multiple_of=256)) or a cache_mode other than
//   FP16, Q8, Q6, Q4 or "k,v" bits; backends/exllamav3/model.py takes max_seq_len from the flag, else the config's
//   max_position_embeddings, else 8192; cache_size defaults to max_seq_len, and a max_seq_len above cache_size is
//   lowered to it with a warning.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "exllamav3.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/input/launch_manifest.hpp"

namespace ropelens::engine_detail {
namespace tabby_launch {

using namespace launch_detail;

// Every field of the sections of TabbyConfigModel (common/config_models.py @e632af41) as common/args.py spells it.
constexpr FlagRelease kFlags[] = {
    {"--config", "", ""},
    {"--host", "", ""},
    {"--port", "", ""},
    {"--disable-auth", "", ""},
    {"--disable-fetch-requests", "", ""},
    {"--send-tracebacks", "", ""},
    {"--api-servers", "", ""},
    {"--sse-ping-interval", "", ""},
    {"--log-prompt", "", ""},
    {"--log-generation-params", "", ""},
    {"--log-requests", "", ""},
    {"--log-chat-completion-requests", "", ""},
    {"--model-dir", "", ""},
    {"--inline-model-loading", "", ""},
    {"--use-dummy-models", "", ""},
    {"--dummy-model-names", "", ""},
    {"--model-name", "", ""},
    {"--use-as-default", "", ""},
    {"--backend", "", ""},
    {"--max-seq-len", "", ""},
    {"--cache-size", "", ""},
    {"--cache-mode", "", ""},
    {"--tensor-parallel", "", ""},
    {"--tensor-parallel-backend", "", ""},
    {"--gpu-split-auto", "", ""},
    {"--autosplit-reserve", "", ""},
    {"--gpu-split", "", ""},
    {"--cpu-moe-offload-layers", "", ""},
    {"--rope-scale", "", ""},
    {"--rope-alpha", "", ""},
    {"--chunk-size", "", ""},
    {"--output-chunking", "", ""},
    {"--max-batch-size", "", ""},
    {"--prompt-template", "", ""},
    {"--vision", "", ""},
    {"--template-vars-default", "", ""},
    {"--template-vars-force", "", ""},
    {"--force-enable-thinking", "", ""},
    {"--reasoning", "", ""},
    {"--reasoning-start-token", "", ""},
    {"--reasoning-end-token", "", ""},
    {"--start-in-reasoning", "", ""},
    {"--tool-calls-in-reasoning", "", ""},
    {"--reasoning-budget-tokens", "", ""},
    {"--reasoning-budget-message", "", ""},
    {"--tool-format", "", ""},
    {"--harmony", "", ""},
    {"--muse-glimmer", "", ""},
    {"--draft-mode", "", ""},
    {"--draft-model-dir", "", ""},
    {"--draft-model-name", "", ""},
    {"--draft-rope-scale", "", ""},
    {"--draft-rope-alpha", "", ""},
    {"--draft-cache-mode", "", ""},
    {"--draft-gpu-split", "", ""},
    {"--draft-num-tokens", "", ""},
    {"--dynamic-draft", "", ""},
    {"--ngram-match-min", "", ""},
    {"--override-preset", "", ""},
    {"--lora-dir", "", ""},
    {"--loras", "", ""},
    {"--embedding-model-dir", "", ""},
    {"--embeddings-device", "", ""},
    {"--embedding-model-name", "", ""},
    {"--sysmem-recurrent-cache", "", ""},
    {"--sysmem-kv-cache", "", ""},
    {"--cuda-malloc-async", "", ""},
    {"--unsafe-launch", "", ""},
    {"--disable-request-streaming", "", ""},
    {"--realtime-process-priority", "", ""},
    {"--seqlog", "", ""},
    {"--seqlog-server-url", "", ""},
    {"--seqlog-api-key", "", ""},
    {"--help", "", ""},
    {"-h", "", ""},
};

constexpr std::string_view kDefaultModelDir = "models";  // ModelConfig.model_dir

// One setting of the model section, as the source that set it last wrote it.
struct Setting {
  std::string value;
  std::string where;  // "--max-seq-len", "model.max_seq_len (config.yml, line 12)", "TABBY_MODEL_MAX_SEQ_LEN"
};

// The model section's settings TabbyAPI's length and cache depend on.
struct ModelSection {
  std::optional<Setting> model_dir, model_name, max_seq_len, cache_size, cache_mode;

  std::optional<Setting>* field(std::string_view name) {
    if (name == "model_dir") return &model_dir;
    if (name == "model_name") return &model_name;
    if (name == "max_seq_len") return &max_seq_len;
    if (name == "cache_size") return &cache_size;
    if (name == "cache_mode") return &cache_mode;
    return nullptr;
  }
};

void take_settings(const YamlSettings& settings, const std::string& file, ModelSection& section) {
  for (const auto& [key, setting] : settings)
    if (key.starts_with("model."))
      if (auto* field = section.field(std::string_view(key).substr(6)))
        *field = Setting{setting.value, fmt::format("{} ({}, line {})", key, file, setting.line)};
}

void take_environment(const ShellCommand& command, ModelSection& section) {
  for (const char* name : {"model_dir", "model_name", "max_seq_len", "cache_size", "cache_mode"}) {
    std::string variable = "TABBY_MODEL_" + std::string(name);
    std::transform(variable.begin(), variable.end(), variable.begin(), [](unsigned char c) { return std::toupper(c); });
    if (const auto it = command.env.find(variable); it != command.env.end())
      *section.field(name) = {it->second, variable};
  }
}

// A launch from the model section: the model folder, the length and cache, and what pydantic refuses.
void apply_section(const ModelSection& section, const std::string& base_folder, Launch& launch) {
  if (section.model_name && !section.model_name->value.empty()) {
    const std::string dir = section.model_dir ? section.model_dir->value : std::string(kDefaultModelDir);
    std::filesystem::path folder = std::filesystem::path(dir) / section.model_name->value;
    if (!base_folder.empty() && folder.is_relative()) folder = std::filesystem::path(base_folder) / folder;
    launch.model = folder.lexically_normal().string();
  }
  if (section.max_seq_len && section.max_seq_len->value != "-1") {
    launch.length_flag = section.max_seq_len->where;
    launch.asked_tokens = token_value(launch, section.max_seq_len->where, section.max_seq_len->value, false);
  }
  if (section.cache_size)
    if (auto tokens = token_value(launch, section.cache_size->where, section.cache_size->value, false)) {
      if (*tokens % kExl3PageTokens != 0)
        launch.problems.push_back(
            {LaunchProblemKind::unknown_flag, section.cache_size->where,
             fmt::format("{} {} is not a multiple of {}: TabbyAPI's config validation (cache_size: "
                         "Field(multiple_of={})) refuses it and the server does not start",
                         section.cache_size->where, *tokens, kExl3PageTokens, kExl3PageTokens),
             fmt::format("give {} {}", section.cache_size->where,
                         (*tokens + kExl3PageTokens - 1) / kExl3PageTokens * kExl3PageTokens)});
      else launch.cache_tokens = *tokens;
    }
  if (section.cache_mode) {
    static const std::regex bits(R"([2-8]\s*,\s*[2-8])");
    const std::string& mode = section.cache_mode->value;
    if (mode == "FP16") launch.kv_dtype = KvDtype::f16;
    else if (mode == "Q8" || mode == "Q6" || mode == "Q4" || std::regex_match(mode, bits))
      launch.notes.push_back(
          fmt::format("{} {}: ExLlamaV3's quantized cache, which the memory check does not size "
                      "(it budgets FP16)",
                      section.cache_mode->where, mode));
    else
      launch.problems.push_back({LaunchProblemKind::unknown_flag, section.cache_mode->where,
                                 fmt::format("{} {}: TabbyAPI's config validation takes FP16, Q8, Q6, Q4 or \"k,v\" "
                                             "bits from 2 to 8, and the server does not start",
                                             section.cache_mode->where, mode),
                                 fmt::format("give {} FP16", section.cache_mode->where)});
  }
}

std::optional<YamlSettings> read_settings_file(const std::string& path, Launch& launch, const std::string& flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    launch.notes.push_back(fmt::format("{} {}: not readable from here, so its settings are not read", flag, path));
    return std::nullopt;
  }
  std::string text(kMaxManifestBytes + 1, '\0');  // one byte more than the reader takes, so a larger file is refused
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  try {
    return read_yaml_settings(text);
  } catch (const std::invalid_argument& e) {
    launch.problems.push_back({LaunchProblemKind::unknown_flag, flag,
                               fmt::format("{} {}: {}: TabbyAPI cannot read it", flag, path, e.what()),
                               fmt::format("fix the YAML of {}", path)});
    return std::nullopt;
  }
}

// `python main.py` or `python start.py` of a TabbyAPI checkout: a script path that names TabbyAPI, or one of its
// model flags (main.py alone names no project).
bool is_tabby(const std::vector<std::string>& w, std::size_t& start) {
  if (w.size() < 2 || !program_name(w[0]).starts_with("python")) return false;
  const std::string script = std::filesystem::path(w[1]).filename().string();
  if (script != "main.py" && script != "start.py") return false;
  start = 2;
  std::string path = w[1];
  std::transform(path.begin(), path.end(), path.begin(), [](unsigned char c) { return std::tolower(c); });
  if (path.find("tabby") != std::string::npos) return true;
  return std::any_of(w.begin() + 2, w.end(), [](const std::string& word) {
    for (const char* flag : {"--model-name", "--model-dir", "--max-seq-len", "--cache-size", "--cache-mode"})
      if (word == flag || word.starts_with(std::string(flag) + "=")) return true;
    return false;
  });
}

bool parse_tabby(const ShellCommand& command, Launch& launch) {
  std::size_t start = 0;
  if (!is_tabby(command.words, start)) return false;
  ModelSection from_flags;
  std::optional<std::string> config_file;
  std::vector<std::string> other_flags;
  const FlagSyntax syntax{kFlags, {}, "TabbyAPI", false, true, false, true};
  walk_flags(command.words, start, syntax, launch, [&](const std::string& flag, std::size_t& i) {
    if (flag == "--help" || flag == "-h") return true;
    auto value = value_of(command.words, i, flag, launch);
    if (!value) return true;
    if (flag == "--config") {
      config_file = *value;
      return true;
    }
    other_flags.push_back(flag);
    std::string name = flag.substr(2);
    std::replace(name.begin(), name.end(), '-', '_');
    if (auto* field = from_flags.field(name)) *field = Setting{*value, flag};
    return true;
  });
  ModelSection section;
  if (config_file) {
    if (auto settings = read_settings_file(*config_file, launch, "--config"))
      take_settings(*settings, *config_file, section);
    for (const std::string& flag : other_flags)
      launch.problems.push_back({LaunchProblemKind::ignored_override, flag,
                                 fmt::format("{} is ignored: with --config {} TabbyAPI reads that file alone and no "
                                             "other flag (common/tabby_config.py _from_args returns early)",
                                             flag, *config_file),
                                 fmt::format("set it in {} instead, or drop --config", *config_file)});
  } else {
    take_environment(command, section);
    for (const char* name : {"model_dir", "model_name", "max_seq_len", "cache_size", "cache_mode"})
      if (*from_flags.field(name)) *section.field(name) = *from_flags.field(name);
    launch.notes.push_back(
        "TabbyAPI also reads config.yml in the folder it runs from; these flags and TABBY_MODEL_* variables override "
        "it");
  }
  apply_section(section, "", launch);
  return true;
}

// A TabbyAPI config.yml: a YAML file named config.yml (or naming TabbyAPI) whose `model:` section names a model.
std::optional<Launch> tabby_config_file(const std::string& path, std::string_view text, const LaunchRelease& release) {
  const std::string name = std::filesystem::path(path).filename().string();
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name != "config.yml" && name != "config.yaml" && lower.find("tabby") == std::string::npos) return std::nullopt;
  YamlSettings settings;
  try {
    settings = read_yaml_settings(text);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // the manifest reader words it
  }
  const bool has_model = std::any_of(settings.begin(), settings.end(),
                                     [](const auto& entry) { return entry.first.starts_with("model."); });
  if (!has_model || settings.contains("kind") || settings.contains("apiVersion")) return std::nullopt;
  if (std::any_of(settings.begin(), settings.end(),
                  [](const auto& entry) { return entry.first.starts_with("services."); }))
    return std::nullopt;
  Launch launch;
  launch.engine = Engine::exllamav3;
  launch.version = release.version;
  launch.release = release.release;
  launch.form = "TabbyAPI config.yml";
  launch.command = "python main.py";
  ModelSection section;
  take_settings(settings, name, section);
  const std::string folder = std::filesystem::path(path).parent_path().string();
  apply_section(section, folder, launch);
  if (!section.model_name)
    launch.notes.push_back(fmt::format("{} names no model.model_name: TabbyAPI starts without a model", name));
  return launch;
}

// A max_seq_len above the cache is lowered to cache_size; the cache holds cache_size tokens either way.
void resolve_tabby(Launch& launch, const Model& /*run*/, const Model& /*as_read*/) {
  if (!launch.cache_tokens) return;
  const std::int64_t cache_size = *launch.cache_tokens;
  if (launch.served_tokens <= cache_size) return;
  const std::int64_t asked = launch.served_tokens;
  launch.served_tokens = cache_size;
  if (!launch.asked_tokens) {
    launch.notes.push_back(
        fmt::format("max_seq_len defaults to {} and TabbyAPI lowers it to cache_size {}", asked, cache_size));
    return;
  }
  launch.problems.push_back(
      {LaunchProblemKind::slot_below_asked, launch.length_flag,
       fmt::format("{} {} is above cache_size {}: TabbyAPI lowers max_seq_len to {} with a warning (\"The given "
                   "max_seq_len ({}) is larger than the cache size and will be limited to {} tokens.\"), so each "
                   "request gets {} tokens, not {}",
                   launch.length_flag, asked, cache_size, cache_size, asked, cache_size, cache_size, asked),
       fmt::format("give cache_size at least {} (a multiple of {}), or ask for at most {} tokens",
                   (asked + kExl3PageTokens - 1) / kExl3PageTokens * kExl3PageTokens, kExl3PageTokens, cache_size)});
}

}  // namespace tabby_launch

const LaunchSyntax kExllamav3Launch = {.parse = tabby_launch::parse_tabby,
                                       .fragment = nullptr,
                                       .file = tabby_launch::tabby_config_file,
                                       .resolve = tabby_launch::resolve_tabby};

}  // namespace ropelens::engine_detail
