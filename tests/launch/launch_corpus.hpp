// The launch corpus (testdata/launch/corpus/, format in docs/launch-corpus.md): real launch lines with the verdict a
// correct linter reaches, each run as a user would run it — `ropelens check --serve LINE` or `ropelens check FILE`
// under `--stack ENGINE@RELEASE`, its models served from a fake Hugging Face cache and Ollama store built from the
// case's facts — and compared with what ropelens says.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ropelens::test {

struct CorpusExpect {
  int exit = 0;
  std::vector<std::string> findings;  // codes at warning or error severity, sorted, each once
  std::optional<std::int64_t> served_tokens;
};

struct CorpusCase {
  std::string id;
  std::string engine;   // vllm | sglang | llama.cpp | ollama
  std::string release;  // "" = the default
  std::string form;
  std::string launch;                                       // the command, for forms read with --serve
  std::string file;                                         // files/… for file forms
  std::vector<std::pair<std::string, std::string>> models;  // as the launch names it → facts under the corpus
  std::optional<std::string> model_arg;                     // facts passed as --model
  std::vector<std::string> ropelens_args;
  bool recipe = false;
  CorpusExpect expect;
  std::string known_gap;  // why ropelens does not reach the expected verdict yet ("" = it must)
};

struct CorpusGot {
  int exit = 0;
  std::vector<std::string> findings;
  std::optional<std::int64_t> served_tokens;
  std::string error;  // the unreadable entry's message, or what went wrong running the case
};

// Every case of a corpus folder's cases.jsonl; throws std::runtime_error naming the line of a case that is not one.
std::vector<CorpusCase> read_corpus(const std::string& corpus_dir);

// Runs one case with the ropelens binary in a scratch folder: its models served from the facts, its file copied
// there, the stack and options given.
CorpusGot run_corpus_case(const CorpusCase& c, const std::string& corpus_dir);

// Whether what ropelens said is what the case expects (served_tokens compared when the case states it).
bool verdict_matches(const CorpusCase& c, const CorpusGot& got);
// A recipe that came out clean: no error, and no warning beyond ROPE103.
bool recipe_clean(const CorpusGot& got);

// "exit 1 ROPE103 @131072"
std::string describe(const CorpusExpect& expect);
std::string describe(const CorpusGot& got);

// The verdict table (id, expected, got, ok / known gap / MISMATCH) and the summary: how many verdicts are right, how
// many are known gaps (a case with a `known_gap` reason that ropelens still gets wrong). Returns the number of
// failures: mismatches without a known_gap, and known gaps that have come right (their known_gap must go).
int report_corpus(const std::string& corpus_dir, std::ostream& out);

}  // namespace ropelens::test
