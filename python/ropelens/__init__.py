"""ropelens: audit a model's positional encoding (RoPE and friends) from Python.

The same engine as the ``ropelens`` command: every function runs the code of the command of the same name, and each
result's ``to_json()`` is that command's ``--format json`` output, byte for byte. The attributes of a result are the
members of that document.

>>> import ropelens
>>> report = ropelens.check("config.json", target="128k")      # doctest: +SKIP
>>> [f.code for f in report.findings]                          # doctest: +SKIP
['CTX201', 'CTX202']

A source is a path (config.json, a model folder, a .gguf file), a Hugging Face id in the local cache
(``Org/Name``), ``ollama:NAME[:TAG]``, a ``dict`` holding a config, any object with ``to_dict()`` (a transformers
``PretrainedConfig``), or a :class:`Model` from :func:`load`. Lengths are ints or strings such as ``"128k"``; sizes
are ints (bytes) or strings such as ``"24GiB"``. Input ropelens cannot use raises :class:`Error` (a ``ValueError``)
with the command line's one-line message; a value that is merely wrong is a finding, as on the command line.

Settings files: the command line reads ``.ropelens.json`` from the working directory; here none is read unless
``project=DIRECTORY`` names where to look.
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

from . import _ropelens

__all__ = [
    "Error",
    "Model",
    "Report",
    "Finding",
    "FileReport",
    "Table",
    "Setup",
    "Fit",
    "Suggestion",
    "Diff",
    "load",
    "check",
    "table",
    "fit",
    "suggest",
    "diff",
    "verify_rotary",
    "CHECK_OPTIONS",
    "__version__",
]

#: The command line's release (``ropelens --version``).
__version__: str = _ropelens.__version__

#: Input ropelens cannot use: an unreadable or truncated file, an unknown rule code, a bad length or size.
#: A subclass of ``ValueError``; its message is the command line's one-line error.
Error = _ropelens.Error

_DICT_NAME = "<dict>"


# ---------------------------------------------------------------------------------------------------------------------
# Arguments: the command line's spellings, checked by its own parsers.


def _tokens(value: Union[int, str, None], name: str, minimum: int = 1) -> Optional[int]:
    """A length in tokens: an int, or a string the CLI takes (``131072``, ``"128k"``, ``"1M"``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Error(f"{name}: expected a length in tokens (an int or a string such as '128k'), got {value!r}")
    try:
        return _ropelens.parse_tokens(str(value), minimum)
    except Error as e:
        raise Error(f"{name}: {e}") from None


def _size(value: Union[int, str, None], name: str) -> Optional[int]:
    """A size in bytes: an int, or a string the CLI takes (``"24GiB"``, ``"80GB"``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Error(f"{name}: expected a size (bytes as an int, or a string such as '24GiB'), got {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise Error(f"{name}: {value} is negative")
        return value
    try:
        return _ropelens.parse_size(value)
    except Error as e:
        raise Error(f"{name}: {e}") from None


def _reserve(value: Union[int, str]) -> str:
    """fit's reserve as the CLI reads it: bytes as an int, a size (``"2GiB"``) or a share (``"10%"``)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Error(f"reserve: expected a size or a share such as '2GiB' or '10%', got {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise Error(f"reserve: {value} is negative")
        return f"{value}B" if value else "0"
    return value


def _tp(value: int) -> int:
    """--tp: the GPUs the model is split over, 1 to 1024 as the CLI takes it."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1024:
        raise Error(f"tp: expected a number of GPUs from 1 to 1024, got {value!r}")
    return value


def _list(value: Union[str, Iterable[str], None]) -> List[str]:
    """A list option: a list, or a comma-separated string as the CLI takes it (``"CTX201,ROPE"``)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part for part in value.split(",")]
    return [str(v) for v in value]


def _edits(edits: Optional[Mapping[str, Any]]) -> List[str]:
    """``{"/rope_theta": 1e6}`` as the CLI's ``--set POINTER=JSON`` specs."""
    if not edits:
        return []
    return [f"{pointer}={json.dumps(value)}" for pointer, value in edits.items()]


def _config_text(source: Any) -> Optional[str]:
    """The JSON text of a dict or of an object with ``to_dict()``; None for anything else."""
    if isinstance(source, Mapping):
        data = dict(source)
    elif callable(getattr(source, "to_dict", None)) and not isinstance(source, (str, os.PathLike)):
        data = source.to_dict()
        if not isinstance(data, Mapping):
            raise Error(f"{type(source).__name__}.to_dict() returned {type(data).__name__}, not a dict")
    else:
        return None
    try:
        return json.dumps(data, indent=2, default=str, allow_nan=True)
    except (TypeError, ValueError) as e:
        raise Error(f"{_DICT_NAME}: cannot be written as JSON: {e}") from None


# ---------------------------------------------------------------------------------------------------------------------
# Results: the JSON document, with its members as attributes.


class _Document:
    """A command's JSON output; its top-level members read as attributes."""

    _json: str
    _data: Dict[str, Any]

    def __init__(self, text: str) -> None:
        self._json = text
        self._data = json.loads(text)

    def to_json(self) -> str:
        """The command's ``--format json`` output, byte for byte."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        """The same document parsed (a fresh copy)."""
        return json.loads(self._json)

    def __getattr__(self, name: str) -> Any:
        data = self.__dict__.get("_data")
        if data is not None and name in data:
            return data[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._data))

    def __repr__(self) -> str:
        return f"<ropelens.{type(self).__name__} {self._summary()}>"

    def _summary(self) -> str:
        return ""


class _Part:
    """A member of a document (a setup, a file) with its members as attributes."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    def to_dict(self) -> Dict[str, Any]:
        return json.loads(json.dumps(self._data))

    def __getattr__(self, name: str) -> Any:
        data = self.__dict__.get("_data")
        if data is not None and name in data:
            return data[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._data))


class Finding(_Part):
    """One finding: ``code`` (CTX201), ``name``, ``severity`` (error, warning, info), ``message``, ``help``,
    ``pointer`` (the JSON pointer of the key it is about), ``line`` and ``column`` in the file (when known),
    ``facts`` (the figures behind the message), ``related`` and ``path`` (the file)."""

    code: str
    name: str
    severity: str
    message: str
    help: str
    pointer: str
    line: Optional[int]
    column: Optional[int]
    facts: Dict[str, Any]
    related: List[Dict[str, Any]]
    path: str

    def __init__(self, data: Dict[str, Any], path: str) -> None:
        data = dict(data)
        data.setdefault("path", path)
        for key in ("help", "pointer", "line", "column"):
            data.setdefault(key, None)
        data.setdefault("facts", {})
        data.setdefault("related", [])
        super().__init__(data)

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.code} {self.severity}: {self.message}"

    def __repr__(self) -> str:
        return f"<ropelens.Finding {self.code} {self.severity} at {self.pointer!r}>"


class FileReport(_Part):
    """One checked file: ``path``, ``model_type``, ``target``, ``findings``, ``audit`` (or ``error`` when unreadable)."""

    path: str
    findings: List[Finding]

    def __init__(self, data: Dict[str, Any]) -> None:
        super().__init__(data)
        self.findings = [Finding(d, data.get("path", "")) for d in data.get("diagnostics", [])]


class Report(_Document):
    """The result of :func:`check` (and :func:`verify_rotary`): ``files``, ``findings`` (of every file, in order),
    ``summary`` and the counts ``errors``, ``warnings``, ``infos``."""

    files: List[FileReport]
    findings: List[Finding]

    def __init__(self, text: str, fail_on: str = "warning") -> None:
        super().__init__(text)
        self._fail_on = fail_on
        self.files = [FileReport(f) for f in self._data.get("files", [])]
        self.findings = [finding for f in self.files for finding in f.findings]

    @property
    def errors(self) -> int:
        return int(self._data["summary"]["errors"])

    @property
    def warnings(self) -> int:
        return int(self._data["summary"]["warnings"])

    @property
    def infos(self) -> int:
        return int(self._data["summary"]["infos"])

    @property
    def unreadable(self) -> int:
        """Files that could not be read (each in ``files`` with its ``error``), as the command's summary counts them."""
        return int(self._data["summary"].get("unreadable_files", 0))

    @property
    def codes(self) -> List[str]:
        """The codes found, in order, each once."""
        return list(dict.fromkeys(f.code for f in self.findings))

    def failed(self, fail_on: Optional[str] = None) -> bool:
        """Whether the command would exit non-zero: findings at ``fail_on`` or above (error, warning, info; default:
        the ``fail_on`` :func:`check` was given, else warning), or a file that could not be read."""
        order = {"error": 0, "warning": 1, "info": 2}
        fail_on = _ropelens.check_severity(fail_on or self._fail_on, "fail_on")
        if self.unreadable:
            return True
        return any(order.get(f.severity, 2) <= order[fail_on] for f in self.findings)

    def __iter__(self) -> Iterator[Finding]:
        return iter(self.findings)

    def __len__(self) -> int:
        return len(self.findings)

    def _summary(self) -> str:
        unreadable = f", {self.unreadable} unreadable" if self.unreadable else ""
        return (f"{len(self.files)} file(s){unreadable}, {self.errors} error(s), {self.warnings} warning(s), "
                f"{self.infos} info(s)")


class Setup(_Part):
    """One RoPE setup of a table (a layer type): ``name``, ``layers``, ``rope_type``, ``rope_theta``, ``inv_freq``
    (float64, per pair), ``base_inv_freq``, ``pairs`` (the rows) and the rest of the table's members."""

    name: str
    inv_freq: List[float]


class Table(_Document):
    """The result of :func:`table`: ``setups`` (:class:`Setup`), ``source``, ``target_tokens``, ``seq_len``."""

    setups: List[Setup]

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.setups = [Setup(s) for s in self._data.get("setups", [])]

    def _summary(self) -> str:
        return f"{self._data.get('source')}: {len(self.setups)} setup(s)"


class Fit(_Document):
    """The result of :func:`fit`: ``engines`` (per engine and KV dtype: ``max_tokens``, ``limited_by``,
    ``kv_cache_bytes``, ``serve`` or ``unsupported``) and the request's figures."""

    @property
    def max_tokens(self) -> Dict[str, Dict[str, int]]:
        """``{engine: {kv_dtype: max_tokens}}`` for every engine and dtype that has a cache of that dtype."""
        return {
            engine: {dtype: row["max_tokens"] for dtype, row in rows.items() if "max_tokens" in row}
            for engine, rows in self._data.get("engines", {}).items()
        }


class Suggestion(_Document):
    """The result of :func:`suggest`: ``suggestions`` (each a change with its verification and snippets)."""


class Diff(_Document):
    """The result of :func:`diff`: the findings each side has, and those the change introduces or fixes."""


# ---------------------------------------------------------------------------------------------------------------------
# Models.


class Model:
    """A model description read once (by :func:`load`): pass it to any function in place of a source.

    ``to_json()`` is ``ropelens inspect --format json``; its members (``model_type``, ``setups``, ``layers``,
    ``problems`` ...) read as attributes."""

    def __init__(self, loaded: Any, origin: Any, edits: List[str], revision: Optional[str]) -> None:
        self._loaded = loaded
        self._origin = origin
        self._edits = edits
        self._revision = revision
        self._inspect: Optional[_Document] = None

    @property
    def name(self) -> str:
        """The path or id it was loaded from, or the name a dict is shown under."""
        return self._loaded.name

    @property
    def source(self) -> str:
        """The file it was read from, as findings name it."""
        return self._loaded.source

    @property
    def is_gguf(self) -> bool:
        return self._loaded.is_gguf

    @property
    def text(self) -> str:
        """The text read (a dict's JSON as ropelens wrote it, which findings' lines refer to); "" for GGUF."""
        return self._loaded.text

    def to_json(self) -> str:
        """``ropelens inspect --format json`` of this model."""
        return self._document().to_json()

    def to_dict(self) -> Dict[str, Any]:
        return self._document().to_dict()

    def _document(self) -> _Document:
        if self._inspect is None:
            self._inspect = _Document(_ropelens.inspect_json(self._loaded))
        return self._inspect

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._document(), name)

    def __repr__(self) -> str:
        return f"<ropelens.Model {self.name}>"


Source = Union[str, "os.PathLike[str]", Mapping[str, Any], Model, Any]


def load(
    source: Source,
    *,
    edits: Optional[Mapping[str, Any]] = None,
    revision: Optional[str] = None,
    name: Optional[str] = None,
) -> Model:
    """Read a model description once.

    ``source``: a path (config.json, a model folder, a .gguf file), a Hugging Face id in the local cache
    (``Org/Name``, at ``revision``), ``ollama:NAME[:TAG]``, a dict holding a config, or any object with
    ``to_dict()``. ``edits``: ``{pointer: value}`` applied before analysis, as ``--set POINTER=JSON``; the
    training history is read from the config before them. ``name``: what a dict is shown as in findings
    (default ``<dict>``).
    """
    specs = _edits(edits)
    if isinstance(source, Model):
        if not specs and revision is None:
            return source
        source = source._origin
    text = _config_text(source)
    if text is not None:
        loaded = _ropelens.load_text(name or _DICT_NAME, text, specs)
        return Model(loaded, source, specs, revision)
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str):
        raise Error(
            f"source: expected a path, a model id, a dict or an object with to_dict(), got {type(source).__name__}"
        )
    return Model(_ropelens.load_path(source, specs, revision), source, specs, revision)


class _AsPath:
    """A source as a path on disk, for the commands that read files themselves (suggest, diff): a dict is written
    to a temporary config.json for the call."""

    def __init__(self, source: Source, name: Optional[str] = None) -> None:
        self._directory: Optional[tempfile.TemporaryDirectory] = None
        if isinstance(source, Model):
            if not isinstance(source._origin, (str, os.PathLike)):
                source = source._origin
            elif not source._edits:
                source = source._origin
            else:
                raise Error(f"{source.name}: a model loaded with edits cannot be named by path here; pass the edits")
        text = _config_text(source)
        if text is not None:
            self._directory = tempfile.TemporaryDirectory(prefix="ropelens-")
            self.path = os.path.join(self._directory.name, "config.json")
            with open(self.path, "w", encoding="utf-8") as out:
                out.write(text)
        elif isinstance(source, (str, os.PathLike)):
            self.path = os.fspath(source)
        else:
            raise Error(
                f"source: expected a path, a model id, a dict or an object with to_dict(), got {type(source).__name__}"
            )

    def __enter__(self) -> str:
        return self.path

    def __exit__(self, *_: Any) -> None:
        if self._directory is not None:
            self._directory.cleanup()


# ---------------------------------------------------------------------------------------------------------------------
# Commands.


#: The keywords of :func:`check` and the ``ropelens check`` option each one is: the command's in-process options
#: (cli::CheckRequest), listed once. A test compares it with ``ropelens help check``; the options left out are those of
#: a terminal run (--format, -o, --color, -q, --exit-zero, --write-baseline).
CHECK_OPTIONS: Dict[str, str] = {
    "target": "--target",
    "trained_length": "--trained-length",
    "extended_length": "--extended-length",
    "fail_on": "--fail-on",
    "select": "--select",
    "extend_select": "--extend-select",
    "ignore": "--ignore",
    "severity": "--severity",
    "exclude": "--exclude",
    "memory": "--memory",
    "tp": "--tp",
    "kv_dtype": "--kv-dtype",
    "stack": "--stack",
    "force_exclude": "--force-exclude",
    "baseline": "--baseline",
    "engine": "--engine",
    "revision": "--revision",
    "jobs": "--jobs",
    "gguf_source": "--source",
    "serve": "--serve",
    "model": "--model",
    "edits": "--set",
}


def _rule_options(
    target: Union[int, str, None],
    trained_length: Union[int, str, None],
    extended_length: Union[int, str, None],
    select: Union[str, Iterable[str], None],
    extend_select: Union[str, Iterable[str], None],
    ignore: Union[str, Iterable[str], None],
    severity: Optional[Mapping[str, str]],
    exclude: Union[str, Iterable[str], None],
    memory: Union[int, str, None],
    kv_dtype: Optional[str],
    stack: Union[str, Iterable[str], None],
    tp: int = 1,
    fail_on: Optional[str] = None,
) -> Any:
    rules = _ropelens.RuleOptions()
    rules.target = _tokens(target, "target")
    rules.trained_length = _tokens(trained_length, "trained_length")
    rules.extended_length = _tokens(extended_length, "extended_length", 0)
    rules.fail_on = fail_on or ""
    rules.select = _list(select)
    rules.extend_select = _list(extend_select)
    rules.ignore = _list(ignore)
    rules.severity = [f"{code}={level}" for code, level in (severity or {}).items()]
    rules.exclude = [exclude] if isinstance(exclude, str) else list(exclude or [])
    if memory is not None:
        rules.memory = str(_size(memory, "memory")) + "B" if isinstance(memory, int) else memory
    rules.tp = _tp(tp)
    rules.kv_dtype = kv_dtype or ""
    rules.stack = _list(stack)
    return rules


def _jobs(value: Optional[int]) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1024:
        raise Error(f"jobs: expected a number of threads from 1 to 1024, got {value!r}")
    return value


def check(
    source: Union[Source, Sequence[Union[str, "os.PathLike[str]"]]],
    *,
    target: Union[int, str, None] = None,
    select: Union[str, Iterable[str], None] = None,
    extend_select: Union[str, Iterable[str], None] = None,
    ignore: Union[str, Iterable[str], None] = None,
    severity: Optional[Mapping[str, str]] = None,
    fail_on: Optional[str] = None,
    stack: Union[str, Iterable[str], None] = None,
    memory: Union[int, str, None] = None,
    tp: int = 1,
    kv_dtype: Optional[str] = None,
    trained_length: Union[int, str, None] = None,
    extended_length: Union[int, str, None] = None,
    engine: Optional[str] = None,
    gguf_source: Optional[str] = None,
    serve: Union[str, Iterable[str], None] = None,
    model: Optional[str] = None,
    baseline: Optional[str] = None,
    exclude: Union[str, Iterable[str], None] = None,
    force_exclude: bool = False,
    edits: Optional[Mapping[str, Any]] = None,
    revision: Optional[str] = None,
    project: Optional[str] = None,
    jobs: Optional[int] = None,
) -> Report:
    """Run the rules, as ``ropelens check``: a :class:`Report` with ``findings``.

    ``source`` is a path, a model id, a dict or a :class:`Model`; one that cannot be read raises :class:`Error` with
    the command's one-line message. A list of paths (files, folders searched for configs and GGUF files) is checked
    as the command checks several: a file that cannot be read is reported in the report (``Report.unreadable``,
    its entry in ``files`` with its ``error``), and the others are checked. Every keyword is the ``check`` option
    :data:`CHECK_OPTIONS` names: ``target``: the context length to check at (default: each model's declared
    length). ``select``/``extend_select``/``ignore``: codes, names or prefixes (``"CTX"``,
    ``["CTX201", "unseen-angles"]``); ``severity``: ``{"CTX202": "error"}``; ``fail_on``: what
    :meth:`Report.failed` fails on. ``stack``: the engines you serve with (``"vllm@0.8.5,llama.cpp"``).
    ``memory``: one GPU's memory for weights plus KV cache (``"80GiB"``), ``tp``: the GPUs the model is split over,
    ``kv_dtype``: the cache's dtype. ``trained_length`` and ``extended_length`` override L_P and L_E. ``engine``:
    add the engine views. ``gguf_source``: the config a GGUF file was converted from (``--source``). ``serve``:
    launch lines to check (``--serve``), ``model``: the model they run. ``baseline``: a baseline file whose
    findings are left out. ``edits``: ``{pointer: value}`` (``--set``).
    """
    call = _ropelens.CheckCall()
    request = _ropelens.CheckRequest()
    request.rules = _rule_options(
        target, trained_length, extended_length, select, extend_select, ignore, severity, exclude, memory,
        kv_dtype, stack, tp, fail_on,
    )
    request.revision = revision
    request.source = gguf_source
    request.engine = engine or ""
    request.serve = [serve] if isinstance(serve, str) else list(serve or [])
    request.model = model
    request.baseline = os.fspath(baseline) if baseline is not None else ""
    request.force_exclude = bool(force_exclude)
    request.jobs = _jobs(jobs)
    call.project = project
    fail = fail_on or "warning"
    if isinstance(source, (list, tuple)):
        request.edits = _edits(edits)
        call.request = request
        return Report(_ropelens.check_paths_json([os.fspath(p) for p in source], call, False), fail)
    if isinstance(source, (str, os.PathLike)):
        request.edits = _edits(edits)
        call.request = request
        path = os.fspath(source)
        return Report(_ropelens.check_paths_json([path], call, not os.path.isdir(path)), fail)
    loaded = load(source, edits=edits, revision=revision)
    call.request = request
    return Report(_ropelens.check_loaded_json(loaded._loaded, call), fail)


def table(
    source: Source,
    *,
    target: Union[int, str, None] = None,
    seq_len: Union[int, str, None] = None,
    pairs: Union[str, Iterable[int], None] = None,
    trained_length: Union[int, str, None] = None,
    extended_length: Union[int, str, None] = None,
    kv_dtype: Optional[str] = None,
    edits: Optional[Mapping[str, Any]] = None,
    revision: Optional[str] = None,
) -> Table:
    """The per-pair RoPE table, as ``ropelens table``: ``setups``, each with ``inv_freq`` (float64, exactly the
    command's) and its ``pairs`` rows. ``target``: audit every pair at that length; ``seq_len``: evaluate
    length-dependent methods (dynamic, longrope) there; ``pairs``: the rows to keep (``"0,16,32"``, ``"29-34"``
    or a list of ints)."""
    model = load(source, edits=edits, revision=revision)
    call = _ropelens.TableCall()
    call.target_tokens = _tokens(target, "target")
    call.seq_len = _tokens(seq_len, "seq_len")
    if pairs is not None:
        call.pairs = _ropelens.parse_pairs(pairs) if isinstance(pairs, str) else sorted(set(int(p) for p in pairs))
    call.trained_length = _tokens(trained_length, "trained_length")
    call.extended_length = _tokens(extended_length, "extended_length", 0)
    call.kv_dtype = kv_dtype or ""
    return Table(_ropelens.table_json(model._loaded, call))


def fit(
    source: Source,
    *,
    memory: Union[int, str],
    weights: Union[int, str, None] = None,
    reserve: Union[int, str, None] = None,
    kv_dtype: Union[str, Iterable[str], None] = None,
    tp: int = 1,
    engine: str = "all",
    stack: Union[str, Iterable[str], None] = None,
    revision: Optional[str] = None,
    project: Optional[str] = None,
) -> Fit:
    """The longest context that fits in ``memory``, per engine and KV dtype, as ``ropelens fit``.

    ``memory``: what weights and KV cache share (``"24GiB"``); ``weights``: their size when no safetensors headers
    or GGUF tensors state it; ``reserve``: a size or a share of ``memory`` set aside (``"2GiB"``, ``"10%"``);
    ``kv_dtype``: one dtype or several (``"bf16"``, ``["bf16", "fp8"]``); ``tp``: the GPUs the model is split
    over (``--tp``; ``memory`` is then one GPU's). ``Fit.max_tokens`` is ``{engine: {dtype: tokens}}``.
    """
    model = load(source, revision=revision)
    call = _ropelens.FitCall()
    call.memory_bytes = _size(memory, "memory")
    call.weights_bytes = _size(weights, "weights")
    call.reserve = "" if reserve is None else _reserve(reserve)
    call.kv_dtypes = _list(kv_dtype)
    call.gpus = _tp(tp)
    call.engine = engine
    call.stack = _list(stack)
    call.project = project
    return Fit(_ropelens.fit_json(model._loaded, call))


def suggest(
    source: Source,
    *,
    target: Union[int, str],
    original: Union[int, str, None] = None,
    engine: str = "all",
    stack: Union[str, Iterable[str], None] = None,
    revision: Optional[str] = None,
    project: Optional[str] = None,
) -> Suggestion:
    """The config changes that reach ``target`` tokens, verified, with each engine's snippet, as
    ``ropelens suggest``. ``original``: the length the model was trained at."""
    call = _ropelens.SuggestCall()
    call.target_tokens = _tokens(target, "target", 2)
    call.original_tokens = _tokens(original, "original", 2)
    call.revision = revision
    call.engine = engine
    call.stack = _list(stack)
    call.project = project
    with _AsPath(source) as path:
        return Suggestion(_ropelens.suggest_json(path, call))


def diff(
    old: Source,
    new: Source,
    *,
    target: Union[int, str, None] = None,
    select: Union[str, Iterable[str], None] = None,
    extend_select: Union[str, Iterable[str], None] = None,
    ignore: Union[str, Iterable[str], None] = None,
    severity: Optional[Mapping[str, str]] = None,
    stack: Union[str, Iterable[str], None] = None,
    memory: Union[int, str, None] = None,
    kv_dtype: Optional[str] = None,
    trained_length: Union[int, str, None] = None,
    extended_length: Union[int, str, None] = None,
    project: Optional[str] = None,
) -> Diff:
    """What changes between two configs, as ``ropelens diff OLD NEW``: the findings the change introduces and
    those it fixes. Dicts are written to temporary files for the comparison."""
    call = _ropelens.CheckCall()
    request = _ropelens.CheckRequest()
    request.rules = _rule_options(
        target, trained_length, extended_length, select, extend_select, ignore, severity, None, memory, kv_dtype,
        stack,
    )
    call.request = request
    call.project = project
    with _AsPath(old) as old_path, _AsPath(new) as new_path:
        return Diff(_ropelens.diff_json(old_path, new_path, call))


# ---------------------------------------------------------------------------------------------------------------------
# A loaded torch module.

# Precision of a buffer's dtype: a buffer of a half-precision dtype matches when it equals the config's frequencies
# rounded to that dtype.
_HALF_DTYPES = ("torch.bfloat16", "torch.float16")


def verify_rotary(module: Any, config: Optional[Source] = None, *, name: Optional[str] = None) -> Report:
    """Compare the rotary buffers a loaded ``torch.nn.Module`` holds with the frequencies its config gives.

    Every buffer whose name ends in ``inv_freq`` (``model.rotary_emb.inv_freq``,
    ``model.layers.3.self_attn.rotary_emb.inv_freq``) is compared, at float32 precision, with the frequencies of
    its layer's setup (a buffer outside a layer: the first setup), computed by the table code. This is the rule
    CKPT404 run on the module instead of a checkpoint: a buffer that differs is a finding naming its module path,
    the base its values imply and the first pair that differs, and its help says to fix the buffer (or the way the
    checkpoint was loaded), not the config: the module runs its buffer. ``config``: any source (default:
    ``module.config``, a transformers config). Returns a :class:`Report` (empty ``findings`` when every buffer
    agrees). A module without any such buffer raises :class:`Error`: there is nothing to verify, and an empty
    report would read as a pass.

    torch is needed only here, and only the module's own tensors are read.
    """
    if config is None:
        config = getattr(module, "config", None)
        if config is None:
            raise Error("verify_rotary: the module has no .config; pass config=")
    named_buffers = getattr(module, "named_buffers", None)
    if not callable(named_buffers):
        raise Error(f"verify_rotary: expected a torch.nn.Module, got {type(module).__name__}")
    model = load(config, name=name)
    frequencies = None
    buffers = []
    for path, tensor in named_buffers():
        if not path.endswith("inv_freq"):
            continue
        dtype = str(tensor.dtype)
        values = tensor.detach().to("cpu").double().flatten().tolist()
        if dtype in _HALF_DTYPES:
            if frequencies is None:
                frequencies = [s.inv_freq for s in table(model).setups] + [
                    s.base_inv_freq for s in table(model).setups
                ]
            values = _as_config_values(tensor, values, frequencies)
        buffers.append(_ropelens.Buffer(path, [int(n) for n in tensor.shape], dtype, values))
    if not buffers:
        raise Error(
            f"verify_rotary: {type(module).__name__} holds no rotary buffer: looked for buffers whose name ends in "
            "'inv_freq' among its named_buffers() (persistent or not), as transformers' rotary embeddings register "
            "them; a module that computes its frequencies without a buffer cannot be verified this way"
        )
    return Report(_ropelens.verify_buffers_json(model._loaded, buffers))


def _as_config_values(tensor: Any, values: List[float], frequencies: List[List[float]]) -> List[float]:
    """A half-precision buffer that equals one of the config's frequency lists rounded to its dtype, as that list."""
    import torch  # only for a module that has tensors

    flat = tensor.detach().to("cpu").flatten()
    for candidate in frequencies:
        if len(candidate) == flat.numel() and torch.equal(
            torch.tensor(candidate, dtype=torch.float64).to(tensor.dtype), flat
        ):
            return list(candidate)
    return values
