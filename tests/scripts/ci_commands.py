#!/usr/bin/env python3
"""Parses the YAML that ropelens ships for CI and prints the ropelens commands it runs, as JSON.

usage: ci_commands.py SOURCE_DIR

Reads .pre-commit-hooks.yaml and every ```yaml block of docs/ci.md (each must parse), and prints
[{"where": ..., "command": "diff", "flags": ["--git", "--format"], "formats": ["sarif"]}, ...]: for the hooks, the entry with the
args that docs/ci.md's .pre-commit-config.yaml passes to that hook id; for the workflows, every line of a
run/script step that starts a ropelens command. Exit 1 when a file does not parse or has no command.
"""
import json
import re
import shlex
import sys

import yaml


def yaml_blocks(markdown):
    return re.findall(r"```yaml\n(.*?)```", markdown, flags=re.S)


def strings_in(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from strings_in(item)
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings_in(value)


def command_of(words, where):
    if len(words) < 2 or words[0] != "ropelens":
        return None
    flags = [w.split("=", 1)[0] for w in words[2:] if w.startswith("--")]
    formats = [words[i + 1] for i in range(2, len(words) - 1) if words[i] == "--format"]
    return {"where": where, "command": words[1], "flags": flags, "formats": formats}


def shell_words(line):
    line = re.sub(r'"\$\([^)]*\)"|\$\{\{[^}]*\}\}|"\$[A-Za-z_]+"', "X", line)  # shell and CI expansions
    return shlex.split(line.split(">")[0].split("&&")[0], comments=True)


def main():
    root = sys.argv[1]
    commands = []
    with open(f"{root}/.pre-commit-hooks.yaml", encoding="utf-8") as f:
        hooks = yaml.safe_load(f)
    with open(f"{root}/docs/ci.md", encoding="utf-8") as f:
        blocks = [yaml.safe_load(block) for block in yaml_blocks(f.read())]
    hook_args = {}
    for block in blocks:
        for repo in (block or {}).get("repos", []) if isinstance(block, dict) else []:
            for hook in repo.get("hooks", []):
                hook_args[hook["id"]] = [str(a) for a in hook.get("args", [])]
    for hook in hooks:
        words = shlex.split(hook["entry"]) + hook_args.get(hook["id"], [])
        found = command_of(words, f".pre-commit-hooks.yaml {hook['id']}")
        if found is None:
            sys.exit(f"hook {hook['id']} does not run ropelens")
        commands.append(found)
    for number, block in enumerate(blocks):
        for text in strings_in(block):
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("ropelens "):
                    found = command_of(shell_words(line), f"docs/ci.md yaml block {number + 1}")
                    if found:
                        commands.append(found)
    if len(commands) < 2:
        sys.exit("found no ropelens commands in the CI files")
    print(json.dumps(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
