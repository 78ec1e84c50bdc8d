// Text forms shared by rule messages and renderers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelens {

// Sorted indices as ranges: {0, 1, 2, 4, 6, 7, 8, 9} → "0–2, 4, 6–9".
std::string index_ranges(const std::vector<int>& sorted_indices);

// Digits grouped by thousands: 17179869184 → "17,179,869,184".
std::string group_thousands(std::uint64_t value);

// The candidate closest to a mistyped word (spelling_distance_within, model/spelling.hpp),
// when it is close enough to be what was meant: "CTX2O1" → "CTX201", "chek" → "check"; the same word in another
// case ("BF16" → "bf16"); else the one candidate the word begins ("warn" → "warning").
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

// Text from a config or a path, made safe to print on a terminal: C0 and C1 control characters, DEL,
// bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) and invalid UTF-8 become visible
// escapes (\u001b, \xff), so a file cannot move the cursor, recolour or retitle the terminal, or reorder
// what is shown. A backslash itself is left alone. JSON and SARIF output stays exact and does not use this.
std::string terminal_safe(std::string_view text);

// The same for a whole block a renderer wrote without colour: its line breaks and tabs stay, every other
// control character is escaped. Only for output that holds no escape sequence of the renderer's own.
std::string terminal_safe_lines(std::string_view text);

// A JSON pointer (RFC 6901) one level down: ("/rope_scaling", "a/b") → "/rope_scaling/a~1b".
std::string json_pointer_join(std::string_view base, std::string_view key);

// The key a JSON pointer ends at, unescaped: "/text_config/rope_scaling/a~1b" → "a/b"; "" for "".
std::string json_pointer_key(std::string_view pointer);

// One POSIX shell word for `text`: as it is when every character is safe unquoted (letters, digits, and
// _-./:@%+=,), else in single quotes with each ' written '\''.
std::string shell_word(std::string_view text);

// A command as one POSIX shell line: each word as shell_word writes it, except that a leading assignment keeps its
// name bare (VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, NAME='a b'), so the shell still reads it as one. What JSON documents
// carry and the command printer (ropelens/render/command_text.hpp) lays out.
std::string shell_line(const std::vector<std::string>& words);

// " (did you mean 'check'?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace ropelens
