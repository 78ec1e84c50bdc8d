#include "ropelens/input/file_bytes.hpp"

#include <fmt/format.h>

namespace ropelens {

FileBytes FileBytes::whole(std::string shown, std::string bytes) {
  FileBytes file;
  file.shown = std::move(shown);
  file.size = bytes.size();
  file.ranges.emplace(0, std::move(bytes));
  return file;
}

void FileBytes::add(std::uint64_t offset, std::string bytes) {
  if (bytes.empty()) return;
  // Merge with a range that ends at or after `offset` and starts at or before it, then swallow those it reaches.
  auto next = ranges.upper_bound(offset);
  if (next != ranges.begin()) {
    auto before = std::prev(next);
    const std::uint64_t end = before->first + before->second.size();
    if (end >= offset) {
      if (offset + bytes.size() > end) before->second.append(bytes, end - offset, std::string::npos);
      offset = before->first;
      bytes = std::move(before->second);
      ranges.erase(before);
    }
  }
  for (next = ranges.lower_bound(offset); next != ranges.end() && next->first <= offset + bytes.size();) {
    const std::uint64_t end = next->first + next->second.size();
    if (end > offset + bytes.size()) bytes.append(next->second, offset + bytes.size() - next->first, std::string::npos);
    next = ranges.erase(next);
  }
  ranges.emplace(offset, std::move(bytes));
}

std::string_view FileBytes::head() const {
  auto first = ranges.find(0);
  return first == ranges.end() ? std::string_view() : std::string_view(first->second);
}

std::string_view FileBytes::at(std::uint64_t offset, std::size_t count) const {
  auto next = ranges.upper_bound(offset);
  if (next != ranges.begin()) {
    const auto& [start, bytes] = *std::prev(next);
    if (offset - start + count <= bytes.size()) return std::string_view(bytes).substr(offset - start, count);
  }
  throw BytesNotRead(shown, offset, count);
}

BytesNotRead::BytesNotRead(const std::string& file, std::uint64_t offset, std::uint64_t count)
    : std::runtime_error(fmt::format("{}: bytes {} to {} have not been read", file, offset, offset + count)),
      offset_(offset), count_(count) {}

}  // namespace ropelens
