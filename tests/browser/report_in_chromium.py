#!/usr/bin/env python3
"""Renders `ropelens report` pages in headless Chromium and checks what a reader would see.

For each case: the page loads with no console message (script errors, and any resource load, which the page's
Content-Security-Policy turns into a console error), every chart is in the DOM after load with one point per
pair as `ropelens table --format json` lists them, and the screenshot is not blank. Screenshots are kept in the
artefacts folder. Chromium missing is a failure, not a skip: `bash cmake/install-deps.sh browser` installs it.
Only the Python standard library is used (the PNG is decoded with zlib).
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

YARN = '/rope_scaling={"rope_type":"yarn","factor":4,"original_max_position_embeddings":32768}'

# name, report arguments, table runs (one per model, in report order) as (path, extra table args)
CASES = [
    ("llama-3.1-8b", ["testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", "--target", "262144"]),
    ("qwen3-8b-yarn", ["testdata/configs/qwen/qwen3-8b.json", "--set", YARN, "--target", "131072"]),
    ("gemma3-27b", ["testdata/configs/gemma/medgemma-27b-it.json", "--target", "131072"]),
    ("gguf-llama-3.1", ["testdata/gguf/llama-3.1-rope-freqs.gguf", "--target", "262144"]),
    ("four-models", ["testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json",
                     "testdata/configs/qwen/qwen3-8b.json", "testdata/configs/gemma/medgemma-27b-it.json",
                     "testdata/gguf/llama-3.1-rope-freqs.gguf", "--target", "131072"]),
]

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0"]


class Failure(Exception):
    pass


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise Failure("chromium is not installed: run `bash cmake/install-deps.sh browser` (make test does)")


def split_report_args(args):
    """The report's paths and its other options (every option here takes one value)."""
    paths, options, i = [], [], 0
    while i < len(args):
        if args[i].startswith("--"):
            options += args[i:i + 2]
            i += 2
        else:
            paths.append(args[i])
            i += 1
    return paths, options


def expected_points(ropelens, source, paths, options):
    """Per chart in page order: {series: points} from `table --format json`, the numbers the charts must show."""
    charts = []
    for path in sorted(paths):  # the report lists files in sorted order, as check does
        out = subprocess.run([ropelens, "table", path, "--format", "json"] + options, cwd=source,
                             capture_output=True, text=True, check=True).stdout
        for setup in json.loads(out)["setups"]:
            rows = setup["pairs"]
            charts.append({"base": sum(1 for r in rows if r["base_wavelength_tokens"] is not None),
                           "effective": sum(1 for r in rows if r["wavelength_tokens"] is not None),
                           "oor": len(setup["out_of_range_pairs"])})
            charts.append({"seen": sum(1 for r in rows if r["seen_deg"] > 0),
                           "needed": sum(1 for r in rows if r["needed_deg"] > 0),
                           "oor": len(setup["out_of_range_pairs"])})
    return charts


def run_chromium(chromium, page, screenshot, profile):
    command = [chromium] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile, "--window-size=1200,2400",
                                            "--screenshot=" + screenshot, "--dump-dom", "file://" + page]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    if done.returncode != 0:
        raise Failure(f"chromium exited {done.returncode}: {done.stderr[-2000:]}")
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    return done.stdout, console


def charts_in(dom):
    """Per <svg class="chart"> in document order: {series: number of <circle class="pt SERIES ...">}."""
    charts = []
    for svg in re.findall(r'<svg class="chart".*?</svg>', dom, re.S):
        counts = {}
        for series in re.findall(r'<circle class="pt (\w+)', svg):
            counts[series] = counts.get(series, 0) + 1
        counts["oor"] = len(re.findall(r'<rect class="oor"', svg))
        charts.append(counts)
    return charts


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failure(f"{path} is not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, color_type = header[0], header[1], header[2], header[3]
    if depth != 8 or color_type not in (2, 6):
        raise Failure(f"{path}: unexpected PNG format (depth {depth}, colour type {color_type})")
    bpp = 3 if color_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up = previous[x]
            upper_left = previous[x - bpp] if x >= bpp else 0
            if filter_type == 1:
                line[x] = (line[x] + left) & 0xFF
            elif filter_type == 2:
                line[x] = (line[x] + up) & 0xFF
            elif filter_type == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif filter_type == 4:
                p = left + up - upper_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else upper_left
                line[x] = (line[x] + predictor) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, bpp, rows


def check_not_blank(path):
    width, height, bpp, rows = png_pixels(path)
    colours = set()
    background = rows[0][:3]
    other = 0
    for row in rows[::4]:
        for x in range(0, width * bpp, bpp * 2):
            pixel = row[x:x + 3]
            colours.add(pixel)
            other += pixel != background
    sampled = len(rows[::4]) * len(range(0, width * bpp, bpp * 2))
    if len(colours) < 8 or other < sampled // 100:
        raise Failure(f"{path} looks blank: {len(colours)} colours, {other} of {sampled} sampled pixels differ "
                      "from the background")
    return len(colours), other / sampled


def run_case(name, args, ropelens, source, artifacts, chromium):
    page = os.path.join(artifacts, name + ".html")
    screenshot = os.path.join(artifacts, name + ".png")
    # The page is wanted whatever the findings: report exits as check does, 1 on findings.
    done = subprocess.run([ropelens, "report"] + args + ["--exit-zero", "-o", page], cwd=source, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise Failure(f"{name}: ropelens report exited {done.returncode}: {done.stderr}")
    html = open(page, encoding="utf-8").read()
    for forbidden in ("<script", "<link", " src=", "url(", "@import", "<iframe", "<object"):
        if forbidden in html:
            raise Failure(f"{name}: the page contains {forbidden!r}: it must load nothing")
    with tempfile.TemporaryDirectory(prefix="ropelens-chromium-") as profile:
        dom, console = run_chromium(chromium, page, screenshot, profile)
    if console:
        raise Failure(f"{name}: console messages while loading:\n" + "\n".join(console))
    if "</html>" not in dom or "ropelens report" not in dom:
        raise Failure(f"{name}: the DOM after load is not the report")
    paths, options = split_report_args(args)
    expected = expected_points(ropelens, source, paths, options)
    found = charts_in(dom)
    if found != expected:
        raise Failure(f"{name}: charts after load {found}, expected {expected} (from table --format json)")
    colours, covered = check_not_blank(screenshot)
    print(f"ok {name}: {len(found)} charts, {sum(sum(v for k, v in c.items() if k != 'oor') for c in found)} points, "
          f"screenshot {screenshot} ({colours} colours, {covered:.0%} not background)")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ropelens", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--artifacts", required=True)
    options = parser.parse_args()
    options.artifacts = os.path.abspath(options.artifacts)
    options.ropelens = os.path.abspath(options.ropelens)
    os.makedirs(options.artifacts, exist_ok=True)
    try:
        chromium = find_chromium()
        results = {name: run_case(name, args, options.ropelens, options.source, options.artifacts, chromium)
                   for name, args in CASES}
        llama = results["llama-3.1-8b"]
        if llama[0] != {"base": 64, "effective": 64, "oor": 25}:
            raise Failure(f"llama-3.1-8b wavelength chart: {llama[0]}, expected 64 base, 64 effective, 25 out of range")
        if len(results["gemma3-27b"]) != 4:
            raise Failure("gemma3-27b: expected two setups (four charts)")
    except (Failure, subprocess.SubprocessError, OSError) as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
