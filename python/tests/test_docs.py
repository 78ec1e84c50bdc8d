"""docs/python.md runs as written: each section's `>>>` examples are a doctest, run from the source tree (their paths
are testdata/ files). A section that imports torch runs where torch is installed, and is reported skipped elsewhere."""

import doctest
import importlib.util
import re

import pytest

from conftest import SOURCE_DIR

DOC = SOURCE_DIR / "docs" / "python.md"


def sections():
    """(heading, the section's ```pycon blocks) for each section that has one."""
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^(#+ .*)$", text, flags=re.MULTILINE)
    named = [("(top)", parts[0])] + list(zip(parts[1::2], parts[2::2]))
    found = []
    for heading, body in named:
        blocks = re.findall(r"^```pycon\n(.*?)^```", body, flags=re.MULTILINE | re.DOTALL)
        if blocks:
            found.append((heading.lstrip("# ").strip(), "\n".join(blocks)))
    return found


def run_section(heading, body, globs):
    test = doctest.DocTestParser().get_doctest(body, globs, heading, str(DOC), 0)
    assert test.examples, heading
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, clear_globs=False)
    globs.update(test.globs)  # DocTest runs on a copy
    assert runner.failures == 0, f"docs/python.md, {heading}: {runner.failures} example(s) differ (see above)"


def needs_torch(body):
    return "import torch" in body


def test_the_examples_run_as_written_in_order(monkeypatch):
    """The sections without torch, one session as a reader runs them: later ones use what earlier ones defined."""
    monkeypatch.chdir(SOURCE_DIR)
    globs = {}
    ran = 0
    for heading, body in sections():
        if not needs_torch(body):
            run_section(heading, body, globs)
            ran += 1
    assert ran >= 2


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_the_torch_examples_run_as_written(monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
    torch_sections = [(heading, body) for heading, body in sections() if needs_torch(body)]
    assert torch_sections
    for heading, body in torch_sections:
        run_section(heading, body, {})
