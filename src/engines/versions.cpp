// A --stack version against an engine's version table: a key names a behaviour, a release is placed by the first
// release of each behaviour's change.
#include "ropelens/engines/versions.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"

namespace ropelens {
namespace {

// A release as a comparable value: its numbers, then -1 for a pre-release (rc, a, b, dev), 0 for the release,
// N for a .postN.
struct Release {
  std::vector<long> numbers;
  long tail = 0;
};

bool read_number(std::string_view& text, long& out) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return false;  // no sign
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end == text.data()) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return true;
}

// "0.8.5", "v0.22.0", "4.57.1", "0.5.6.post2", "5.0.0rc1"; nullopt for anything else.
std::optional<Release> parse_dotted(std::string_view text) {
  if (text.starts_with('v')) text.remove_prefix(1);
  Release release;
  for (long number = 0; read_number(text, number);) {
    release.numbers.push_back(number);
    if (text.empty() || text.front() != '.' || text.size() < 2 || !std::isdigit(static_cast<unsigned char>(text[1])))
      break;
    text.remove_prefix(1);
  }
  if (release.numbers.empty() || release.numbers.size() > 4) return std::nullopt;
  if (text.empty()) return release;
  for (const auto& [suffix, pre] :
       {std::pair{".post", false}, {"rc", true}, {".dev", true}, {"a", true}, {"b", true}}) {
    if (!text.starts_with(suffix)) continue;
    text.remove_prefix(std::string_view(suffix).size());
    long number = 0;
    if (!read_number(text, number) || !text.empty()) return std::nullopt;
    release.tail = pre ? -1 : number;
    return release;
  }
  return std::nullopt;
}

// "b5000"
std::optional<Release> parse_build(std::string_view text) {
  if (!text.starts_with('b')) return std::nullopt;
  text.remove_prefix(1);
  long number = 0;
  if (!read_number(text, number) || !text.empty()) return std::nullopt;
  return Release{{number}, 0};
}

std::optional<Release> parse_release(ReleaseScheme scheme, std::string_view text) {
  return scheme == ReleaseScheme::dotted ? parse_dotted(text) : parse_build(text);
}

// Compares the first `width` numbers (missing ones count as 0), then the tail when all of them are compared.
int compare(const Release& a, const Release& b, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    const long x = i < a.numbers.size() ? a.numbers[i] : 0;
    const long y = i < b.numbers.size() ? b.numbers[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

int compare(const Release& a, const Release& b) {
  if (const int c = compare(a, b, std::max(a.numbers.size(), b.numbers.size())); c != 0) return c;
  return a.tail == b.tail ? 0 : (a.tail < b.tail ? -1 : 1);
}

Release known(const VersionTable& table, std::string_view text) { return *parse_release(table.scheme, text); }

// Newer than the newest known series: 0.30.0 is, 0.29.4 is not when 0.29 is the newest known.
bool newer_than_known(const VersionTable& table, const Release& release) {
  if (table.newest_known.empty()) return false;
  const Release newest = known(table, table.newest_known);
  return compare(release, newest, newest.numbers.size()) > 0;
}

bool unreleased(const VersionRow& row) { return row.first_release.empty() && !row.change.empty(); }

// Where a behaviour starts: its first release, or before every release for the oldest.
Release start_of(const VersionTable& table, const VersionRow& row) {
  return row.first_release.empty() ? Release{{-1}, 0} : known(table, row.first_release);
}

// A version a product runs (KTransformers' SGLang): its alias pins it, a release never places it.
bool product_row(Engine engine, const VersionRow& row) {
  const auto& aliases = engine_row(engine).version_aliases;
  return std::any_of(aliases.begin(), aliases.end(), [&](const VersionAlias& alias) { return alias.key == row.key; });
}

// The behaviour whose change came last at or before the release; the oldest one when none did.
const VersionRow& placed(Engine engine, const VersionTable& table, const Release& release) {
  const VersionRow* best = nullptr;
  const VersionRow* oldest = nullptr;
  for (const VersionRow& row : table.rows) {
    if (unreleased(row) || product_row(engine, row)) continue;
    const Release start = start_of(table, row);
    if (oldest == nullptr || compare(start, start_of(table, *oldest)) < 0) oldest = &row;
    if (compare(start, release) <= 0 && (best == nullptr || compare(start, start_of(table, *best)) > 0)) best = &row;
  }
  return best != nullptr ? *best : *oldest;
}

std::string pinned_as(Engine engine, const VersionRow& row) { return fmt::format("{}@{}", to_string(engine), row.key); }

ResolvedVersion place_release(Engine engine, const VersionTable& table, std::string_view text, const Release& release) {
  if (newer_than_known(table, release))
    return {table.rows.front().version,
            fmt::format("{}@{} is newer than {}, the newest release ropelens places; read as {}", to_string(engine),
                        text, table.newest_known, pinned_as(engine, table.rows.front()))};
  const VersionRow& row = placed(engine, table, release);
  ResolvedVersion resolved{row.version, std::nullopt};
  if (!table.oldest_checked.empty() && compare(release, known(table, table.oldest_checked)) < 0)
    resolved.note =
        fmt::format("{}@{} is older than {}, the oldest release ropelens has checked: {}; read as {}",
                    to_string(engine), text, table.oldest_checked, table.older_differs, pinned_as(engine, row));
  return resolved;
}

// Products that run an engine's server with releases of their own (docs/engines.md, "Ollama releases").
constexpr std::pair<std::string_view, Engine> kRunners[] = {{"ollama", Engine::llama_cpp}};

}  // namespace

std::optional<Engine> runner_engine(std::string_view name) {
  for (const auto& [runner, engine] : kRunners)
    if (runner == name) return engine;
  return std::nullopt;
}

std::optional<RunnerPin> runner_pin(std::string_view pinned) {
  const auto at = pinned.find('@');
  const std::string_view name = pinned.substr(0, at);
  const auto engine = runner_engine(name);
  if (!engine) return std::nullopt;
  const std::string_view release = at == std::string_view::npos ? std::string_view() : pinned.substr(at + 1);
  if (at != std::string_view::npos && !parse_dotted(release)) return std::nullopt;
  return RunnerPin{*engine, name, release};
}

bool dotted_release_before(std::string_view release, std::string_view bound) {
  const auto given = parse_dotted(release);
  const auto limit = parse_dotted(bound);
  return given && limit && compare(*given, *limit) < 0;
}

std::optional<ResolvedVersion> resolve_version(Engine engine, std::string_view text) {
  if (const auto pin = runner_pin(text)) {
    if (pin->engine != engine) return std::nullopt;
    return ResolvedVersion{default_version(engine), std::nullopt};
  }
  const VersionTable& table = engine_row(engine).versions;
  for (const VersionRow& row : table.rows)
    if (row.key == text) return ResolvedVersion{row.version, std::nullopt};
  if (text == "main") return ResolvedVersion{table.rows.front().version, std::nullopt};  // always the newest
  if (const auto release = parse_release(table.scheme, text)) return place_release(engine, table, text, *release);
  return std::nullopt;
}

bool release_before(Engine engine, std::string_view pinned, std::string_view release) {
  const VersionTable& table = engine_row(engine).versions;
  const auto given = parse_release(table.scheme, pinned);
  const auto bound = parse_release(table.scheme, release);
  return given && bound && compare(*given, *bound) < 0;
}

namespace {

EngineVersion place_default(Engine engine) {
  const VersionTable& table = engine_row(engine).versions;
  if (table.newest_known.empty()) return table.rows.front().version;
  return placed(engine, table, known(table, table.newest_known)).version;
}

}  // namespace

// Placed once per engine: the tables are constant, and a scan asks for every view of every model (a sixth of its
// time went to parsing the same release strings again).
EngineVersion default_version(Engine engine) {
  static const std::vector<std::pair<Engine, EngineVersion>> defaults = [] {
    std::vector<std::pair<Engine, EngineVersion>> placed_defaults;
    for (const Engine each : all_engines()) placed_defaults.emplace_back(each, place_default(each));
    return placed_defaults;
  }();
  for (const auto& [each, version] : defaults)
    if (each == engine) return version;
  return place_default(engine);
}

bool is_released(EngineVersion version) {
  for (const VersionRow& row : engine_row(engine_of(version)).versions.rows)
    if (row.version == version) return !unreleased(row);
  return true;
}

std::string version_choices(Engine engine) {
  const VersionTable& table = engine_row(engine).versions;
  std::vector<std::string_view> keys;
  for (const VersionRow& row : table.rows) keys.push_back(row.key);
  return fmt::format("{}, or a release such as {}", fmt::join(keys, ", "), table.example);
}

namespace {

std::string first_release_text(const VersionTable& table, const VersionRow& row) {
  if (!row.first_release.empty()) return std::string(row.first_release);
  if (unreleased(row)) return "unreleased";
  const VersionRow* next = nullptr;  // the earliest change that has a release
  for (const VersionRow& other : table.rows)
    if (!other.first_release.empty() &&
        (next == nullptr || compare(start_of(table, other), start_of(table, *next)) < 0))
      next = &other;
  return next != nullptr ? fmt::format("before {}", next->first_release) : std::string("every release");
}

}  // namespace

std::vector<VersionLine> version_lines() {
  std::vector<VersionLine> lines;
  for (const EngineRow* engine : engine_registry())
    for (const VersionRow& row : engine->versions.rows)
      lines.push_back({engine->engine, &row, first_release_text(engine->versions, row),
                       row.change.empty() ? "none: the oldest behaviour modelled" : std::string(row.change)});
  return lines;
}

}  // namespace ropelens
