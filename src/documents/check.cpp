// `check`'s document: begin, each file's part in order, the counts.
#include "ropelens/documents/documents.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens {

CheckCounts write_check_document(const std::vector<FileResult>& files, std::string_view format, std::ostream& out,
                                 const TextOptions& text) {
  auto renderer = make_check_renderer(format, out, text);
  renderer->begin();
  CheckCounts counts;
  for (const FileResult& file : files) {
    renderer->file(file);
    counts.add(file);
  }
  renderer->end(counts);
  return counts;
}

CheckCounts write_check_document(const std::vector<std::string>& paths, const CheckOptions& options,
                                 std::string_view format, std::ostream& out, const TextOptions& text,
                                 const std::function<void(const RenderedFile&)>& on_file) {
  auto renderer = make_check_renderer(format, out, text);
  renderer->begin();
  const CheckRenderer& render_only = *renderer;
  CheckCounts counts = check_paths_streaming(
      paths, options, [&](const FileResult& file) { return render_only.render_file(file); },
      [&](RenderedFile&& file) {
        if (file.skipped) return;  // counted in the summary; RenderedFile::skipped says why
        renderer->write_file(file.part);
        if (file.error) renderer->unreadable(file.path, *file.error);
        if (on_file) on_file(file);
      });
  renderer->end(counts);
  return counts;
}

}  // namespace ropelens
