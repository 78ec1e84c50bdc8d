// A file held in memory, whole or in parts: its size and the byte ranges read from it. A browser hands the core a
// GGUF file this way (its header, never its weights); the readers ask for the bytes they lack (BytesNotRead), and
// the caller reads those and calls again. Nothing here touches a file system.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ropelens {

struct FileBytes {
  std::string shown;                            // the file as shown to users
  std::uint64_t size = 0;                       // the whole file's size
  std::map<std::uint64_t, std::string> ranges;  // offset → the bytes read there

  // A file read whole.
  static FileBytes whole(std::string shown, std::string bytes);
  // Adds the bytes read at `offset` (a range overlapping or touching another is merged with it).
  void add(std::uint64_t offset, std::string bytes);
  // The bytes read from the start of the file without a gap.
  std::string_view head() const;
  bool complete() const { return head().size() == size; }
  // The `count` bytes at `offset` when they were read; BytesNotRead otherwise.
  std::string_view at(std::uint64_t offset, std::size_t count) const;
};

// The bytes a FileBytes lacks for a read: not a fault of the file. The caller reads them and calls again.
class BytesNotRead : public std::runtime_error {
 public:
  BytesNotRead(const std::string& file, std::uint64_t offset, std::uint64_t count);
  std::uint64_t offset() const { return offset_; }
  std::uint64_t count() const { return count_; }

 private:
  std::uint64_t offset_;
  std::uint64_t count_;
};

}  // namespace ropelens
