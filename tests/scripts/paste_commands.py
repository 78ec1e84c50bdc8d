#!/usr/bin/env python3
"""Every command ropelens prints pastes into bash as printed, at terminal widths 40, 80 and 200.

For every config in testdata/configs: `suggest --target 128k --engine all` and `fit`, each on a pseudo-terminal of
each width (the window size set as a terminal sets it), and their commands as the JSON document carries them, on one
line. Also the examples of every command's help, and the command in a finding's help (SRV502). Each printed command
(its first line and the lines its trailing backslashes continue) must
- pass `bash -n`;
- split, in bash and in a POSIX word splitter (shlex, after the line continuations are joined), into the words of
  the same command unwrapped;
- end every continued line with " \\" and break only between words.

usage: paste_commands.py --bin build/ropelens --source .   (exit 1 naming what does not paste)"""
import argparse
import fcntl
import glob
import json
import os
import pty
import re
import select
import shlex
import struct
import subprocess
import sys
import tempfile
import termios

WIDTHS = (40, 80, 200)
COMMAND = r"(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:ropelens |vllm serve|python3? -m |llama-server|llama-cli)"
ASSIGNMENTS = r"[A-Z_][A-Z0-9_]*=\S*(?: [A-Z_][A-Z0-9_]*=\S*)* \\$"  # a command's variables alone, continued
START = re.compile(r"^\s*(?:" + COMMAND + "|" + ASSIGNMENTS + ")")
LABELLED = re.compile(r"^\s*[^:'\"]{1,40}:\s+(?=" + COMMAND + ")")  # fit's "  vLLM (bf16): vllm serve …"


def on_terminal(binary, args, width, cwd):
    """stdout of `binary args` on a pseudo-terminal `width` columns wide."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 500, width, 0, 0))
    attributes = termios.tcgetattr(follower)
    attributes[1] &= ~termios.ONLCR  # no \r added before \n
    termios.tcsetattr(follower, termios.TCSANOW, attributes)
    env = dict(os.environ, NO_COLOR="1", TERM="xterm")
    env.pop("COLUMNS", None)
    process = subprocess.Popen([binary, *args], stdout=follower, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                               cwd=cwd, env=env)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            process.kill()
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait()
    os.close(leader)
    return b"".join(chunks).decode()


def blocks(screen):
    """Each printed command: a line that starts one, and the lines its trailing backslashes continue."""
    out, current = [], None
    for line in screen.split("\n"):
        line = LABELLED.sub("", line)
        if current is not None:
            current.append(line)
            if not line.endswith("\\"):
                out.append("\n".join(current))
                current = None
        elif START.match(line):
            if line.endswith("\\"):
                current = [line]
            else:
                out.append(line)
    if current:
        out.append("\n".join(current))
    return out


def bash_words(text):
    if subprocess.run(["bash", "-n", "-c", text], capture_output=True).returncode != 0:
        return None
    done = subprocess.run(["bash", "-c", 'w() { printf "%s\\0" "$@"; }; w ' + text], capture_output=True)
    return done.stdout.decode().split("\0")[:-1] if done.returncode == 0 else None


def posix_words(text):
    try:
        return shlex.split(text.replace("\\\n", ""))
    except ValueError:
        return None


def layout_problems(block):
    lines = block.split("\n")
    problems = [f"continued line does not end in ' \\': {line!r}" for line in lines[:-1] if not line.endswith(" \\")]
    if lines[-1].endswith("\\"):
        problems.append("the last line ends in a backslash")
    return problems


class Checker:
    def __init__(self):
        self.failures = []
        self.checked = 0

    def expect(self, where, expected_commands, screen):
        """Every command in `expected_commands` (one line each) is printed on `screen` and pastes."""
        printed = blocks(screen)
        by_words = {}
        for block in printed:
            problems = layout_problems(block)
            words = bash_words(block)
            if words is None:
                problems.append("bash -n refuses it, or it does not split")
            elif posix_words(block) != words:
                problems.append("bash and the POSIX splitter split it differently")
            for problem in problems:
                self.failures.append(f"{where}: {problem}:\n{block}")
            if words is not None:
                by_words.setdefault(tuple(words), block)
        for command in expected_commands:
            self.checked += 1
            want = bash_words(command)
            if want is None or tuple(want) not in by_words:
                self.failures.append(f"{where}: not printed so that it pastes: {command[:100]}")


def commands_in(document, keys=("command", "check_command", "serve")):
    found, stack = [], [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in keys and isinstance(value, str) and START.match(value):
                    found.append(value)
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


def check_command_outputs(checker, binary, source, configs):
    for config in configs:
        name = os.path.relpath(config, source)
        for args in (["suggest", config, "--target", "128k", "--engine", "all"],
                     ["fit", config, "--memory", "80GiB", "--weights", "16GiB", "--kv-dtype", "bf16,fp8"]):
            done = subprocess.run([binary, *args, "--format", "json"], capture_output=True, text=True, cwd=source)
            if done.returncode not in (0, 1) or not done.stdout.strip():
                continue  # refused (e.g. no RoPE to extend): nothing printed to paste
            expected = commands_in(json.loads(done.stdout))
            for width in WIDTHS:
                checker.expect(f"{args[0]} {name} at {width} columns", expected,
                               on_terminal(binary, args, width, source))


def check_help_examples(checker, binary, source):
    commands = [line.split()[0] for line in subprocess.run([binary, "help"], capture_output=True, text=True)
                .stdout.split("Subcommands:")[1].splitlines() if line.startswith("  ")]
    for command in commands:
        unwrapped = on_terminal(binary, ["help", command], 10000, source)
        expected = [b for b in blocks(unwrapped.split("Examples:")[-1])] if "Examples:" in unwrapped else []
        for example in expected:  # each runs as printed, where testdata/ is the source tree's
            args = shlex.split(example)[1:]
            with tempfile.TemporaryDirectory() as scratch:
                os.symlink(os.path.join(source, "testdata"), os.path.join(scratch, "testdata"))
                ran = subprocess.run([binary, *args], capture_output=True, cwd=scratch)
            if ran.returncode not in (0, 1):
                checker.failures.append(f"help {command}: the example exits {ran.returncode}: {example}")
        for width in WIDTHS:  # the examples' section: the options' prose may begin with a program's name
            screen = on_terminal(binary, ["help", command], width, source)
            checker.expect(f"help {command} at {width} columns", expected, screen.split("Examples:")[-1])


def check_finding_commands(checker, binary, source):
    case = os.path.join(source, "testdata", "rules", "SRV502", "bad-vllm-above-derived-length")
    args = ["check", os.path.join(case, "launch.sh"), "--model", os.path.join(case, "config.json"), "--select",
            "SRV502"]
    document = json.loads(subprocess.run([binary, *args, "--format", "json"], capture_output=True, text=True,
                                         cwd=source).stdout)
    expected = commands_in(document, keys=("help_command",))
    if not expected:
        checker.failures.append("check: SRV502's finding carries no help_command")
    for width in WIDTHS:
        checker.expect(f"check SRV502 at {width} columns", expected, on_terminal(binary, args, width, source))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("configs", nargs="*")
    a = parser.parse_args()
    binary = os.path.abspath(a.bin)
    source = os.path.abspath(a.source)
    configs = a.configs or sorted(glob.glob(os.path.join(source, "testdata", "configs", "**", "*.json"),
                                            recursive=True))
    checker = Checker()
    check_command_outputs(checker, binary, source, configs)
    check_help_examples(checker, binary, source)
    check_finding_commands(checker, binary, source)
    for failure in checker.failures[:20]:
        print(failure, file=sys.stderr)
    print(f"paste_commands: {checker.checked} printed commands checked at widths {', '.join(map(str, WIDTHS))} "
          f"({len(configs)} configs' suggest and fit, help examples, a finding's help): {len(checker.failures)} "
          "problems")
    return 1 if checker.failures or checker.checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
