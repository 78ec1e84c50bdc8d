#!/usr/bin/env python3
"""Per-release flag tables of vLLM's and SGLang's argument parsers, from git mirrors of their repositories.

    tools/launch-flags/history.py vllm VLLM_GIT   > src/engines/vllm/launch_flags.inc
    tools/launch-flags/history.py sglang SGLANG_GIT > src/engines/sglang/launch_flags.inc

VLLM_GIT and SGLANG_GIT are git directories whose history carries upstream's commits (the forks
/work/shared/oracle/engines.py names: local-inference-lab/vllm, modal-projects/sglang). Nothing here is run from
the build; the tables are committed, and docs/engines.md ("Launch flags by release") says how they were made.

A release's flags are read from the parser's source: vLLM's EngineArgs/FrontendArgs fields (as --field-name) and
every flag string of vllm/engine/arg_utils.py, vllm/entrypoints/openai/cli_args.py and vllm/entrypoints/cli/serve.py;
SGLang's ServerArgs fields (as --field-name, with their `aliases`) and every add_argument flag of
python/sglang/srt/server_args.py. vLLM has no tags in the mirror: a release is main on its release date, and a flag
is only called removed in a release when main lacked it 21 days before that date too (the release branch is cut
earlier). SGLang releases are its version-bump commits.
"""
import ast
import datetime
import re
import subprocess
import sys

FLAG = re.compile(r"--?[a-zA-Z][a-zA-Z0-9_-]*")

# Before 0.6.2 a release is its version-bump commit (vllm/__init__.py or vllm/version.py set __version__ on main);
# from 0.6.2 (setuptools-scm) main on the release date.
VLLM_RELEASES = [("0.1.0", "0b98ba15c"), ("0.1.1", "83658c8ac"), ("0.1.2", "1c395b4ea"), ("0.1.3", "aa84c92ef"),
                 ("0.1.4", "791d79de3"), ("0.1.5", "852ef5b4f"), ("0.1.6", "1117aa141"), ("0.1.7", "90eb3f43c"),
                 ("0.2.0", "e2fb71ec9"), ("0.2.1", "651c614aa"), ("0.2.2", "c5f7740d8"), ("0.2.3", "0f90effc6"),
                 ("0.2.4", "4dd4b5c53"), ("0.2.5", "31c1f3255"), ("0.2.6", "671af2b1c"), ("0.2.7", "2e0b6e775"),
                 ("0.3.0", "1af090b57"), ("0.3.1", "5f08050d8"), ("0.3.2", "8fbd84bf7"), ("0.3.3", "82091b864"),
                 ("0.4.0", "27a57cad5"), ("0.4.1", "221d93ecb"), ("0.4.2", "8d8357c8e"), ("0.4.3", "87a658c81"),
                 ("0.5.0", "114332b88"), ("0.5.1", "abad5746a"), ("0.5.2", "64fdc08c7"), ("0.5.3", "bb2fc0807"),
                 ("0.5.4", "4db5176d9"), ("0.5.5", "09c779261"), ("0.6.0", "32e7db253"), ("0.6.1", "3fd2b0d21"),
                 ("0.6.2", "2024-09-25"), ("0.6.3", "2024-10-14"), ("0.6.4", "2024-11-15"), ("0.6.5", "2024-12-17"),
                 ("0.6.6", "2024-12-27"), ("0.7.0", "2025-01-27"), ("0.7.1", "2025-02-01"), ("0.7.2", "2025-02-06"),
                 ("0.7.3", "2025-02-20"), ("0.8.0", "2025-03-18"), ("0.8.5", "2025-04-28"), ("0.9.0", "2025-05-15"), ("0.9.1", "2025-06-10"),
                 ("0.9.2", "2025-07-08"), ("0.10.0", "2025-07-24"), ("0.10.1", "2025-08-18"), ("0.10.2", "2025-09-13"),
                 ("0.11.0", "2025-10-02"), ("0.11.1", "2025-11-18"), ("0.12.0", "2025-12-03"), ("0.13.0", "2025-12-18"),
                 ("0.14.0", "2026-01-20"), ("0.15.0", "2026-01-29")]
VLLM_NEWEST = ("0.22.0", "9aaf83ef")   # the pinned upstream commit; releases 0.16-0.21 are not placed
VLLM_FIRST_UNPLACED = "0.16.0"         # a flag first seen at the newest commit came in 0.16-0.22: taken from 0.16.0
VLLM_OVERRIDES = {"--rope-scaling": ("", "0.11.1"), "--rope-theta": ("", "0.11.1"),  # PR #28006, in 0.11.1's notes
                  # PR #20979 (313ae8c16, 2025-07-15) made 0.10.0's branch: vllm#18538 shows 0.10.0 refusing it
                  "--enable-reasoning": ("", "0.10.0"),
                  # dropped from the parser by #35723 (792a74b97, 2026-03-03), first missing from 0.17.0 (0.16-0.21
                  # are not placed, so the 21-day rule would say 0.22.0)
                  "--disable-log-requests": ("", "0.17.0")}
SGLANG_RELEASES = [("0.4.0", "f8b032693"), ("0.4.3", "e0b9a423c"), ("0.4.6", "84022c0e5"), ("0.4.7", "4f723edd3"),
                   ("0.4.8", "7c3a12c00"), ("0.4.9", "ec5f9c626"), ("0.4.10", "023288645"), ("0.5.1", "97a38ee85"),
                   ("0.5.2", "b0d25e72c"), ("0.5.3", "a4a3d8239"), ("0.5.4", "1053e1be1"), ("0.5.5", "0c006b880"),
                   ("0.5.6", "7ae368efd")]
SGLANG_NEWEST = ("0.5.16", "8905cbd4")
SGLANG_FIRST_UNPLACED = "0.5.7"


def show(git, commit, path):
    run = subprocess.run(["git", "-C", git, "show", f"{commit}:{path}"], capture_output=True, text=True)
    return run.stdout if run.returncode == 0 else None


def main_at(git, date):
    return subprocess.run(["git", "-C", git, "rev-list", "-1", f"--before={date} 00:00", "main"],
                          capture_output=True, text=True).stdout.strip()


def vllm_flags(git, commit):
    out = set()
    paths = ["vllm/engine/arg_utils.py", "vllm/entrypoints/openai/cli_args.py", "vllm/entrypoints/cli/serve.py"]
    if show(git, commit, paths[1]) is None:  # before cli_args.py, the OpenAI server parsed its own flags
        paths.append("vllm/entrypoints/openai/api_server.py")
    for path in paths:
        text = show(git, commit, path)
        if text is None:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.name in ("EngineArgs", "AsyncEngineArgs", "FrontendArgs",
                                                                "BaseFrontendArgs"):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) \
                            and not item.target.id.startswith("_"):
                        out.add("--" + item.target.id.replace("_", "-"))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and FLAG.fullmatch(node.value):
                out.add(node.value)
    return out


def sglang_flags(git, commit):
    out = set()
    text = show(git, commit, "python/sglang/srt/server_args.py")
    annotated = "A[" in text and "Arg(" in text
    for node in ast.walk(ast.parse(text)):
        if annotated and isinstance(node, ast.ClassDef) and node.name == "ServerArgs":
            for item in node.body:
                if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)) \
                        or item.target.id.startswith("_"):
                    continue
                keywords = [n for n in ast.walk(item.annotation) if isinstance(n, ast.keyword)]
                if any(k.arg == "no_cli" and isinstance(k.value, ast.Constant) and k.value.value for k in keywords):
                    continue
                out.add("--" + item.target.id.replace("_", "-"))
                for k in keywords:
                    if k.arg == "aliases":
                        out.update(e.value for e in ast.walk(k.value)
                                   if isinstance(e, ast.Constant) and isinstance(e.value, str))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument":
            out.update(a.value for a in node.args
                       if isinstance(a, ast.Constant) and isinstance(a.value, str) and FLAG.fullmatch(a.value))
    return out


def table(extract, git, releases, newest, first_unplaced, overrides=None, margin_days=21):
    snap, early = {}, {}
    for release, when in releases:
        dated = "-" in when
        snap[release] = extract(git, main_at(git, when) if dated else when)
        early[release] = snap[release]
        if dated:
            day = datetime.date.fromisoformat(when) - datetime.timedelta(days=margin_days)
            early[release] = extract(git, main_at(git, day.isoformat()))
    snap[newest[0]] = early[newest[0]] = extract(git, newest[1])
    order = [release for release, _ in releases] + [newest[0]]
    rows = []
    for flag in sorted(set().union(*snap.values())):
        first = [flag in snap[r] for r in order].index(True)
        added = "" if first == 0 else order[first]
        if added == newest[0]:
            added = first_unplaced
        removed = ""
        for i in range(first + 1, len(order)):
            r = order[i]
            if flag not in snap[r] and flag not in early[r] and not any(flag in snap[x] for x in order[i:]):
                removed = r
                break
        rows.append((flag, *(overrides or {}).get(flag, (added, removed))))
    return rows


if __name__ == "__main__":
    engine, git = sys.argv[1], sys.argv[2]
    if engine == "vllm":
        rows = table(vllm_flags, git, VLLM_RELEASES, VLLM_NEWEST, VLLM_FIRST_UNPLACED, VLLM_OVERRIDES)
    else:
        rows = table(sglang_flags, git, SGLANG_RELEASES, SGLANG_NEWEST, SGLANG_FIRST_UNPLACED)
    for flag, added, removed in rows:
        print(f'    {{"{flag}", "{added}", "{removed}"}},')
