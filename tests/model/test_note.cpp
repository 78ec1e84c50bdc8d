#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "ropelens/model/note.hpp"

using ropelens::Note;

namespace {

Note note_from_a_temporary() {
  std::string key = "original_max_position_embeddings";
  return Note("{} {} (factor {:.6g})", key + " of the text config", 32768, 4.0 / 3.0);
}

}  // namespace

TEST_CASE("a note formats as fmt::format would, when its text is read", "[model]") {
  CHECK(Note("plain text, no arguments").text() == "plain text, no arguments");
  CHECK(Note("base {:.6g} at {} tokens", 1234567.891, std::int64_t{131072}).text() ==
        fmt::format("base {:.6g} at {} tokens", 1234567.891, 131072));
  CHECK(Note("{:.6g} {} {}", 500000.0, 7u, std::string_view("long")).text() == "500000 7 long");
  CHECK(Note("{} at {}", "short", -3).text() == "short at -3");
}

TEST_CASE("a note keeps copies of its string arguments", "[model]") {
  CHECK(note_from_a_temporary().text() == "original_max_position_embeddings of the text config 32768 (factor 1.33333)");
}

TEST_CASE("notes compare by their text", "[model]") {
  CHECK(Note("{} tokens", 4096) == Note("4096 tokens"));
  CHECK_FALSE(Note("{} tokens", 4096) == Note("{} tokens", 4097));
  CHECK(ropelens::texts({Note("a"), Note("{}", 2.5)}) == std::vector<std::string>{"a", "2.5"});
}
