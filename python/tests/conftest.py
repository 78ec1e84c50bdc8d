"""Fixtures: the built CLI (ROPELENS_BIN, set by the CTest test python/pytest) to compare against, and the source
tree's test data. Each CLI run happens in a fresh directory, so no .ropelens.json applies to either side."""

import os
import subprocess
from pathlib import Path
from typing import List, Optional

import pytest

SOURCE_DIR = Path(os.environ.get("ROPELENS_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def _cli_binary() -> Path:
    given = os.environ.get("ROPELENS_BIN")
    binary = Path(given) if given else SOURCE_DIR / "build" / "ropelens"
    if not binary.is_file():
        pytest.fail(f"no ropelens binary at {binary} (set ROPELENS_BIN): the tests compare with the CLI's output")
    return binary


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
