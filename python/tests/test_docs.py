"""docs/python.md runs as written: each section's `>>>` examples are a doctest, run from the source tree (their paths
are testdata/ files). A section that imports torch runs where torch is installed, and is reported skipped elsewhere."""

import doctest
import importlib.util
import re

import pytest

from conftest import SOURCE_DIR

DOC = SOURCE_DIR / "docs" / "python.md"


def sections():
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^(#+ .*)$", text, flags=re.MULTILINE)
    named = [("(top)", parts[0])] + list(zip(parts[1::2], parts[2::2]))
    return [(heading.lstrip("# ").strip(), body) for heading, body in named if ">>> " in body]


@pytest.mark.parametrize("heading,body", sections(), ids=[h for h, _ in sections()])
def test_the_examples_of_each_section_run_as_written(heading, body, monkeypatch):
    if "import torch" in body and importlib.util.find_spec("torch") is None:
        pytest.skip(f"{heading}: torch is not installed")
    monkeypatch.chdir(SOURCE_DIR)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(body, {}, heading, str(DOC), 0)
    assert test.examples, heading
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"docs/python.md, {heading}: {runner.failures} example(s) differ (see above)"


def test_the_doc_has_examples_to_run():
    assert len(sections()) >= 3
