"""Fixtures: the built CLI to compare against, and the source tree's test data. The CLI is ROPELENS_BIN (the CTest
test python/pytest and `make python-test` set it), else build/ropelens in the source tree (which `make run` and
`pip install .` build), else a `ropelens` on PATH. Each CLI run happens in a fresh directory, so no .ropelens.json
applies to either side."""

import os
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional

import pytest

SOURCE_DIR = Path(os.environ.get("ROPELENS_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def _cli_binary() -> Path:
    given = os.environ.get("ROPELENS_BIN")
    if given:
        candidates = [Path(given)]
    else:
        on_path = shutil.which("ropelens")
        candidates = [SOURCE_DIR / "build" / "ropelens"] + ([Path(on_path)] if on_path else [])
    for binary in candidates:
        if binary.is_file():
            return binary
    pytest.fail(f"no ropelens command at {candidates[0]}: the tests compare with the command's output; "
                "`make run` or `pip install .` builds it there, or set ROPELENS_BIN")


class Cli:
    """The command line, run in an empty directory."""

    def __init__(self, binary: Path, cwd: Path) -> None:
        self.binary = binary
        self.cwd = cwd

    def run(self, args: List[str], stdin: Optional[str] = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.binary), *args], cwd=self.cwd, input=stdin, capture_output=True, text=True,
            env={**os.environ, "NO_COLOR": "1"},
        )

    def json(self, args: List[str], stdin: Optional[str] = None) -> str:
        """The stdout of `ropelens ARGS --format json` (exit 0 or 1: findings are not failures here)."""
        done = self.run([*args, "--format", "json"], stdin)
        assert done.returncode in (0, 1), done.stderr
        return done.stdout


@pytest.fixture
def cli(tmp_path_factory, monkeypatch) -> Cli:
    """The CLI and this process in the same empty directory, so that both show paths alike."""
    cwd = tmp_path_factory.mktemp("cwd")
    monkeypatch.chdir(cwd)
    return Cli(_cli_binary(), cwd)


def data(relative: str) -> str:
    """An absolute path under testdata/."""
    return str(SOURCE_DIR / "testdata" / relative)
