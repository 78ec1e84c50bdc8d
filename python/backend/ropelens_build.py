"""The build backend of `pip install .` (PEP 517, named in pyproject.toml): builds the `ropelens` wheel with CMake and
the standard library alone, so the install needs no setuptools, wheel or pybind11 *module* in the interpreter that
installs, only Debian's build tools (cmake, g++, pybind11's CMake files) and that interpreter's headers. It works
from a virtual environment of any python3 (Debian's, pyenv's, conda's), offline, with or without build isolation.

It reuses the command's build: the core and the command line are built (or found already built by `make run`) in the
CMake build directory ROPELENS_BUILD (default: build/ in the source tree), configured as `make` configures it; only
the extension module itself, python/src/module.cpp, is compiled for the installing interpreter, in
ROPELENS_BUILD/python-<interpreter>/. The `ropelens` command is built beside the core, so the package's tests find it.

Environment: ROPELENS_BUILD (the build directory), CMAKE_BUILD_PARALLEL_LEVEL (jobs, default the cores),
CMAKE_ARGS (more arguments for configuring the core's build directory when it does not exist yet).
"""

import base64
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = "ropelens"
SUMMARY = ("Audit a model's positional encoding (RoPE and friends) from its config.json: the ropelens engine as a "
           "Python package")
REQUIRES_PYTHON = ">=3.9"
CLASSIFIERS = [
    "Programming Language :: Python :: 3",
    "Programming Language :: C++",
    "License :: OSI Approved :: Apache Software License",
    "Operating System :: POSIX :: Linux",
    "Topic :: Scientific/Engineering :: Artificial Intelligence",
]
EXTRAS = {"torch": ["torch"], "test": ["pytest"]}
PACKAGE_FILES = ("*.py", "*.pyi", "py.typed")


def _say(message):
    print(f"ropelens build: {message}", file=sys.stderr, flush=True)


def _version():
    """The release in CMakeLists.txt's project(): the command's, so that ropelens.__version__ equals it."""
    match = re.search(r"project\(ropelens VERSION ([0-9][0-9.]*)", (ROOT / "CMakeLists.txt").read_text())
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(ropelens VERSION …)")
    return match.group(1)


def _jobs():
    return os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)


def _run(command):
    _say(" ".join(shlex.quote(word) for word in command))
    subprocess.check_call(command)


def _cache_value(build, name):
    cache = build / "CMakeCache.txt"
    if not cache.is_file():
        return None
    match = re.search(rf"^{re.escape(name)}:[A-Z]+=(.*)$", cache.read_text(errors="replace"), re.MULTILINE)
    return match.group(1) if match else None


def _core_build():
    """The command's build directory, configured as `make` configures it, its core position-independent (the
    extension links it), with the command and the core built."""
    if shutil.which("cmake") is None:
        raise RuntimeError("ropelens: building the Python module needs cmake and g++ (sudo bash cmake/install-deps.sh)")
    build = Path(os.environ.get("ROPELENS_BUILD") or ROOT / "build").resolve()
    if _cache_value(build, "CMAKE_HOME_DIRECTORY") is None:
        _run(["cmake", "--preset", "default", "-S", str(ROOT), "-B", str(build)]
             + shlex.split(os.environ.get("CMAKE_ARGS", "")))
    elif "ON" not in (_cache_value(build, "ROPELENS_PIC"), _cache_value(build, "ROPELENS_PYTHON")):
        _say(f"{build} has the core built for the command alone: rebuilding it position-independent")
        _run(["cmake", "-S", str(ROOT), "-B", str(build), "-DROPELENS_PIC=ON"])
    _run(["cmake", "--build", str(build), "--target", "ropelens", "-j", _jobs()])
    return build


def _interpreter_tag():
    """A build directory per interpreter: its ABI and a short hash of where it lives (two 3.11s differ)."""
    soabi = sysconfig.get_config_var("SOABI") or f"py{sys.version_info.major}{sys.version_info.minor}"
    where = hashlib.sha256(os.path.realpath(sys.executable).encode()).hexdigest()[:8]
    return f"{soabi}-{where}"


def _build_extension(core):
    """python/src/module.cpp compiled for this interpreter against the core built in `core`."""
    build = core / f"python-{_interpreter_tag()}"
    _run(["cmake", "-S", str(ROOT / "python"), "-B", str(build), f"-DROPELENS_CORE_BUILD={core}",
          f"-DPython3_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
          "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG"])
    _run(["cmake", "--build", str(build), "--target", "_ropelens", "-j", _jobs()])
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    module = build / "ropelens" / f"_ropelens{suffix}"
    if not module.is_file():
        found = sorted((build / "ropelens").glob("_ropelens*.so"))
        if not found:
            raise RuntimeError(f"ropelens: no _ropelens module under {build / 'ropelens'}")
        module = found[-1]
    return module


def _wheel_tag():
    """cp311-cp311-linux_x86_64: the module is built for this interpreter and platform only."""
    version = f"{sys.version_info.major}{sys.version_info.minor}"
    if sys.implementation.name == "cpython":
        python, abi = f"cp{version}", f"cp{version}{getattr(sys, 'abiflags', '')}"
    else:
        python = f"{sys.implementation.name[:2]}{version}"
        abi = re.sub(r"[-.]", "_", sysconfig.get_config_var("SOABI") or "none")
    return f"{python}-{abi}-{re.sub(r'[-.]', '_', sysconfig.get_platform())}"


def _metadata():
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {_version()}",
        f"Summary: {SUMMARY}",
        "License: Apache-2.0",
        f"Requires-Python: {REQUIRES_PYTHON}",
    ]
    lines += [f"Classifier: {c}" for c in CLASSIFIERS]
    for extra, requirements in EXTRAS.items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + (ROOT / "docs" / "python.md").read_text()


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(directory, files):
    """`files`: {path in the wheel: bytes}. Returns the wheel's file name."""
    version = _version()
    tag = _wheel_tag()
    dist_info = f"{NAME}-{version}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = (
        f"Wheel-Version: 1.0\nGenerator: ropelens_build\nRoot-Is-Purelib: false\nTag: {tag}\n").encode()
    files[f"{dist_info}/top_level.txt"] = f"{NAME}\n".encode()
    record = [_record_line(name, data) for name, data in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{NAME}-{version}-{tag}.whl"
    with zipfile.ZipFile(Path(directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return wheel_name


# ---------------------------------------------------------------------------------------------------------------------
# PEP 517 hooks.


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    module = _build_extension(_core_build())
    package = ROOT / "python" / NAME
    files = {}
    for pattern in PACKAGE_FILES:
        for path in sorted(package.glob(pattern)):
            files[f"{NAME}/{path.name}"] = path.read_bytes()
    files[f"{NAME}/{module.name}"] = module.read_bytes()
    return _write_wheel(wheel_directory, files)
