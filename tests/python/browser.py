"""Debian's chromium, headless, driven over the DevTools protocol (python3-websocket): load a page,
evaluate JavaScript, move the mouse, collect console errors. Used by test_report.py."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
         "--use-angle=swiftshader", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio"]
# Every request the page would make goes to a port where nothing listens: the network is off.
OFFLINE = ["--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class Browser:
    def __init__(self, exe, width=1300, height=1000):
        import websocket  # python3-websocket
        self.dir = tempfile.mkdtemp(prefix="drbench-chromium-")
        self.proc = subprocess.Popen(
            [exe, *FLAGS, *OFFLINE, f"--user-data-dir={self.dir}", "--remote-debugging-port=0",
             f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.dir, "DevToolsActivePort")
        deadline = time.time() + 60
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if time.time() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not start (no DevToolsActivePort)")
            time.sleep(0.05)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60,
                                              suppress_origin=True)
        self.next_id, self.events, self.errors, self.requests = 0, [], [], []
        for domain in ("Page", "Runtime", "Log", "Network", "Performance"):
            self.send(f"{domain}.enable")
        # The network off as a user would have it too, besides the dead proxy.
        self.send("Network.emulateNetworkConditions", offline=True, latency=0,
                  downloadThroughput=-1, uploadThroughput=-1)

    def _event(self, msg):
        m, p = msg.get("method"), msg.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.errors.append(d.get("exception", {}).get("description") or d.get("text"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                        for a in p.get("args", [])))
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            self.errors.append(p["entry"].get("text", ""))
        elif m == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if not url.startswith(("data:", "file:", "about:", "blob:")):
                self.requests.append(url)
        self.events.append(msg)

    def send(self, method, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self._event(msg)

    def wait_event(self, name, timeout=60):
        deadline = time.time() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == name:
                return self.events.pop(i)
        while time.time() < deadline:
            msg = json.loads(self.ws.recv())
            self._event(msg)
            if msg.get("method") == name:
                return self.events.pop()
        raise TimeoutError(name)

    def load(self, url, timeout=60):
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", timeout)
        deadline = time.time() + timeout
        while not self.eval("document.documentElement.getAttribute('data-ready') === '1'"):
            if time.time() > deadline:
                raise TimeoutError(f"{url}: the page never marked itself ready")
            time.sleep(0.05)

    def eval(self, expr):
        r = self.send("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def main_thread_cpu_ms(self):
        """CPU time the page's renderer main thread has used (since that renderer started)."""
        m = {x["name"]: x["value"] for x in self.send("Performance.getMetrics")["metrics"]}
        return m["ThreadTime"] * 1000

    def mouse(self, x, y):
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def screenshot(self, path, width=1300, height=None):
        if height is None:
            height = int(self.eval("document.documentElement.scrollHeight"))
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        time.sleep(0.5)
        import base64
        data = self.send("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
