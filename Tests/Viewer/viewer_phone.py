#!/usr/bin/env python3
"""Issue 28's viewer rows in headless Chromium, as JSON.

--fixes RUNWAY-FOLDER FLIGHT-ID DAY MONTH: the logbook's and the day list's heads and rows (Time
and Moving named apart), the summary's totals and split marks, the calendar's dots, at 360 and
390 px whether the page scrolls sideways (document.scrollWidth against innerWidth) and whether
each table fits its box, the lane labels' drawn size, and the keyboard: Tab to a logbook row or a
calendar cell, Enter opens it (a row by the link in its first cell).

--map RUNWAY-FOLDER FLIGHT-ID: the course's OpenStreetMap switch. Every request to
tile.openstreetmap.org is answered here (the DevTools Fetch domain, a 256 px PNG made here) and
every other host name resolves to nothing, so the test never reaches the network: the requests
made with the switch off, on, after a reload, off again and offline.
"""
import json, os, struct, sys, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser

ROWS = "Array.from(document.querySelectorAll(%s)).map(r => Array.from(r.children).map(c => c.textContent))"
TEXTS = "Array.from(document.querySelectorAll(%s)).map(e => e.textContent)"
# Whether the page scrolls sideways, and every table wider than its box.
FITS = """(() => ({ inner: innerWidth, scroll: document.documentElement.scrollWidth,
    tables: Array.from(document.querySelectorAll('#view table')).filter(t => t.parentElement.scrollWidth > t.parentElement.clientWidth + 0.5 || t.getBoundingClientRect().right > innerWidth + 0.5).map(t => t.id + ' ' + Math.round(t.getBoundingClientRect().width)),
    links: Array.from(document.querySelectorAll('#view a')).filter(a => a.getBoundingClientRect().right > innerWidth + 0.5).map(a => a.textContent) }))()"""
# Each lane label's drawn height in CSS px: its font size times the drawing's scale.
LABELS = """Array.from(document.querySelectorAll('svg .lane-label')).map(t => { const s = t.ownerSVGElement;
    const scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
    return [t.textContent, +(parseFloat(getComputedStyle(t).fontSize) * scale).toFixed(1)]; })"""


def key(b, name, code, vk, text=None):
    if name == "Enter":  # it opens a view: the old view's mark off first (see Browser.hash)
        b.evaluate("document.body.removeAttribute('data-rendered-ms')")
    down = {"type": "keyDown", "key": name, "code": code, "windowsVirtualKeyCode": vk}
    if text:
        down["text"] = text
    b.send("Input.dispatchKeyEvent", down)
    b.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": name, "code": code, "windowsVirtualKeyCode": vk})


def tab_to(b, selector, limit=60):
    """Presses Tab until the focus is on an element matching selector; its outline, or None."""
    b.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(limit):
        key(b, "Tab", "Tab", 9)
        if b.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
            return b.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    return None


def fixes(folder, flight, day, month):
    index = "file://" + os.path.abspath(os.path.join(folder, "index.html"))
    b = Browser()
    out = {"widths": {}}
    try:
        b.open_page()
        b.viewport(1280, 900)
        b.go(index + "#/logbook")
        out["logbook_head"] = b.evaluate(TEXTS % "'#logbook th'")
        out["logbook_rows"] = b.evaluate(ROWS % "'#logbook tr.flight'")
        b.hash(f"#/day/{day}")
        out["day_head"] = b.evaluate(TEXTS % "'#day th'")
        out["day_rows"] = b.evaluate(ROWS % "'#day tr.flight'")
        b.hash(f"#/calendar/{month}")
        out["dots"] = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('.day.has-run')).map(d => [d.dataset.date, (d.querySelector('.dots') || {textContent: ''}).textContent]))")
        out["calendar_note"] = b.evaluate("document.querySelector('#view p.note').textContent")
        b.hash(f"#/flight/{flight}")
        out["totals"] = b.evaluate(TEXTS % "'#totals .total'")
        out["splits"] = b.evaluate(ROWS % "'#splits tr.split'")
        for width in (360, 390):
            b.viewport(width, 800, True)
            seen = {}
            for name, fragment in (("logbook", "#/logbook"), ("calendar", f"#/calendar/{month}"), ("day", f"#/day/{day}"),
                                   ("summary", f"#/flight/{flight}"), ("fdr", f"#/flight/{flight}/fdr/60")):
                b.send("Page.navigate", {"url": "about:blank"})
                b.go(index + fragment)
                seen[name] = b.evaluate(FITS)
                if name == "fdr":
                    seen["labels"] = b.evaluate(LABELS)
            out["widths"][str(width)] = seen
        # A phone turned: the FDR drawn at 844 px, then the window made 390 px wide.
        b.viewport(844, 390, True)
        b.send("Page.navigate", {"url": "about:blank"})
        b.go(index + f"#/flight/{flight}/fdr/60")
        b.evaluate("document.body.removeAttribute('data-rendered-ms')")
        b.viewport(390, 844, True)
        try:
            b.wait_rendered(3)
        except RuntimeError:  # not drawn again: the labels are measured as they were shrunk
            b.evaluate("document.body.setAttribute('data-rendered-ms', 'stale')")
        out["turned_labels"] = b.evaluate(LABELS)
        # The keyboard: Tab reaches a logbook row and a calendar cell, Enter opens them.
        b.viewport(1280, 900)
        b.send("Page.navigate", {"url": "about:blank"})
        b.go(index + "#/logbook")
        out["row_focus"] = tab_to(b, "#logbook tr.flight a")
        focused = b.evaluate("document.activeElement.closest('tr').dataset.id")
        key(b, "Enter", "Enter", 13, "\r")
        b.wait_rendered()
        out["row_enter"] = [focused, b.evaluate("location.hash")]
        b.hash(f"#/calendar/{month}")
        out["cell_focus"] = tab_to(b, f".day[data-date=\"{day}\"]")
        key(b, "Enter", "Enter", 13, "\r")
        b.wait_rendered()
        out["cell_enter"] = b.evaluate("location.hash")
        out["day_row_focus"] = tab_to(b, "#day tr.flight a")
        key(b, "Enter", "Enter", 13, "\r")
        b.wait_rendered()
        out["day_row_enter"] = b.evaluate("location.hash")
        b.hash("#/flight/3")
        out["mission"] = b.evaluate("(document.getElementById('mission') || {textContent: null}).textContent")
        out["requests"] = b.requests()
        out["exceptions"] = b.exceptions()
    finally:
        b.close()
    print(json.dumps(out))


def png(size=256):
    """A grey square PNG (a stand-in tile), made here."""
    row = b"\0" + b"\xdd\xe3\xea" * size
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * size)) + chunk(b"IEND", b""))


TILE_HOST = "https://tile.openstreetmap.org/"
MAP = """(() => { const s = document.getElementById('map-switch'), a = document.getElementById('map-attribution');
    return { checked: s && s.checked, status: (document.getElementById('map-status') || {}).textContent,
      tiles: Array.from(document.querySelectorAll('#map-tiles image')).map(i => i.getAttribute('href')),
      inside: Array.from(document.querySelectorAll('#map-tiles image')).every(i => { const x = +i.getAttribute('x'), y = +i.getAttribute('y'), w = +i.getAttribute('width'), h = +i.getAttribute('height'); return x < 300 && y < 300 && x + w > 0 && y + h > 0; }),
      loaded: Array.from(document.querySelectorAll('#map-tiles image')).length,
      attribution: a && a.textContent, link: a && a.querySelector('a') && a.querySelector('a').href,
      stored: localStorage.getItem('runway.map'), route: !!document.querySelector('#course-svg polyline.route'),
      marker: document.getElementById('marker').getAttribute('transform') }; })()"""


def serve_tiles(b, served, quiet=0.4):
    """Answers every paused request for a tile with the stand-in PNG until none has come for
    `quiet` s; any other paused request fails (nothing leaves the machine)."""
    import base64, time
    body = base64.b64encode(png()).decode()
    last = time.time()
    while time.time() - last < quiet:
        b._drain()
        for e in b.events:
            if e.get("method") != "Fetch.requestPaused" or e["params"]["requestId"] in served:
                continue
            request = e["params"]["requestId"]
            served[request] = e["params"]["request"]["url"]
            try:
                if served[request].startswith(TILE_HOST):
                    b.send("Fetch.fulfillRequest", {"requestId": request, "responseCode": 200, "body": body,
                                                     "responseHeaders": [{"name": "Content-Type", "value": "image/png"}]})
                else:
                    b.send("Fetch.failRequest", {"requestId": request, "errorReason": "BlockedByClient"})
            except RuntimeError as error:  # the page that asked has gone (a reload): nothing to answer
                if "Invalid InterceptionId" not in str(error):
                    raise
            last = time.time()
        time.sleep(0.05)


def network(b, since):
    """The requests made since the `since`-th, but the page's own files."""
    return [u for u in b.requests()[since:] if not u.startswith("file://")]


def map_check(folder, flight):
    index = "file://" + os.path.abspath(os.path.join(folder, "index.html"))
    page = index + f"#/flight/{flight}/fdr/60"
    # Every host name resolves to nothing: were a tile not intercepted, it still could not leave.
    b = Browser(extra_args=["--host-resolver-rules=MAP * ~NOTFOUND"])
    out, served = {}, {}
    try:
        b.open_page()
        b.send("Fetch.enable", {"patterns": [{"urlPattern": "http://*", "requestStage": "Request"}, {"urlPattern": "https://*", "requestStage": "Request"}]})
        b.viewport(1280, 900)
        step = lambda: len(b.requests())
        def reload():
            b.evaluate("document.body.removeAttribute('data-rendered-ms')")
            b.send("Page.reload", {})
            b.wait_rendered()
            serve_tiles(b, served)
        since = step()
        b.go(page)
        serve_tiles(b, served)
        out["off"] = dict(b.evaluate(MAP), network=network(b, since))
        since = step()
        b.evaluate("document.body.removeAttribute('data-rendered-ms'); document.getElementById('map-switch').click()")
        b.wait_rendered()
        serve_tiles(b, served)
        out["on"] = dict(b.evaluate(MAP), network=network(b, since))
        since = step()
        b.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39})
        b.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39})
        serve_tiles(b, served)
        out["moved"] = dict(b.evaluate(MAP), network=network(b, since))
        since = step()
        reload()
        out["reloaded"] = dict(b.evaluate(MAP), network=network(b, since))
        b.viewport(390, 844, True)
        since = step()
        reload()
        out["phone"] = dict(b.evaluate(MAP), network=network(b, since),
                            scroll=b.evaluate("[innerWidth, document.documentElement.scrollWidth]"))
        b.viewport(1280, 900)
        b.send("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        since = step()
        reload()
        out["offline"] = dict(b.evaluate(MAP), network=network(b, since))
        b.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        b.evaluate("document.body.removeAttribute('data-rendered-ms'); document.getElementById('map-switch').click()")
        b.wait_rendered()
        since = step()
        reload()
        out["off_again"] = dict(b.evaluate(MAP), network=network(b, since))
        out["served"] = sorted(set(served.values()))
        out["exceptions"] = b.exceptions()
    finally:
        b.close()
    print(json.dumps(out))


if __name__ == "__main__":
    if sys.argv[1] == "--fixes":
        fixes(*sys.argv[2:6])
    elif sys.argv[1] == "--map":
        map_check(*sys.argv[2:4])
