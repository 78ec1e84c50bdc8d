"""Builds the Python package `ropelens` (python/) with CMake: `pip install .` (see pyproject.toml and docs/python.md).

setuptools drives CMake through build_ext: it configures a build directory with the Python module on and the tests
off, builds the one target `_ropelens` (the core, the command line's option code and python/src/module.cpp), and
copies the module into the wheel beside the pure-Python package. Nothing is downloaded: Debian's cmake, g++,
python3-dev, python3-pybind11 and the libraries `make deps` installs are all it needs, so
`pip install --no-build-isolation --no-index .` works offline.

Environment: ROPELENS_PYTHON_BUILD (the CMake build directory, default build-python/ here), CMAKE_ARGS (more
arguments for the configure step) and CMAKE_BUILD_PARALLEL_LEVEL (jobs, default the cores).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_version() -> str:
    """The release in CMakeLists.txt's project(): the CLI's, so that ropelens.__version__ equals it."""
    match = re.search(r"project\(ropelens VERSION ([0-9][0-9.]*)", (ROOT / "CMakeLists.txt").read_text())
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(ropelens VERSION …)")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        if shutil.which("cmake") is None:
            raise RuntimeError("ropelens: building the Python module needs cmake (sudo bash cmake/install-deps.sh)")
        build = Path(os.environ.get("ROPELENS_PYTHON_BUILD", ROOT / "build-python")).resolve()
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build),
            "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG",
            "-DROPELENS_PYTHON=ON", "-DROPELENS_BUILD_TESTS=OFF",
            f"-DPython3_EXECUTABLE={sys.executable}",
        ] + shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_ropelens", "-j", jobs])
        built = sorted((build / "python" / "ropelens").glob("_ropelens*.so"))
        if not built:
            raise RuntimeError(f"ropelens: no _ropelens module under {build / 'python' / 'ropelens'}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)


setup(
    version=cmake_version(),
    packages=["ropelens"],
    package_dir={"": "python"},
    package_data={"ropelens": ["*.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("ropelens._ropelens")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
