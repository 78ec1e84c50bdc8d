# Type stubs for the ropelens package (python/ropelens/__init__.py); see docs/python.md.
import os
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

__version__: str

class Error(ValueError): ...

Length = Union[int, str]  # 131072, "128k", "1M"
Size = Union[int, str]  # bytes, "24GiB", "80GB"
Codes = Union[str, Iterable[str]]  # "CTX201,ROPE" or ["CTX201", "unseen-angles"]

class Finding:
    code: str
    name: str
    severity: str
    message: str
    help: Optional[str]
    pointer: Optional[str]
    line: Optional[int]
    column: Optional[int]
    facts: Dict[str, Any]
    related: List[Dict[str, Any]]
    path: str
    def to_dict(self) -> Dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...

class FileReport:
    path: str
    findings: List[Finding]
    def to_dict(self) -> Dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...

class _Document:
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...

class Report(_Document):
    files: List[FileReport]
    findings: List[Finding]
    summary: Dict[str, Any]
    @property
    def errors(self) -> int: ...
    @property
    def warnings(self) -> int: ...
    @property
    def infos(self) -> int: ...
    @property
    def unreadable(self) -> int: ...
    @property
    def codes(self) -> List[str]: ...
    def failed(self, fail_on: Optional[str] = ...) -> bool: ...
    def __iter__(self) -> Iterator[Finding]: ...
    def __len__(self) -> int: ...

class Setup:
    name: str
    inv_freq: List[float]
    base_inv_freq: List[float]
    rope_type: str
    rope_theta: float
    layers: List[int]
    pairs: List[Dict[str, Any]]
    def to_dict(self) -> Dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...

class Table(_Document):
    setups: List[Setup]

class Fit(_Document):
    engines: Dict[str, Dict[str, Dict[str, Any]]]
    @property
    def max_tokens(self) -> Dict[str, Dict[str, int]]: ...

class Suggestion(_Document):
    suggestions: List[Dict[str, Any]]

class Diff(_Document): ...

class Model:
    @property
    def name(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def is_gguf(self) -> bool: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...

Source = Union[str, os.PathLike[str], Mapping[str, Any], Model, Any]

def load(
    source: Source,
    *,
    edits: Optional[Mapping[str, Any]] = ...,
    revision: Optional[str] = ...,
    name: Optional[str] = ...,
) -> Model: ...
CHECK_OPTIONS: Dict[str, str]

def check(
    source: Union[Source, Sequence[Union[str, os.PathLike[str]]]],
    *,
    target: Optional[Length] = ...,
    select: Optional[Codes] = ...,
    extend_select: Optional[Codes] = ...,
    ignore: Optional[Codes] = ...,
    severity: Optional[Mapping[str, str]] = ...,
    fail_on: Optional[str] = ...,
    stack: Optional[Codes] = ...,
    memory: Optional[Size] = ...,
    tp: int = ...,
    kv_dtype: Optional[str] = ...,
    trained_length: Optional[Length] = ...,
    extended_length: Optional[Length] = ...,
    engine: Optional[str] = ...,
    gguf_source: Optional[str] = ...,
    serve: Optional[Union[str, Iterable[str]]] = ...,
    model: Optional[str] = ...,
    baseline: Optional[str] = ...,
    exclude: Optional[Union[str, Iterable[str]]] = ...,
    force_exclude: bool = ...,
    edits: Optional[Mapping[str, Any]] = ...,
    revision: Optional[str] = ...,
    project: Optional[str] = ...,
    jobs: Optional[int] = ...,
) -> Report: ...
def table(
    source: Source,
    *,
    target: Optional[Length] = ...,
    seq_len: Optional[Length] = ...,
    pairs: Optional[Union[str, Iterable[int]]] = ...,
    trained_length: Optional[Length] = ...,
    extended_length: Optional[Length] = ...,
    kv_dtype: Optional[str] = ...,
    edits: Optional[Mapping[str, Any]] = ...,
    revision: Optional[str] = ...,
) -> Table: ...
def fit(
    source: Source,
    *,
    memory: Size,
    weights: Optional[Size] = ...,
    reserve: Optional[Union[Size, str]] = ...,
    kv_dtype: Optional[Union[str, Iterable[str]]] = ...,
    tp: int = ...,
    engine: str = ...,
    stack: Optional[Codes] = ...,
    revision: Optional[str] = ...,
    project: Optional[str] = ...,
) -> Fit: ...
def suggest(
    source: Source,
    *,
    target: Length,
    original: Optional[Length] = ...,
    engine: str = ...,
    stack: Optional[Codes] = ...,
    revision: Optional[str] = ...,
    project: Optional[str] = ...,
) -> Suggestion: ...
def diff(
    old: Source,
    new: Source,
    *,
    target: Optional[Length] = ...,
    select: Optional[Codes] = ...,
    extend_select: Optional[Codes] = ...,
    ignore: Optional[Codes] = ...,
    severity: Optional[Mapping[str, str]] = ...,
    stack: Optional[Codes] = ...,
    memory: Optional[Size] = ...,
    kv_dtype: Optional[str] = ...,
    trained_length: Optional[Length] = ...,
    extended_length: Optional[Length] = ...,
    project: Optional[str] = ...,
) -> Diff: ...
def verify_rotary(module: Any, config: Optional[Source] = ..., *, name: Optional[str] = ...) -> Report: ...
