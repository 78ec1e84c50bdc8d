#!/usr/bin/env python3
"""Size and speed of the playground (make bench-web): prints figures, asserts nothing.

  the module      ropelens.wasm raw, gzip -9 and raw deflate (as the page embeds it, before base64)
  the page        web/index.html as written, and gzip -9 (what a static host serving it compressed sends)
  load            fresh headless Chromium, the page from file:// with a link's state (Qwen3-8B at 128k): the module
                  ready, and the first result shown, in ms since navigation started (median of ROUNDS fresh browsers)
  one check       the module's check of Qwen3-8B at 131072 tokens run in the page (median of CALLS), and table,
                  table --engine all, suggest and fit beside it; a 1 GiB sparse GGUF file's check, header read included
"""

import argparse
import gzip
import json
import os
import pathlib
import shutil
import statistics
import sys
import tempfile
import zlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests/browser"))
import cdp  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parent.parent
QWEN3 = SOURCE / "testdata/configs/qwen/qwen3-8b.json"
GGUF = SOURCE / "testdata/gguf/llama-3.1-rope-freqs.gguf"


def kib(n):
    return f"{n / 1024:,.0f} KiB"


def sizes(page, module):
    wasm = module.read_bytes()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = deflate.compress(wasm) + deflate.flush()
    html = page.read_bytes()
    print(f"module  ropelens.wasm {kib(len(wasm))}; gzip -9 {kib(len(gzip.compress(wasm, 9)))}; "
          f"raw deflate {kib(len(deflated))} (embedded in the page as base64)")
    print(f"        ropelens.js (loader) {kib(module.with_suffix('.js').stat().st_size)}")
    print(f"page    web/index.html {kib(len(html))}; gzip -9 {kib(len(gzip.compress(html, 9)))}; "
          "one file, nothing else is fetched")


def link_to_example(page_url):
    """The page's own link for Qwen3-8B at 128k, made by the page (its state in the fragment)."""
    with cdp.Browser() as browser:
        page = browser.new_page()
        page.navigate(page_url)
        page.wait_for("document.documentElement.dataset.ready === '1'", 60)
        page.evaluate("document.getElementById('example').click()")
        page.wait_for("location.hash.startsWith('#s=') && document.documentElement.dataset.runs", 60)
        page.wait_for("location.hash.length > 100", 60)
        return page.evaluate("location.href")


def load_times(link, rounds):
    ready, first = [], []
    for _ in range(rounds):
        with cdp.Browser() as browser:
            page = browser.new_page()
            page.navigate(link)
            page.wait_for("window.ropelensTimings && window.ropelensTimings.firstResultAt", 60, "the first result")
            timings = page.evaluate("window.ropelensTimings")
            ready.append(timings["readyAt"])
            first.append(timings["firstResultAt"])
    print(f"load    fresh Chromium, file:// with a link (Qwen3-8B at 128k), median of {rounds}: module ready "
          f"{statistics.median(ready):.0f} ms, first result shown {statistics.median(first):.0f} ms after navigation "
          f"(range {min(first):.0f}-{max(first):.0f})")


def command_times(page_url, calls):
    with cdp.Browser() as browser:
        page = browser.new_page()
        page.navigate(page_url)
        page.wait_for("document.documentElement.dataset.ready === '1'", 60)
        config = QWEN3.read_text()
        page.evaluate(f"window.ropelensModule.setModelText('config.json', {json.dumps(config)})")

        def timed(command, options):
            times = page.evaluate(f"""(async () => {{
                const m = window.ropelensModule, times = [];
                for (let i = 0; i < {calls}; i++) {{
                  const t = performance.now();
                  const r = await m.run({command!r}, {options});
                  if (!r.ok) throw new Error(r.error);
                  times.push(performance.now() - t);
                }}
                return times; }})()""")
            return statistics.median(times)

        figures = [(name, timed(command, options)) for name, command, options in [
            ("check --target 131072", "check", "{target: '131072'}"),
            ("table --target 131072", "table", "{target: '131072'}"),
            ("table --engine all", "table", "{target: '131072', engine: 'all'}"),
            ("suggest --target 131072", "suggest", "{target: '131072'}"),
            ("fit --memory 24GiB --weights 16GB", "fit", "{memory: '24GiB', weights: '16GB'}"),
        ]]
        print(f"check   in the page (Chromium), Qwen3-8B, median of {calls}: " +
              "; ".join(f"{name} {ms:.2f} ms" for name, ms in figures))

        folder = tempfile.mkdtemp(prefix="ropelens-bench-")
        try:
            sparse = os.path.join(folder, "sparse.gguf")
            shutil.copyfile(GGUF, sparse)
            os.truncate(sparse, 1 << 30)
            page.evaluate("document.documentElement.dataset.runs = '0'")
            page.set_files("#file", [sparse])
            page.wait_for("Number(document.documentElement.dataset.runs) > 0", 60, "the sparse GGUF")
            status = page.evaluate("document.getElementById('model-status').textContent")
            check_ms = page.evaluate("window.ropelensTimings.lastCheckMs")
            print(f"gguf    a 1 GiB sparse GGUF opened in the page: check {check_ms:.1f} ms, reads included; {status}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", default=str(SOURCE / "web/index.html"))
    parser.add_argument("--module", default=str(SOURCE / "build-web/ropelens.wasm"))
    parser.add_argument("--rounds", type=int, default=5, help="fresh browsers for the load time")
    parser.add_argument("--calls", type=int, default=50, help="calls of each command in the page")
    args = parser.parse_args()
    page = pathlib.Path(args.page).resolve()
    sizes(page, pathlib.Path(args.module).resolve())
    load_times(link_to_example(page.as_uri()), args.rounds)
    command_times(page.as_uri(), args.calls)


if __name__ == "__main__":
    main()
