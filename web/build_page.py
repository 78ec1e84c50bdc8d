#!/usr/bin/env python3
"""Writes the playground page: web/page/index.html with its style, its scripts and the WebAssembly module inlined.

One self-contained file, so that it works opened from file:// (where Chromium lets a page fetch nothing, not even a
file beside it) as well as from any static host. The module is deflated and base64-encoded into a data block the
page inflates with DecompressionStream; the Content-Security-Policy lists the hash of the one script and the one
style sheet, allows WebAssembly compilation ('wasm-unsafe-eval') and forbids every request (default-src 'none').
"""

import argparse
import base64
import hashlib
import json
import pathlib
import zlib


def sha256_source(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def deflated_base64(data):
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: DecompressionStream("deflate-raw")
    return base64.b64encode(compressor.compress(data) + compressor.flush()).decode("ascii")


def script_safe(text, what):
    """Text placed inside <script> must not close it, nor open an HTML comment (which would change how it ends)."""
    for danger in ("</script", "<!--"):
        if danger in text.lower():
            raise SystemExit(f"build_page.py: {what} contains {danger!r}, which would end its <script> early")
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--page", required=True, type=pathlib.Path, help="web/page")
    parser.add_argument("--module", required=True, type=pathlib.Path, help="ropelens.js (ropelens.wasm beside it)")
    parser.add_argument("--version", required=True)
    parser.add_argument("--example", type=pathlib.Path, help="the config the example button pastes")
    parser.add_argument("--output", required=True, type=pathlib.Path)
    args = parser.parse_args()

    loader = args.module.read_text(encoding="utf-8")
    wasm = args.module.with_suffix(".wasm").read_bytes()
    script = "\n".join([loader, (args.page / "ropelens-api.js").read_text(encoding="utf-8"),
                        (args.page / "app.js").read_text(encoding="utf-8")])
    script = script_safe(script, "the page's script")
    style = (args.page / "style.css").read_text(encoding="utf-8")
    example_path = args.example or args.page.parent.parent / "testdata/configs/qwen/qwen3-8b.json"
    example = json.dumps(json.loads(example_path.read_text(encoding="utf-8")), indent=2)
    csp = "; ".join([
        "default-src 'none'",
        f"script-src {sha256_source(script)} 'wasm-unsafe-eval'",
        f"style-src {sha256_source(style)}",
        "img-src data:",
        "base-uri 'none'",
        "form-action 'none'",
    ])
    page = (args.page / "index.html").read_text(encoding="utf-8")
    for key, value in [("CSP", csp), ("STYLE", style), ("VERSION", args.version), ("EXAMPLE", script_safe(example, "the example config")),
                       ("WASM", deflated_base64(wasm)), ("SCRIPT", script)]:
        marker = "{{" + key + "}}"
        if page.count(marker) != 1:
            raise SystemExit(f"build_page.py: {marker} appears {page.count(marker)} times in index.html, not once")
        page = page.replace(marker, value)
    args.output.write_text(page, encoding="utf-8")


if __name__ == "__main__":
    main()
