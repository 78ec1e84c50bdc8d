// ropelens._ropelens: the core as a Python module. Every function here does what the command of the same name does
// (src/cli/*.cpp): the same request structures, resolved by the command line's own option code (src/cli/options.cpp,
// over documents/options.hpp), and the same document composition (documents/documents.hpp), so that `.to_json()` is
// the CLI's `--format json` byte for byte. The package around it
// (python/ropelens/__init__.py) turns keyword arguments into these requests and the JSON into plain attributes.
//
// Adding an option: a field of a request below is one `def_readwrite`/`def_property` line here and one keyword in
// __init__.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/options.hpp"
#include "ropelens/audit/audit.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/check/project_settings.hpp"
#include "ropelens/diff/diff.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/input/model_locator.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/render/formats.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/report/fit_report.hpp"
#include "ropelens/report/inspect_report.hpp"
#include "ropelens/report/table_report.hpp"
#include "ropelens/suggest/suggest.hpp"

namespace py = pybind11;

namespace ropelens::python {
namespace {

PyObject* error_type = nullptr;  // ropelens.Error, a ValueError

// The settings a call runs under: a directory's .ropelens.json (searched upwards, as the CLI searches from the
// working directory), or none.
ProjectSettings project_settings(const std::optional<std::string>& project) {
  return project ? load_project_settings(*project) : ProjectSettings{};
}

std::optional<KvDtype> kv_dtype_option(const std::string& name) { return cli::parse_kv_dtype_option(name, "kv_dtype"); }

std::string kv_dtype_name(const std::optional<KvDtype>& dtype) {
  return dtype ? std::string(to_string(*dtype)) : std::string();
}

// The model a call reads: loaded once by load() (a path, a model id, a GGUF file, or JSON text from a dict).
struct Loaded {
  LoadedModel loaded;
  std::string name;  // as given: the path or id, or the name a dict is shown under
};

std::shared_ptr<Loaded> load_path(const std::string& path, const std::vector<std::string>& edits,
                                  const std::optional<std::string>& revision) {
  auto result = std::make_shared<Loaded>();
  result->loaded = load_model(path, cli::parse_edits(edits), revision);
  result->name = path;
  return result;
}

std::shared_ptr<Loaded> load_text(const std::string& shown, const std::string& text,
                                  const std::vector<std::string>& edits) {
  auto result = std::make_shared<Loaded>();
  result->loaded = load_model_bytes(shown, text, cli::parse_edits(edits));
  result->name = shown;
  return result;
}

std::string inspect_json(const Loaded& model, std::optional<std::int64_t> target, const std::string& kv_dtype) {
  std::ostringstream out;
  write_inspect_document(model.loaded, {target, kv_dtype_option(kv_dtype)}, "json", out);
  return out.str();
}

// `ropelens check` options: the command's own request (cli::CheckRequest, every in-process option of check), resolved
// by its own code (cli::resolve_check_command) against the settings `project` names.
struct CheckCall {
  cli::CheckRequest request;
  std::optional<std::string> project;

  CheckOptions resolve() const { return cli::resolve_check_command(request, project_settings(project)).check; }
};

// check PATH...: the command's pipeline (check_paths_streaming with the renderer on the workers). A file that cannot
// be read is reported in the document, as the command reports it in a scan; with `raise_unreadable` (a single path
// that names a file) it raises the command's one-line error instead, as `inspect` and `table` do.
std::string check_paths_json(const std::vector<std::string>& paths, const CheckCall& call, bool raise_unreadable) {
  std::ostringstream out;
  std::optional<std::string> first_error;
  write_check_document(paths, call.resolve(), "json", out, {}, [&](const RenderedFile& file) {
    if (file.error && !first_error) first_error = *file.error;
  });
  if (raise_unreadable && first_error) throw std::invalid_argument(*first_error);
  return out.str();
}

// check of a model already loaded (a dict, a to_dict() object, or load()'s Model): check_model on a copy.
std::string check_loaded_json(const Loaded& model, const CheckCall& call) {
  const CheckOptions check = call.resolve();
  LoadedModel loaded = model.loaded;
  attach_conversion_source(loaded, check.source);
  std::ostringstream out;
  write_check_document({check_model(std::move(loaded), check)}, "json", out);
  return out.str();
}

struct TableCall {
  TableRequest request;
  TrainingOverrides training;
};

std::string table_json(const Loaded& model, const TableCall& call) {
  TableOptions table;
  table.request = call.request;
  table.training = call.training;
  std::ostringstream out;
  write_table_document(model.loaded, table, "json", out);
  return out.str();
}

struct FitCall {
  FitRequest request;
  std::string reserve;
  std::vector<std::string> kv_dtypes;
  std::string engine = "all";
  std::vector<std::string> stack;
  std::optional<std::string> project;
};

std::string fit_document(const Loaded& model, const FitCall& call) {
  FitRequest request = call.request;
  request.reserve = parse_fit_reserve("reserve", call.reserve, request.memory_bytes);
  request.dtypes.clear();
  for (const auto& name : call.kv_dtypes)
    request.dtypes.push_back(*parse_kv_dtype(cli::chosen(cli::kv_dtype_choices(), name, "kv_dtype")));
  request.deployment = cli::deployment_option(call.stack, project_settings(call.project));
  request.engines = request.deployment.served(call.engine);
  std::ostringstream out;
  write_fit_document(model.loaded, model.name, std::move(request), {}, "json", out);
  return out.str();
}

struct SuggestCall {
  SuggestRequest request;
  std::string engine = "all";
  std::vector<std::string> stack;
  std::optional<std::string> project;
};

std::string suggest_json(const std::string& path, const SuggestCall& call) {
  SuggestRequest request = call.request;
  request.deployment = cli::deployment_option(call.stack, project_settings(call.project));
  request.engines = request.deployment.served(call.engine);
  std::ostringstream out;
  write_suggest_document(suggest_changes(path, request), "json", out);
  return out.str();
}

std::string diff_json(const std::string& old_path, const std::string& new_path, const CheckCall& call) {
  const DiffReport report = diff_files(old_path, new_path, call.resolve());
  std::ostringstream out;
  find_format(diff_formats(), "json", "diff")(report, out, {});
  return out.str();
}

// A rotary buffer a loaded torch module holds: its module path, shape and values (as float64).
struct Buffer {
  std::string name;
  std::vector<std::uint64_t> shape;
  std::string dtype;
  std::vector<double> values;
};

// verify_rotary: the module's buffers become the checkpoint's tensors of the config, and CKPT404 (the rule that
// compares stored buffers with the frequencies of each layer's setup) runs alone on it, so the findings name the
// module paths and read as they do for a checkpoint.
std::string verify_buffers_json(const Loaded& model, const std::vector<Buffer>& buffers) {
  CheckCall call;
  call.request.rules.select = {"CKPT404"};
  LoadedModel loaded = model.loaded;
  Checkpoint checkpoint = loaded.model.checkpoint ? *loaded.model.checkpoint : Checkpoint{};
  checkpoint.tensors.clear();
  checkpoint.in_memory = true;  // CKPT404's help then says what to fix in a live module
  for (const auto& buffer : buffers)
    checkpoint.tensors.push_back({buffer.name, buffer.dtype, buffer.shape, "<module>", buffer.values});
  std::sort(checkpoint.tensors.begin(), checkpoint.tensors.end(),
            [](const CheckpointTensor& a, const CheckpointTensor& b) { return a.name < b.name; });
  loaded.model.checkpoint = std::move(checkpoint);
  std::ostringstream out;
  write_check_document({check_model(std::move(loaded), call.resolve())}, "json", out);
  return out.str();
}

void translate_errors(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const InputError& e) {
    PyErr_SetString(error_type, e.what());
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(error_type, e.what());
  }
}

}  // namespace
}  // namespace ropelens::python

PYBIND11_MODULE(_ropelens, m) {
  using namespace ropelens;
  using namespace ropelens::python;
  m.doc() = "The ropelens core (use the ropelens package, which wraps it).";
  m.attr("__version__") = ROPELENS_VERSION;

  error_type = PyErr_NewExceptionWithDoc(
      "ropelens.Error",
      "Input ropelens cannot use (an unreadable or truncated file, a bad option value): the CLI's one-line message.",
      PyExc_ValueError, nullptr);
  m.add_object("Error", py::handle(error_type));
  py::register_exception_translator(translate_errors);

  m.def("parse_tokens", &parse_token_count, py::arg("text"), py::arg("min") = 1, py::arg("max") = kMaxTokenCount,
        "A length in tokens: 131072, 128k, 1M or 1.5M (powers of 1024).");
  m.def("parse_size", &parse_byte_size, py::arg("text"), "A size in bytes: 24GiB, 80GB, 512MiB.");
  m.def("selector_problem", &selector_problem, py::arg("selector"));

  py::class_<Loaded, std::shared_ptr<Loaded>>(m, "Loaded")
      .def_readonly("name", &Loaded::name)
      .def_property_readonly("source", [](const Loaded& l) { return l.loaded.model.source; })
      .def_property_readonly("text", [](const Loaded& l) { return l.loaded.text; })
      .def_property_readonly("is_gguf", [](const Loaded& l) { return l.loaded.gguf.has_value(); });
  m.def("load_path", &load_path, py::arg("path"), py::arg("edits"), py::arg("revision"));
  m.def("load_text", &load_text, py::arg("shown"), py::arg("text"), py::arg("edits"));
  m.def("inspect_json", &inspect_json, py::arg("model"), py::arg("target") = std::nullopt, py::arg("kv_dtype") = "");

  // `check` and `diff`: the command line's RuleOptions (--target ... --stack) and CheckRequest, resolved by its own
  // code. Each field is a keyword of ropelens.check.
  py::class_<cli::RuleOptions>(m, "RuleOptions")
      .def(py::init<>())
      .def_readwrite("target", &cli::RuleOptions::target)
      .def_readwrite("trained_length", &cli::RuleOptions::trained_length)
      .def_readwrite("extended_length", &cli::RuleOptions::extended_length)
      .def_readwrite("fail_on", &cli::RuleOptions::fail_on)
      .def_readwrite("select", &cli::RuleOptions::select)
      .def_readwrite("extend_select", &cli::RuleOptions::extend_select)
      .def_readwrite("ignore", &cli::RuleOptions::ignore)
      .def_readwrite("severity", &cli::RuleOptions::severity)
      .def_readwrite("exclude", &cli::RuleOptions::exclude)
      .def_readwrite("memory", &cli::RuleOptions::memory)
      .def_readwrite("kv_dtype", &cli::RuleOptions::kv_dtype)
      .def_readwrite("tp", &cli::RuleOptions::tp)
      .def_readwrite("stack", &cli::RuleOptions::stack);
  py::class_<cli::CheckRequest>(m, "CheckRequest")
      .def(py::init<>())
      .def_readwrite("rules", &cli::CheckRequest::rules)
      .def_readwrite("edits", &cli::CheckRequest::edits)
      .def_readwrite("engine", &cli::CheckRequest::engine)
      .def_readwrite("revision", &cli::CheckRequest::revision)
      .def_readwrite("source", &cli::CheckRequest::source)
      .def_readwrite("serve", &cli::CheckRequest::serve)
      .def_readwrite("model", &cli::CheckRequest::model)
      .def_readwrite("baseline", &cli::CheckRequest::baseline)
      .def_readwrite("force_exclude", &cli::CheckRequest::force_exclude)
      .def_readwrite("jobs", &cli::CheckRequest::jobs);
  py::class_<CheckCall>(m, "CheckCall")
      .def(py::init<>())
      .def_readwrite("request", &CheckCall::request)
      .def_readwrite("project", &CheckCall::project);
  m.def("severity_choices", [] { return cli::severity_choices().values; });
  m.def("check_severity", [](const std::string& level, const std::string& label) {
    return cli::chosen(cli::severity_choices(), level, label);
  });
  m.def("check_paths_json", &check_paths_json, py::arg("paths"), py::arg("call"), py::arg("raise_unreadable"),
        py::call_guard<py::gil_scoped_release>());
  m.def("check_loaded_json", &check_loaded_json, py::arg("model"), py::arg("call"),
        py::call_guard<py::gil_scoped_release>());
  m.def("diff_json", &diff_json, py::arg("old"), py::arg("new"), py::arg("call"),
        py::call_guard<py::gil_scoped_release>());

  py::class_<TableCall>(m, "TableCall")
      .def(py::init<>())
      .def_property(
          "target_tokens", [](const TableCall& c) { return c.request.target_tokens; },
          [](TableCall& c, std::optional<std::int64_t> v) { c.request.target_tokens = v; })
      .def_property(
          "seq_len", [](const TableCall& c) { return c.request.seq_len; },
          [](TableCall& c, std::optional<std::int64_t> v) { c.request.seq_len = v; })
      .def_property(
          "pairs", [](const TableCall& c) { return c.request.pairs; },
          [](TableCall& c, std::vector<int> v) { c.request.pairs = std::move(v); })
      .def_property(
          "kv_dtype", [](const TableCall& c) { return kv_dtype_name(c.request.kv_dtype); },
          [](TableCall& c, const std::string& v) { c.request.kv_dtype = kv_dtype_option(v); })
      .def_property(
          "trained_length", [](const TableCall& c) { return c.training.trained_length; },
          [](TableCall& c, std::optional<std::int64_t> v) { c.training.trained_length = v; })
      .def_property(
          "extended_length", [](const TableCall& c) { return c.training.extended_length; },
          [](TableCall& c, std::optional<std::int64_t> v) { c.training.extended_length = v; });
  m.def("parse_pairs", &cli::parse_pair_list, py::arg("text"));
  m.def("table_json", &table_json, py::arg("model"), py::arg("call"));

  py::class_<FitCall>(m, "FitCall")
      .def(py::init<>())
      .def_property(
          "memory_bytes", [](const FitCall& c) { return c.request.memory_bytes; },
          [](FitCall& c, std::uint64_t v) { c.request.memory_bytes = v; })
      .def_property(
          "gpus", [](const FitCall& c) { return c.request.gpus; }, [](FitCall& c, int v) { c.request.gpus = v; })
      .def_property(
          "weights_bytes", [](const FitCall& c) { return c.request.weights_bytes; },
          [](FitCall& c, std::optional<std::uint64_t> v) { c.request.weights_bytes = v; })
      .def_readwrite("reserve", &FitCall::reserve)
      .def_readwrite("kv_dtypes", &FitCall::kv_dtypes)
      .def_readwrite("engine", &FitCall::engine)
      .def_readwrite("stack", &FitCall::stack)
      .def_readwrite("project", &FitCall::project);
  m.def("fit_json", &fit_document, py::arg("model"), py::arg("call"));

  py::class_<SuggestCall>(m, "SuggestCall")
      .def(py::init<>())
      .def_property(
          "target_tokens", [](const SuggestCall& c) { return c.request.target_tokens; },
          [](SuggestCall& c, std::int64_t v) { c.request.target_tokens = v; })
      .def_property(
          "original_tokens", [](const SuggestCall& c) { return c.request.original_tokens; },
          [](SuggestCall& c, std::optional<std::int64_t> v) { c.request.original_tokens = v; })
      .def_property(
          "revision", [](const SuggestCall& c) { return c.request.revision; },
          [](SuggestCall& c, std::optional<std::string> v) { c.request.revision = std::move(v); })
      .def_readwrite("engine", &SuggestCall::engine)
      .def_readwrite("stack", &SuggestCall::stack)
      .def_readwrite("project", &SuggestCall::project);
  m.def("suggest_json", &suggest_json, py::arg("path"), py::arg("call"));

  py::class_<Buffer>(m, "Buffer")
      .def(py::init<std::string, std::vector<std::uint64_t>, std::string, std::vector<double>>(), py::arg("name"),
           py::arg("shape"), py::arg("dtype"), py::arg("values"))
      .def_readonly("name", &Buffer::name);
  m.def("verify_buffers_json", &verify_buffers_json, py::arg("model"), py::arg("buffers"));
}
