"""A small Chrome DevTools Protocol client over --remote-debugging-pipe (no sockets, no
packages): Debian's chromium, headless, driven by the viewer tests and the viewer bench."""
import json, os, shutil, subprocess, tempfile, time


class Browser:
    def __init__(self, chromium=None, extra_args=()):
        self.chromium = chromium or shutil.which("chromium") or "/usr/bin/chromium"
        self.profile = tempfile.mkdtemp(prefix="runway-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # The browser reads commands on fd 3 and writes replies on fd 4.
        def fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        self.process = subprocess.Popen(
            [self.chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--metrics-recording-only", "--mute-audio",
             "--remote-debugging-pipe", f"--user-data-dir={self.profile}", *extra_args, "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def open_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    def viewport(self, width, height, mobile=False):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def go(self, url, timeout=20):
        """Navigates and waits until the viewer says it has drawn the view."""
        self.send("Page.navigate", {"url": url})
        return self.wait_rendered(timeout)

    def wait_rendered(self, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.evaluate("document.body && document.body.getAttribute('data-rendered-ms')")
            if value:
                return float(value)
            time.sleep(0.02)
        raise RuntimeError(f"the view was not drawn within {timeout} s")

    def hash(self, fragment, timeout=20):
        """Changes the page's hash (a click on a link) and waits for the view. The mark of the view
        before is taken off first: hashchange comes after this call returns, and the old mark read
        as the new view's under load."""
        self.evaluate(f"document.body.removeAttribute('data-rendered-ms'); location.hash = {json.dumps(fragment)}")
        return self.wait_rendered(timeout)

    def screenshot(self, path):
        import base64
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def requests(self):
        """Every URL the page asked for (Network.requestWillBeSent)."""
        self._drain()
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def exceptions(self):
        self._drain()
        return [e["params"]["exceptionDetails"].get("text", "") + " " + str(e["params"]["exceptionDetails"].get("exception", {}).get("description", ""))
                for e in self.events if e.get("method") == "Runtime.exceptionThrown"]

    def _drain(self):
        self.evaluate("0")  # a round trip: events sent before it are in

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
