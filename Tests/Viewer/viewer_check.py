#!/usr/bin/env python3
"""Opens an exported RUNWAY/index.html from file:// in headless Chromium and reports, as JSON,
what a runner would see: the logbook's rows, the calendar's days and dots, a flight's splits and
markers, the FDR readout and marker before and after dragging the lanes and pressing →, every
request the page made and every script error; screenshots of the four views at phone and laptop
widths go to SHOTS. With --bench, the times to draw the logbook and one flight's FDR instead.
With --edges, for each flight its summary, its FDR and its course (drawn in the FDR view), each
with whether it was drawn, the script errors it raised and any attribute drawn as NaN/Infinity.

usage: viewer_check.py RUNWAY-FOLDER SHOTS-FOLDER FLIGHT-ID MONTH [ONE-SPLIT-ID [NO-SAMPLES-ID]]
       viewer_check.py --bench RUNWAY-FOLDER FLIGHT-ID
       viewer_check.py --edges RUNWAY-FOLDER FLIGHT-ID...
       viewer_check.py --zones RUNWAY-FOLDER SHOTS-FOLDER FLIGHT-ID...
With --zones, each flight's summary at laptop and phone widths: its time-in-zone bar and table,
its totals and its splits.
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp import Browser

TEXTS = "Array.from(document.querySelectorAll(%s)).map(e => e.textContent)"


def check(folder, shots, flight, month, single=None, bare=None):
    index = "file://" + os.path.abspath(os.path.join(folder, "index.html"))
    b = Browser()
    out = {}
    try:
        b.open_page()
        for width, height, mobile, name in ((1280, 900, False, "laptop"), (390, 844, True, "phone")):
            b.viewport(width, height, mobile)
            b.go(index + "#/logbook")
            if name == "laptop":
                out["logbook_ids"] = b.evaluate("Array.from(document.querySelectorAll('#logbook tr.flight')).map(r => +r.dataset.id)")
                out["logbook_dates"] = b.evaluate("Array.from(document.querySelectorAll('#logbook tr.flight td:first-child')).map(e => e.textContent)")
                out["logbook_rows"] = b.evaluate("Array.from(document.querySelectorAll('#logbook tr.flight')).map(r => Array.from(r.children).map(c => c.textContent))")
            b.screenshot(os.path.join(shots, f"logbook-{name}.png"))
            b.hash(f"#/calendar/{month}")
            if name == "laptop":
                out["calendar_days"] = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('.day.has-run')).map(d => [d.dataset.date, [d.querySelector('.km').textContent, (d.querySelector('.dots') || {textContent: ''}).textContent]]))")
                out["week"] = b.evaluate(TEXTS % "'#week .bar-row span.num'")
                out["week_widths"] = b.evaluate("Array.from(document.querySelectorAll('#week .bar')).map(e => e.style.width)")
                out["calendar_note"] = b.evaluate("document.querySelector('#view p.note').textContent")
                # A day with two runs opens its list; one with one run opens the summary.
                two = [d for d, v in out["calendar_days"].items() if v[1]]
                if two:
                    b.evaluate(f"document.body.removeAttribute('data-rendered-ms'); document.querySelector('.day[data-date=\"{two[0]}\"]').click()")
                    b.wait_rendered()
                    out["day_list"] = {"hash": b.evaluate("location.hash"), "ids": b.evaluate("Array.from(document.querySelectorAll('#day tr.flight')).map(r => +r.dataset.id)")}
                    b.hash(f"#/calendar/{month}")
                out["prev_month"] = b.evaluate("document.getElementById('prev-month').textContent")
            b.screenshot(os.path.join(shots, f"calendar-{name}.png"))
            b.hash(f"#/flight/{flight}")
            if name == "laptop":
                out["splits"] = b.evaluate("Array.from(document.querySelectorAll('#splits tr.split')).map(r => Array.from(r.children).map(c => c.textContent))")
                out["totals"] = b.evaluate(TEXTS % "'#totals .total'")
                out["mission"] = b.evaluate("(document.getElementById('mission') || {textContent: null}).textContent")
                out["alerts"] = b.evaluate(TEXTS % "'#alerts tr'")
                out["zone_bar"] = b.evaluate(ZONES)
            b.screenshot(os.path.join(shots, f"summary-{name}.png"))
            b.hash(f"#/flight/{flight}/fdr/600")
            if name == "laptop":
                out["fdr_at_600"] = fdr_state(b)
                lanes = b.evaluate("(() => { const r = document.getElementById('lanes').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
                x0, y = lanes[0] + lanes[2] * 0.25, lanes[1] + lanes[3] * 0.5
                b.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y, "button": "left", "clickCount": 1})
                for k in range(1, 11):
                    b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0 + lanes[2] * 0.05 * k, "y": y, "button": "left", "buttons": 1})
                b.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x0 + lanes[2] * 0.5, "y": y, "button": "left", "clickCount": 1})
                out["fdr_after_drag"] = fdr_state(b)
                b.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39})
                b.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39})
                out["fdr_after_arrow"] = fdr_state(b)
                # Dragging on the course drawing moves nothing.
                course = b.evaluate("(() => { const r = document.getElementById('course').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
                cx, cy = course[0] + course[2] / 2, course[1] + course[3] / 2
                b.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": cx, "y": cy, "button": "left", "clickCount": 1})
                b.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": cx + 50, "y": cy, "button": "left", "buttons": 1})
                b.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": cx + 50, "y": cy, "button": "left", "clickCount": 1})
                out["fdr_after_map_drag"] = fdr_state(b)
                out["lanes"] = b.evaluate("Array.from(document.querySelectorAll('.lane-label')).map(e => e.textContent)")
                out["lane_segments"] = b.evaluate("Object.fromEntries(Array.from(document.querySelectorAll('path.lane-line')).map(p => [p.dataset.lane, (p.getAttribute('d').match(/M/g) || []).length]))")
                out["hint"] = b.evaluate("document.getElementById('drag-hint').textContent")
                b.hash(f"#/flight/{flight}/fdr/600")
            b.screenshot(os.path.join(shots, f"fdr-{name}.png"))
        b.viewport(1280, 900)
        if single:
            b.hash(f"#/flight/{single}")
            out["single_splits"] = b.evaluate("Array.from(document.querySelectorAll('#splits tr.split')).map(r => Array.from(r.children).map(c => c.textContent))")
            out["single_legend"] = b.evaluate("document.body.textContent.includes('fastest / highest')")
        if bare:
            b.hash(f"#/flight/{bare}/fdr")
            out["no_samples"] = b.evaluate("(document.getElementById('no-samples') || {textContent: null}).textContent")
        out["requests"] = b.requests()
        out["exceptions"] = b.exceptions()
    finally:
        b.close()
    print(json.dumps(out))


def fdr_state(b):
    return b.evaluate("""(() => ({
        readout: Object.fromEntries(Array.from(document.querySelectorAll('#readout > div')).map(d => [d.dataset.field, d.querySelector('b').textContent])),
        marker: [document.getElementById('marker').getAttribute('data-x'), document.getElementById('marker').getAttribute('data-y')],
        transform: document.getElementById('marker').getAttribute('transform'),
        cursor: document.getElementById('cursor').getAttribute('x1'),
        trail: document.querySelectorAll('#trail polyline').length,
        hash: location.hash }))()""")


# The time-in-zone bar and its table as drawn (null when there is none), and whether the page
# fits its width (nothing wider than the viewport: a phone does not scroll sideways).
ZONES = """(() => { const bar = document.getElementById('zone-bar'); if (!bar) return null;
    const r = bar.getBoundingClientRect();
    return { parts: Array.from(bar.querySelectorAll('.zone')).map(z => [+z.dataset.zone, z.style.width, z.textContent]),
      label: bar.getAttribute('aria-label'), bar_width: r.width, bar_height: r.height,
      rows: Array.from(document.querySelectorAll('#zones tr.zone-row')).map(r => Array.from(r.children).map(c => c.textContent)),
      row_font_px: parseFloat(getComputedStyle(document.querySelector('#zones td')).fontSize),
      heading: document.getElementById('zone-bar').previousElementSibling.textContent,
      tab_stops: bar.querySelectorAll('[tabindex]').length,
      viewport: document.documentElement.clientWidth, page_width: document.documentElement.scrollWidth }; })()"""


def zones(folder, shots, ids):
    """Each flight's summary at laptop and phone width: its zone bar, totals and split rows."""
    index = "file://" + os.path.abspath(os.path.join(folder, "index.html"))
    b = Browser()
    out = {}
    try:
        b.open_page()
        for width, height, mobile, name in ((1280, 900, False, "laptop"), (390, 844, True, "phone")):
            b.viewport(width, height, mobile)
            for flight in ids:
                b.send("Page.navigate", {"url": "about:blank"})
                b.go(index + f"#/flight/{flight}")
                out.setdefault(flight, {})[name] = {
                    "zones": b.evaluate(ZONES),
                    "totals": b.evaluate(TEXTS % "'#totals .total'"),
                    "splits": b.evaluate("Array.from(document.querySelectorAll('#splits tr.split')).map(r => Array.from(r.children).map(c => c.textContent))"),
                    "split_head": b.evaluate(TEXTS % "'#splits th'"),
                }
                b.screenshot(os.path.join(shots, f"zones-{flight}-{name}.png"))
        out["exceptions"] = b.exceptions()
        out["requests"] = b.requests()
    finally:
        b.close()
    print(json.dumps(out))


def bench(folder, flight):
    index = "file://" + os.path.abspath(os.path.join(folder, "index.html"))
    b = Browser()
    try:
        b.open_page()
        b.viewport(1280, 900)
        times = {"logbook_ms": b.go(index + "#/logbook", timeout=60),
                 "rows": b.evaluate("document.querySelectorAll('#logbook tr.flight').length")}
        b.send("Page.navigate", {"url": "about:blank"})
        times["fdr_ms"] = b.go(index + f"#/flight/{flight}/fdr/0", timeout=60)
        times["samples"] = b.evaluate("document.querySelectorAll('path.lane-line').length")
        times["exceptions"] = b.exceptions()
    finally:
        b.close()
    print(json.dumps(times))


# Every drawn attribute that reads NaN or Infinity (a division by a zero span draws nothing).
BROKEN = """Array.from(document.querySelectorAll('#view *')).flatMap(e => Array.from(e.attributes)
    .filter(a => /NaN|Infinity/.test(a.value)).map(a => e.tagName + '.' + a.name + '=' + a.value.slice(0, 40)))"""


def edges(folder, ids):
    index = "file://" + os.path.abspath(os.path.join(folder, "index.html"))
    b = Browser()
    out = {}
    try:
        b.open_page()
        b.viewport(1280, 900)
        for flight in ids:
            seen = {}
            for name, fragment in (("summary", f"#/flight/{flight}"), ("fdr", f"#/flight/{flight}/fdr/600")):
                before = len(b.exceptions())
                b.send("Page.navigate", {"url": "about:blank"})
                try:
                    b.go(index + fragment, timeout=60)
                    drawn = True
                except RuntimeError:
                    drawn = False
                view = {"drawn": drawn, "broken": b.evaluate(BROKEN),
                        "totals": b.evaluate("document.querySelectorAll('#totals .total').length")}
                if name == "fdr":
                    view.update(b.evaluate("""(() => ({
                        lanes: document.querySelectorAll('path.lane-line').length,
                        no_samples: (document.getElementById('no-samples') || {textContent: null}).textContent,
                        course: !!document.getElementById('course-svg'),
                        course_note: (document.querySelector('#course p.note') || {textContent: null}).textContent,
                        marker: document.getElementById('marker') && document.getElementById('marker').getAttribute('transform'),
                        route: (document.querySelector('#course-svg polyline.route') || {getAttribute: () => ''}).getAttribute('points').split(' ').filter(p => p).length }))()"""))
                    if b.evaluate("!!document.getElementById('lanes')"):
                        b.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39})
                        b.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "ArrowRight", "code": "ArrowRight", "windowsVirtualKeyCode": 39})
                        view["after_arrow"] = b.evaluate("location.hash")
                        view["broken"] += b.evaluate(BROKEN)
                view["exceptions"] = b.exceptions()[before:]
                seen[name] = view
            out[flight] = seen
    finally:
        b.close()
    print(json.dumps(out))


if __name__ == "__main__":
    if sys.argv[1] == "--bench":
        bench(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "--edges":
        edges(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "--zones":
        zones(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        check(*sys.argv[1:7])
