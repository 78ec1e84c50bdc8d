#!/usr/bin/env python3
"""The playground page (web/index.html, `make web`) in headless Chromium, driven as a person uses it.

Opened from file://, the page: pastes Qwen3-8B's config.json at 131072 tokens and shows CTX201 with pairs 41-63, and
the documents it shows equal `ropelens` run on the same input byte for byte (check, table, the engine views, fit,
suggest); a launch line pasted beside it equals `check --serve ... --model config.json`; a GGUF file opened in the
page equals `check FILE`, and a 1 GiB sparse GGUF file is answered in under a second having read its header only;
the link the page makes, opened in a fresh browser, shows the same documents. Throughout, the page makes no network
request (Chromium's own request log, and no Content-Security-Policy violation or console error), and served over
http it asks for nothing but itself. Keyboard: Tab reaches every control in order. At 320 px wide the page does not
scroll sideways; screenshots (light, dark, 320 px) are kept in the artefacts folder.

Only the Python standard library is used (tests/browser/cdp.py drives Chromium over its debugging pipe).
"""

import argparse
import functools
import http.server
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cdp  # noqa: E402

QWEN3 = "testdata/configs/qwen/qwen3-8b.json"
GGUF = "testdata/gguf/llama-3.1-rope-freqs.gguf"
LAUNCH = "vllm serve Qwen/Qwen3-8B --max-model-len 131072"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Cli:
    def __init__(self, binary):
        self.binary = binary

    def __call__(self, args, cwd):
        done = subprocess.run([self.binary] + args, cwd=cwd, capture_output=True, text=True)
        if done.returncode not in (0, 1):
            raise Failure(f"ropelens {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done.stdout


def documents(page):
    """Every JSON document the page shows, by name, as its text."""
    return page.evaluate("Object.fromEntries([...document.querySelectorAll('pre[data-document]')]"
                         ".map(p => [p.dataset.document, p.textContent]))")


def wait_for_run(page, runs_before, what):
    page.wait_for(f"Number(document.documentElement.dataset.runs || 0) > {runs_before}", 30, what)


def runs(page):
    return int(page.evaluate("document.documentElement.dataset.runs || '0'"))


def open_page(browser, url):
    page = browser.new_page()
    page.navigate(url)
    page.wait_for("document.documentElement.dataset.ready", 30, "the module to load")
    check(page.evaluate("document.documentElement.dataset.ready") == "1",
          "the module did not start: " + str(page.evaluate("document.getElementById('summary').textContent")))
    return page


def paste_config(page, text, target):
    before = runs(page)
    page.type_text("#target", target)
    page.type_text("#config", text)
    wait_for_run(page, before, "the results of the pasted config")
    # the last run holds both the config and the target (typing runs again while the debounce waits)
    page.wait_for(f"document.querySelector('pre[data-document=check]') && "
                  f"JSON.parse(document.querySelector('pre[data-document=check]').textContent).files[0].target === {target}",
                  30, "a check at the target")


def expect_equal(shown, expected, what):
    if shown != expected:
        lines_a, lines_b = (shown or "").splitlines(), expected.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(lines_a, lines_b)) if a != b), min(len(lines_a), len(lines_b)))
        raise Failure(f"{what}: the page shows a different document from the CLI's, first at line {first + 1}: "
                      f"page {lines_a[first:first + 1]} vs CLI {lines_b[first:first + 1]}")


def no_network(page, allowed_url, what):
    requests = [e["request"]["url"] for e in page.events("Network.requestWillBeSent")]
    others = [u for u in requests if u != allowed_url and not u.startswith("data:")]
    check(not others, f"{what}: the page made requests: {others}")
    violations = page.evaluate("window.__violations")
    check(not violations, f"{what}: Content-Security-Policy violations: {violations}")
    errors = [e["entry"]["text"] for e in page.events("Log.entryAdded") if e["entry"]["level"] == "error"]
    errors += [str(e.get("args")) for e in page.events("Runtime.consoleAPICalled") if e["type"] == "error"]
    errors += [str(e["exceptionDetails"]) for e in page.events("Runtime.exceptionThrown")]
    check(not errors, f"{what}: console errors: {errors}")


def test_config_and_launch(browser, url, cli, scratch, artefacts):
    page = open_page(browser, url)
    config = (pathlib.Path(scratch) / "config.json")
    paste_config(page, config.read_text(), "131072")
    finding = page.evaluate("(() => { const f = document.querySelector('.finding[data-code=CTX201]');"
                            " return f && f.textContent; })()")
    check(finding and "pairs 41–63" in finding, f"no CTX201 with pairs 41–63 on the page: {finding!r}")
    shown = documents(page)
    expect_equal(shown.get("check"), cli(["check", "config.json", "--target", "131072", "--format", "json"], scratch), "check")
    expect_equal(shown.get("table"), cli(["table", "config.json", "--target", "131072", "--format", "json"], scratch), "table")
    expect_equal(shown.get("table --engine all"),
                 cli(["table", "config.json", "--engine", "all", "--target", "131072", "--format", "json"], scratch),
                 "table --engine all")
    expect_equal(shown.get("suggest"), cli(["suggest", "config.json", "--target", "131072", "--format", "json"], scratch),
                 "suggest")
    codes_shown = page.evaluate("[...document.querySelectorAll('#findings-body .finding')].map(f => f.dataset.code)")
    codes_cli = [d["code"] for d in json.loads(shown["check"])["files"][0]["diagnostics"]]
    check(codes_shown == codes_cli, f"the findings shown {codes_shown} are not the document's {codes_cli}")
    charts = page.evaluate("document.querySelectorAll('#charts-body svg.chart').length")
    check(charts == 2, f"{charts} charts, not the wavelength and angle-coverage charts of the one setup")

    # A rule's doc opens from its finding.
    page.evaluate("document.querySelector('.finding[data-code=CTX201] details').open = true")
    page.wait_for("document.querySelector('.finding[data-code=CTX201] .rule-doc').dataset.loaded", 10, "the rule doc")
    doc = page.evaluate("document.querySelector('.finding[data-code=CTX201] .rule-doc').textContent")
    check("CTX201" in doc, f"the rule doc of CTX201 reads {doc[:80]!r}")

    # Memory and the weights' size (a config.json alone does not state it): fit's figures.
    before = runs(page)
    page.type_text("#memory", "24GiB")
    page.type_text("#weights", "16GB")
    wait_for_run(page, before, "fit")
    page.wait_for("document.querySelector('pre[data-document=fit]')", 30, "fit's document")
    expect_equal(documents(page).get("fit"),
                 cli(["fit", "config.json", "--memory", "24GiB", "--weights", "16GB", "--format", "json"], scratch), "fit")

    # A launch line beside the config.
    before = runs(page)
    page.type_text("#launch", LAUNCH)
    wait_for_run(page, before, "the launch")
    page.wait_for("document.querySelector('pre[data-document=\"check (launch)\"]')", 30, "the launch's document")
    expect_equal(documents(page).get("check (launch)"),
                 cli(["check", "--serve", LAUNCH, "--model", "config.json", "--memory", "24GiB", "--format", "json"],
                     scratch), "check --serve")
    # fit's document after the launch's check, as before it (its served model name once came out of what the launch
    # check had left on the module's stack: --model-path config.json, not the command line's `.`).
    expect_equal(documents(page).get("fit"),
                 cli(["fit", "config.json", "--memory", "24GiB", "--weights", "16GB", "--format", "json"], scratch),
                 "fit after the launch line")
    page.screenshot(os.path.join(artefacts, "web-light.png"))
    no_network(page, url, "config and launch")
    return page.evaluate("location.href"), documents(page)


def test_link_in_fresh_browser(link, shown, artefacts):
    with cdp.Browser() as fresh:
        page = open_page(fresh, link)
        page.wait_for("document.querySelector('pre[data-document=\"check (launch)\"]')", 30, "the linked view")
        again = documents(page)
        for name in ("check", "table", "table --engine all", "fit", "suggest", "check (launch)"):
            expect_equal(again.get(name), shown[name], f"the link's {name}")
        state = page.evaluate("[document.getElementById('target').value, document.getElementById('memory').value,"
                              " document.getElementById('weights').value, document.getElementById('launch').value]")
        check(state == ["131072", "24GiB", "16GB", LAUNCH], f"the link restored {state}")
        no_network(page, link.split("#")[0], "the link")
        page.screenshot(os.path.join(artefacts, "web-link.png"))


def test_gguf(browser, url, cli, scratch):
    scratch = os.path.join(scratch, "gguf")
    page = open_page(browser, url)
    gguf = os.path.join(scratch, "llama-3.1-rope-freqs.gguf")
    before = runs(page)
    page.type_text("#target", "262144")
    page.set_files("#file", [gguf])
    wait_for_run(page, before, "the GGUF file")
    page.wait_for("document.querySelector('pre[data-document=check]') && "
                  "JSON.parse(document.querySelector('pre[data-document=check]').textContent).files[0].path"
                  " === 'llama-3.1-rope-freqs.gguf'", 30, "the GGUF's check")
    expect_equal(documents(page).get("check"),
                 cli(["check", "llama-3.1-rope-freqs.gguf", "--target", "262144", "--format", "json"], scratch), "GGUF check")

    # A 1 GiB sparse file: only its header is read, and the answer comes in under a second.
    sparse = os.path.join(scratch, "sparse-1gib.gguf")
    shutil.copyfile(gguf, sparse)
    os.truncate(sparse, 1 << 30)
    before = runs(page)
    started = time.monotonic()
    page.set_files("#file", [sparse])
    page.wait_for(f"Number(document.documentElement.dataset.runs || 0) > {before} && "
                  "JSON.parse(document.querySelector('pre[data-document=check]').textContent).files[0].path"
                  " === 'sparse-1gib.gguf'", 30, "the sparse GGUF's check")
    seconds = time.monotonic() - started
    status = page.evaluate("document.getElementById('model-status').textContent")
    check("header only" in status, f"the page says {status!r}")
    check(seconds < 1.0, f"the 1 GiB GGUF file took {seconds:.2f} s")
    expect_equal(documents(page).get("check"),
                 cli(["check", "sparse-1gib.gguf", "--target", "262144", "--format", "json"], scratch), "sparse GGUF check")

    # A llama-server line on the GGUF file.
    line = "llama-server -m llama-3.1-rope-freqs.gguf -c 262144"
    before = runs(page)
    page.set_files("#file", [gguf])
    page.type_text("#launch", line)
    page.wait_for(f"Number(document.documentElement.dataset.runs || 0) > {before} && "
                  "document.querySelector('pre[data-document=\"check (launch)\"]')", 30, "the llama-server line")
    expect_equal(documents(page).get("check (launch)"),
                 cli(["check", "--serve", line, "--model", "llama-3.1-rope-freqs.gguf", "--format", "json"], scratch),
                 "llama-server check")
    no_network(page, url, "GGUF files")
    print(f"  1 GiB sparse GGUF answered in {seconds * 1000:.0f} ms; {status}")


def test_http(browser, web_folder):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=web_folder)
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        page = open_page(browser, url)
        page.evaluate("document.getElementById('example').click()")
        page.wait_for("document.querySelector('.finding[data-code=CTX201]')", 30, "the example's findings")
        requests = [e["request"]["url"] for e in page.events("Network.requestWillBeSent")]
        check(requests == [url], f"served over http, the page asked for {requests}")
        no_network(page, url, "over http")
    finally:
        server.shutdown()


def test_keyboard_and_narrow(browser, url, scratch, artefacts):
    page = open_page(browser, url)
    paste_config(page, (pathlib.Path(scratch) / "config.json").read_text(), "131072")
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    # A click at the page's top left corner (on no control) makes Tab start from the top, as on a fresh page.
    for kind in ("mousePressed", "mouseReleased"):
        page.send("Input.dispatchMouseEvent", {"type": kind, "x": 1, "y": 1, "button": "left", "clickCount": 1})
    order = []
    for _ in range(16):
        page.press("Tab", key_code=9)
        order.append(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    expected = ["config", "file", "example", "clear", "launch", "target", "stack", "memory", "weights", "tp", "kv-dtype",
                "copy-link"]
    reached = [name for name in order if name in expected]
    check(reached[:len(expected)] == expected, f"Tab reaches {order}")
    page.send("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 1200, "deviceScaleFactor": 1, "mobile": True})
    before = runs(page)
    page.type_text("#target", "262144")
    wait_for_run(page, before, "the narrow page")
    overflow = page.evaluate("document.documentElement.scrollWidth")
    check(overflow <= 320, f"at 320 px the page is {overflow} px wide")
    page.screenshot(os.path.join(artefacts, "web-320.png"))
    page.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    check(background != "rgb(255, 255, 255)", f"in dark mode the page is {background}")
    page.screenshot(os.path.join(artefacts, "web-320-dark.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ropelens", required=True, help="the command line, for the documents to compare")
    parser.add_argument("--source", required=True, help="the source folder (testdata, web/index.html)")
    parser.add_argument("--page", help="the built page (default SOURCE/web/index.html)")
    parser.add_argument("--artefacts", default=None, help="where to keep the screenshots")
    args = parser.parse_args()
    source = pathlib.Path(args.source).resolve()
    page_path = pathlib.Path(args.page or source / "web/index.html").resolve()
    if not page_path.exists():
        print(f"FAIL: {page_path} is not built: run `make web`", file=sys.stderr)
        return 1
    artefacts = args.artefacts or tempfile.mkdtemp(prefix="ropelens-web-")
    os.makedirs(artefacts, exist_ok=True)
    cli = Cli(os.path.abspath(args.ropelens))
    scratch = tempfile.mkdtemp(prefix="ropelens-web-input-")
    shutil.copyfile(source / QWEN3, os.path.join(scratch, "config.json"))
    # The GGUF files in a folder of their own: beside a config.json, check would audit the conversion against it.
    os.makedirs(os.path.join(scratch, "gguf"))
    shutil.copyfile(source / GGUF, os.path.join(scratch, "gguf", "llama-3.1-rope-freqs.gguf"))
    url = page_path.as_uri()
    failures = 0
    try:
        with cdp.Browser() as browser:
            for name, run in [
                ("config, launch line and documents", lambda: test_config_and_launch(browser, url, cli, scratch, artefacts)),
                ("GGUF files", lambda: test_gguf(browser, url, cli, scratch)),
                ("served over http", lambda: test_http(browser, str(page_path.parent))),
                ("keyboard, 320 px, dark", lambda: test_keyboard_and_narrow(browser, url, scratch, artefacts)),
            ]:
                try:
                    result = run()
                    if name.startswith("config"):
                        test_link_in_fresh_browser(result[0], result[1], artefacts)
                    print(f"ok: {name}")
                except (Failure, cdp.CdpError) as e:
                    failures += 1
                    print(f"FAIL: {name}: {e}", file=sys.stderr)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"screenshots in {artefacts}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
