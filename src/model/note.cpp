#include "ropelens/model/note.hpp"

#include <fmt/args.h>
#include <fmt/format.h>

namespace ropelens {

std::string Note::text() const {
  fmt::dynamic_format_arg_store<fmt::format_context> store;
  for (std::size_t i = 0; i < count_; ++i) std::visit([&](const auto& arg) { store.push_back(arg); }, arguments_[i]);
  return fmt::vformat(format_, store);
}

std::vector<std::string> texts(const std::vector<Note>& notes) {
  std::vector<std::string> out;
  out.reserve(notes.size());
  for (const auto& note : notes) out.push_back(note.text());
  return out;
}

}  // namespace ropelens
