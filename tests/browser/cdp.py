"""A small Chrome DevTools Protocol client over --remote-debugging-pipe, with only the Python standard library.

Chromium reads commands on file descriptor 3 and writes replies and events on 4, each a JSON message ended by a NUL
byte. One Browser is one Chromium process with a profile of its own (a fresh browser, as a person opening a link on
another machine has); a Page is a tab attached in flat mode, whose commands carry its session id.
"""

import json
import os
import shutil
import subprocess
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--no-default-browser-check",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
         "--disable-default-apps", "--hide-scrollbars", "--mute-audio", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


class CdpError(Exception):
    pass


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise CdpError("chromium is not installed: run `bash cmake/install-deps.sh browser` (make test does)")


class Browser:
    def __init__(self, chromium=None, width=1200, height=1600):
        self.profile = tempfile.mkdtemp(prefix="ropelens-cdp-")
        to_chromium_read, to_chromium_write = os.pipe()
        from_chromium_read, from_chromium_write = os.pipe()

        def descriptors():
            # Moved out of the way first: a pipe end may itself be 3 or 4, which dup2 onto itself would leave
            # close-on-exec (and the other dup2 could overwrite it).
            reading, writing = os.dup(to_chromium_read), os.dup(from_chromium_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.process = subprocess.Popen(
            [chromium or find_chromium()] + FLAGS + ["--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                                                     f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # close_fds would close 3 and 4 after preexec_fn placed them; every other descriptor Python opened is
            # close-on-exec, so nothing else leaks into Chromium.
            preexec_fn=descriptors, close_fds=False)
        os.close(to_chromium_read)
        os.close(from_chromium_write)
        self.writer = os.fdopen(to_chromium_write, "wb", buffering=0)
        self.reader = os.fdopen(from_chromium_read, "rb", buffering=0)
        self.buffer = b""
        self.next_id = 0
        self.events = []  # every event received, in order: (session id, method, params)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:  # already gone
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.writer.close()
        self.reader.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _message(self):
        while b"\0" not in self.buffer:
            chunk = self.reader.read(1 << 16)
            if not chunk:
                raise CdpError("chromium closed the debugging pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.writer.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self._message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append((reply.get("sessionId"), reply["method"], reply.get("params", {})))
        raise CdpError(f"{method}: no reply in {timeout} s")

    def new_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session)


class Page:
    def __init__(self, browser, session):
        self.browser = browser
        self.session = session
        for domain in ("Page", "Runtime", "Network", "Log", "DOM"):
            self.send(f"{domain}.enable")
        # Every Content-Security-Policy violation the page meets, kept where the test can read it.
        self.send("Page.addScriptToEvaluateOnNewDocument", {"source": (
            "window.__violations = [];"
            "document.addEventListener('securitypolicyviolation',"
            " e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));")})

    def send(self, method, params=None, timeout=60):
        return self.browser.send(method, params, self.session, timeout)

    def events(self, method):
        return [params for session, name, params in self.browser.events if session == self.session and name == method]

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})

    def evaluate(self, expression, await_promise=True):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise})
        if "exceptionDetails" in result:
            raise CdpError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=60, what=None):
        deadline = time.monotonic() + timeout
        last_error = None
        while time.monotonic() < deadline:
            try:  # while a navigation runs, the document may not be there yet
                # An element comes back by value as {}, which is falsy here: waiting for one is waiting for true.
                value = self.evaluate(f"(v => v instanceof Node ? true : v)({expression})")
            except CdpError as e:
                value, last_error = None, e
            if value:
                return value
            time.sleep(0.02)
        raise CdpError(f"waited {timeout} s for {what or expression}" + (f" (last: {last_error})" if last_error else ""))

    def focus(self, selector):
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")

    def type_text(self, selector, text, replace=True):
        """Types (pastes) text into a field as a person does: focus, select what is there, insert."""
        self.focus(selector)
        if replace:
            self.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
        self.send("Input.insertText", {"text": text})

    def press(self, key, code=None, key_code=None, shift=False):
        params = {"key": key, "code": code or key, "windowsVirtualKeyCode": key_code or 0,
                  "modifiers": 8 if shift else 0}
        self.send("Input.dispatchKeyEvent", dict(params, type="rawKeyDown"))
        self.send("Input.dispatchKeyEvent", dict(params, type="keyUp"))

    def set_files(self, selector, paths):
        document = self.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": document, "selector": selector})["nodeId"]
        self.send("DOM.setFileInputFiles", {"files": paths, "nodeId": node})

    def screenshot(self, path):
        import base64
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
