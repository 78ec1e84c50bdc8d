#!/usr/bin/env python3
"""tools/new-rule in a scratch copy of rules/: the files it writes and the one registry line it adds.

Usage: test_new_rule.py SOURCE_DIR SCRATCH_DIR CODE NAME FAMILY
The scratch copy is then built and its cases run by the CTest tests beside this one (tests/CMakeLists.txt).
"""
import difflib
import json
import pathlib
import re
import shutil
import subprocess
import sys

source, scratch = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
code, name, family = sys.argv[3:6]
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def headings(markdown: str):
    return [line for line in markdown.splitlines() if line.startswith("## ")]


def new_rule(*extra):
    return subprocess.run([sys.executable, str(source / "tools" / "new-rule"), code, name, family, "--root", str(scratch),
                           *extra], capture_output=True, text=True)


shutil.rmtree(scratch, ignore_errors=True)
shutil.copytree(source / "rules", scratch / "rules")
run = new_rule()
if run.returncode != 0:
    sys.exit(f"tools/new-rule failed: {run.stderr}")

stem = scratch / "rules" / family / f"{code}_{name}"
cpp, md = stem.with_suffix(".cpp"), stem.with_suffix(".md")
expect(cpp.exists() and md.exists(), f"{stem}.cpp and .md are written")
expect(f'extern const Rule {code}{{{{"{code}", "{name}",' in cpp.read_text(), "the rule names its code and name")
doc = md.read_text()
expect(doc.splitlines()[0] == f"# {code} {name}", "the doc starts with '# CODE name'")
any_doc = next((source / "rules").glob("*/*.md")).read_text()
expect(headings(doc) == headings(any_doc), f"the doc has the headings every rule doc has: {headings(any_doc)}")

for kind in ("bad", "ok"):
    config = scratch / "testdata" / "rules" / code / f"{kind}-example" / "config.json"
    expect(config.exists() and isinstance(json.loads(config.read_text()), dict), f"{config} is a JSON object")

before = (source / "rules" / "registry.cpp").read_text().splitlines(keepends=True)
after = (scratch / "rules" / "registry.cpp").read_text().splitlines(keepends=True)
changed = [line for line in difflib.unified_diff(before, after, n=0) if line[:1] in "+-" and line[:3] not in ("+++", "---")]
expect(changed == [f"+  RULE({code}) \\\n"], f"registry.cpp gains exactly one RULE line, got {changed}")
listed = re.findall(r"^  RULE\((\w+)\) \\$", "".join(after), re.M)
expect(listed == sorted(listed), "the RULE lines stay sorted")

expect(new_rule().returncode == 2, "a second run refuses a code that is already registered")

if failures:
    sys.exit("tools/new-rule:\n  " + "\n  ".join(failures))
print(f"tools/new-rule wrote {code} into {scratch}")
