// RunWay's offline flight viewer: Logbook, Flight Calendar, Flight Summary and the Flight Data
// Recorder, from the files beside this one. No framework, no request of any kind: the data comes
// in by <script> (runway-logbook.js, then one file per flight, loaded when it is opened).
"use strict";
(function () {
  var logbook = window.RUNWAY_LOGBOOK_DATA || { flights: [] };
  var flights = {};   // id -> flight data, as loaded
  var waiting = {};   // id -> callbacks
  var view = document.getElementById("view");
  var SVG = "http://www.w3.org/2000/svg";

  window.RUNWAY_FLIGHT = function (id, data) {
    flights[id] = data;
    (waiting[id] || []).forEach(function (f) { f(data); });
    delete waiting[id];
  };

  // ---- formatting -------------------------------------------------------------------------
  function km(m) { return m == null ? "--" : (m / 1000).toFixed(2) + " km"; }
  function clock(s) {
    if (s == null) return "--";
    s = Math.round(s);
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), r = s % 60;
    return (h ? h + ":" + pad(m) : m) + ":" + pad(r);
  }
  function pad(n) { return n < 10 ? "0" + n : "" + n; }
  function pace(s) { return s == null ? "--" : clock(s) + " /km"; }
  function metres(m, signed) {
    if (m == null) return "--";
    var v = Math.round(m);
    return (signed && v > 0 ? "+" : "") + v + " m";
  }
  function whole(v, unit) { return v == null ? "--" : Math.round(v) + (unit ? " " + unit : ""); }
  // Metres descended as a runner reads them: "−12 m", a descent that rounds to 0 is "0 m" (never
  // "−0 m"), and no altitude at all "--".
  function descent(m) { return m == null ? "--" : Math.round(m) > 0 ? "−" + Math.round(m) + " m" : "0 m"; }
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "onclick") e.addEventListener("click", attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function entry(id) {
    for (var i = 0; i < logbook.flights.length; i++) if (logbook.flights[i].id === id) return logbook.flights[i];
    return null;
  }
  function mode(f) { return f.mission ? "mission" : "free"; }
  // A table row that opens `hash`: a click anywhere on it, and for the keyboard its first cell is
  // a link (a tab stop, Enter opens it; the table keeps its rows for a screen reader).
  function rowOpens(tr, hash) {
    var first = tr.firstChild, link = el("a", { href: hash, text: first.textContent });
    first.textContent = "";
    first.appendChild(link);
    tr.addEventListener("click", function (e) { if (!e.target.closest("a")) go(hash); });
    return tr;
  }
  // A calendar day that opens `hash` on a click and, for the keyboard, on Enter: a tab stop.
  function opens(e, hash) {
    e.tabIndex = 0;
    e.setAttribute("role", "link");
    e.addEventListener("click", function () { go(hash); });
    e.addEventListener("keydown", function (k) { if (k.key === "Enter") { k.preventDefault(); go(hash); } });
    return e;
  }
  // A table cell that says what it is when a phone shows the row as a card (the CSS draws it).
  function cell(label, text, cls) { return el("td", { "class": cls || "", "data-label": label, text: text }); }
  function statusText(f) {
    return f.status === "recovered" ? "recovered" : (f.recorded ? "recorded" : "too short");
  }

  // ---- routing ----------------------------------------------------------------------------
  function go(hash) { location.hash = hash; }
  // When a view is drawn, the time since the page began (the bench reads it).
  function rendered() { document.body.setAttribute("data-rendered-ms", performance.now().toFixed(1)); }

  function route() {
    document.body.removeAttribute("data-rendered-ms");
    var parts = (location.hash || "#/logbook").slice(2).split("/");
    document.getElementById("nav-logbook").className = parts[0] === "logbook" ? "current" : "";
    document.getElementById("nav-calendar").className = parts[0] === "calendar" || parts[0] === "day" ? "current" : "";
    view.textContent = "";
    if (parts[0] === "calendar") { calendar(parts[1]); return rendered(); }
    if (parts[0] === "day") { dayList(parts[1]); return rendered(); }
    if (parts[0] === "flight") {
      var id = parseInt(parts[1], 10);
      return withFlight(id, function (data) {
        if (parts[2] === "fdr") fdr(data, parts[3] == null ? null : parseFloat(parts[3]));
        else summary(data);
        rendered();
      });
    }
    list();
    rendered();
  }
  window.addEventListener("hashchange", route);
  // The map's switch says online or offline as the browser does: the course is drawn again.
  function mapNews() { if (document.getElementById("map-switch")) route(); }
  window.addEventListener("online", mapNews);
  window.addEventListener("offline", mapNews);
  // The lanes are drawn one unit a pixel for the width they had: a window made narrower (a phone
  // turned) would shrink their labels, so the FDR is drawn again once the resizing stops.
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      var lanes = document.getElementById("lanes");
      if (lanes && Math.max(280, Math.round(lanes.clientWidth)) !== W) route();
    }, 150);
  });

  function withFlight(id, show) {
    var e = entry(id);
    if (!e) { view.appendChild(el("p", { text: "There is no flight " + id + " on this stick." })); return rendered(); }
    if (flights[id]) return show(flights[id]);
    view.appendChild(el("p", { "class": "note", text: "Loading flight " + id + "…" }));
    (waiting[id] = waiting[id] || []).push(function (data) { view.textContent = ""; show(data); });
    var s = document.createElement("script");
    s.src = e.file;
    s.onerror = function () {
      view.textContent = "";
      view.appendChild(el("p", { text: "Flight " + id + "'s file " + e.file + " is missing from this folder." }));
      rendered();
    };
    document.body.appendChild(s);
  }

  // ---- Logbook ----------------------------------------------------------------------------
  function list() {
    view.appendChild(el("h2", { text: "Logbook" }));
    if (!logbook.flights.length) {
      view.appendChild(el("p", { text: "No flights yet: fly one, then export again." }));
      return;
    }
    // Moving time as `runway logbook` shows it, and Time (elapsed, pauses included) beside it.
    var rows = logbook.flights.map(function (f) {
      return rowOpens(el("tr", { "class": "flight", "data-id": f.id }, [
        el("td", { "class": "when", text: f.local_date + " " + f.local_time }), el("td", { "class": "mode", text: mode(f) }),
        cell("Distance", km(f.distance_m), "num"), cell("Moving", clock(f.moving_s), "num"), cell("Time", clock(f.elapsed_s), "num"),
        cell("Pace", pace(f.pace_s_per_km), "num"), cell("Gain", metres(f.gain_m, true), "num"),
        el("td", { "class": "status" }, [el("span", { "class": "badge", text: statusText(f) })]),
      ]), "#/flight/" + f.id);
    });
    var head = el("tr", { "class": "head" }, ["Date", "Mode", "Distance", "Moving", "Time", "Pace", "Gain", "Status"].map(function (h, i) {
      return el("th", { "class": i >= 2 && i <= 6 ? "num" : "", text: h });
    }));
    view.appendChild(el("div", { "class": "scroll" }, [el("table", { id: "logbook" }, [head].concat(rows))]));
    var n = logbook.flights.length;
    view.appendChild(el("p", { "class": "note", text: n + " flight" + (n === 1 ? "" : "s") + ", most recent first; times are " + (logbook.zone || "local") + ". Moving: time in motion (as the board's logbook); Time: from start to landing, pauses included." }));
  }

  // ---- Calendar and the week --------------------------------------------------------------
  function byDay() {
    var days = {};
    logbook.flights.forEach(function (f) { (days[f.local_date] = days[f.local_date] || []).push(f); });
    return days;
  }
  function dayNumber(date) { var p = date.split("-"); return Date.UTC(+p[0], +p[1] - 1, +p[2]) / 86400000; }
  function dateOf(n) { return new Date(n * 86400000).toISOString().slice(0, 10); }

  function calendar(month) {
    var days = byDay();
    if (!month) month = logbook.flights.length ? logbook.flights[0].local_date.slice(0, 7) : new Date().toISOString().slice(0, 7);
    var y = +month.slice(0, 4), m = +month.slice(5, 7);
    var first = Date.UTC(y, m - 1, 1) / 86400000, count = new Date(Date.UTC(y, m, 0)).getUTCDate();
    var prev = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7), next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
    view.appendChild(el("div", { "class": "month-nav" }, [
      el("button", { id: "prev-month", onclick: function () { go("#/calendar/" + prev); }, text: "◀ " + prev }),
      el("h2", { id: "month", text: month }),
      el("button", { id: "next-month", onclick: function () { go("#/calendar/" + next); }, text: next + " ▶" }),
    ]));
    var most = 0, monthKm = 0, monthRuns = 0;
    for (var d = 0; d < count; d++) {
      (days[dateOf(first + d)] || []).forEach(function (f) { monthKm += f.distance_m; monthRuns++; });
      most = Math.max(most, total(days[dateOf(first + d)]));
    }
    var grid = el("div", { "class": "calendar", id: "calendar" });
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "week"].forEach(function (h) { grid.appendChild(el("div", { "class": "head", text: h })); });
    var weekday = (first + 3) % 7;  // 1970-01-01 was a Thursday; Monday is 0
    var start = first - weekday, weekKm = 0, lastRunDay = null;
    for (var n = start; n < first + count || (n - start) % 7; n++) {
      var date = dateOf(n), runs = days[date] || [], inMonth = n >= first && n < first + count;
      if (!inMonth) grid.appendChild(el("div", { "class": "day empty" }));
      else {
        var dist = total(runs), box = el("div", { "class": "day" + (runs.length ? " has-run" : ""), "data-date": date }, [el("span", { "class": "num", text: date.slice(8) })]);
        if (runs.length) {
          weekKm += dist;
          lastRunDay = date;
          box.appendChild(el("span", { "class": "km", text: (dist / 1000).toFixed(1) }));
          if (runs.length > 1) box.appendChild(el("span", { "class": "dots", title: runs.length + " runs", text: "•".repeat(Math.min(runs.length, 4)) }));
          var level = most > 0 ? dist / most : 0;
          box.style.background = "rgba(11, 99, 196, " + (0.12 + 0.5 * level).toFixed(2) + ")";
          box.setAttribute("aria-label", date + ": " + runs.length + " run" + (runs.length === 1 ? "" : "s") + ", " + (dist / 1000).toFixed(1) + " km");
          opens(box, runs.length === 1 ? "#/flight/" + runs[0].id : "#/day/" + date);
        }
        grid.appendChild(box);
      }
      if ((n - start) % 7 === 6) {
        grid.appendChild(el("div", { "class": "week-total", text: weekKm ? (weekKm / 1000).toFixed(1) : "" }));
        weekKm = 0;
      }
    }
    view.appendChild(grid);
    view.appendChild(el("p", { "class": "note", text: (monthKm / 1000).toFixed(1) + " km in " + monthRuns + " run" + (monthRuns === 1 ? "" : "s") + "; • a run, on a day of several; local days (" + (logbook.zone || "local") + ")." }));
    week(lastRunDay || dateOf(first), days);
  }
  function total(runs) { return (runs || []).reduce(function (s, f) { return s + f.distance_m; }, 0); }

  function week(date, days) {
    var n = dayNumber(date), monday = n - (n + 3) % 7, kms = [], most = 0;
    for (var i = 0; i < 7; i++) { kms.push(total(days[dateOf(monday + i)])); most = Math.max(most, kms[i]); }
    var box = el("div", { "class": "bars", id: "week" }, [el("h2", { text: "Week of " + dateOf(monday) + ": " + (kms.reduce(function (a, b) { return a + b; }, 0) / 1000).toFixed(1) + " km" })]);
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].forEach(function (name, i) {
      var bar = el("div", { "class": "bar" });
      bar.style.width = (most > 0 ? 100 * kms[i] / most : 0).toFixed(1) + "%";
      box.appendChild(el("div", { "class": "bar-row" }, [el("span", { text: name }), el("div", { "class": "bar-frame" }, [bar]), el("span", { "class": "num", text: kms[i] ? (kms[i] / 1000).toFixed(1) + " km" : "" })]));
    });
    view.appendChild(box);
  }

  function dayList(date) {
    var runs = (byDay()[date] || []).slice().sort(function (a, b) { return a.start < b.start ? -1 : 1; });
    view.appendChild(el("h2", { text: date + ": " + runs.length + " run" + (runs.length === 1 ? "" : "s") }));
    var head = el("tr", {}, ["Start", "Distance", "Moving", "Time", "Pace"].map(function (h, i) { return el("th", { "class": i ? "num" : "", text: h }); }));
    view.appendChild(el("table", { id: "day" }, [head].concat(runs.map(function (f) {
      return rowOpens(el("tr", { "class": "flight", "data-id": f.id }, [
        el("td", { text: f.local_time }), el("td", { "class": "num", text: km(f.distance_m) }),
        el("td", { "class": "num", text: clock(f.moving_s) }), el("td", { "class": "num", text: clock(f.elapsed_s) }),
        el("td", { "class": "num", text: pace(f.pace_s_per_km) }),
      ]), "#/flight/" + f.id);
    }))));
    view.appendChild(el("p", {}, [el("a", { href: "#/calendar/" + date.slice(0, 7), text: "◀ back to " + date.slice(0, 7) })]));
  }

  // ---- Flight Summary ---------------------------------------------------------------------
  function tabs(f, which) {
    return el("div", { "class": "tabs" }, [
      el("a", { href: "#/flight/" + f.id, "class": which === "summary" ? "current" : "", text: "Summary" }),
      el("a", { href: "#/flight/" + f.id + "/fdr", "class": which === "fdr" ? "current" : "", text: "Flight Data Recorder" }),
    ]);
  }
  function heading(f) {
    var e = entry(f.id);
    return el("h2", { text: "Flight #" + f.id + " — " + e.local_date + " " + e.local_time + " (" + (logbook.zone || "local") + ") — " + (f.mission ? "Mission Flight" : "Free Flight") + ", " + statusText(e) });
  }
  function summary(f) {
    var s = f.summary;
    view.appendChild(heading(f));
    view.appendChild(tabs(f, "summary"));
    var boxes = [
      ["Distance", km(s.distance_m)], ["Time", clock(s.elapsed_s)], ["Moving", clock(s.moving_s)],
      ["Avg pace", pace(s.pace_s_per_km)], ["Gain", metres(s.gain_m, true)], ["Descent", descent(s.loss_m)],
      ["Avg HR", whole(s.avg_hr, "bpm")], ["Max HR", whole(s.max_hr, "bpm")], ["Avg cadence", whole(s.avg_cadence, "spm")],
      ["GPWS alerts", s.gpws.sink_rate + s.gpws.overspeed + " (SINK RATE " + s.gpws.sink_rate + ", OVERSPEED " + s.gpws.overspeed + ")"],
    ];
    if (s.calories_kcal != null) boxes.push(["Calories", Math.round(s.calories_kcal) + " kcal"]);
    view.appendChild(el("div", { "class": "totals", id: "totals" }, boxes.map(function (b) {
      return el("div", { "class": "total" }, [el("div", { "class": "label", text: b[0] }), el("div", { "class": "value", text: b[1] })]);
    })));
    if (s.calories_kcal == null) view.appendChild(el("p", { "class": "note", text: "Calories: no body mass in the board's configuration (runner.body_mass_kg)." }));
    zoneBar(f.zones);
    if (f.mission) {
      // Each target the mission has, judged on its own: pace band, heart-rate band, distance or time.
      var m = f.mission, targets = [], verdicts = [];
      if (m.pace_s_per_km != null) targets.push(pace(m.pace_s_per_km) + " ±" + m.deviation_s_per_km + " s");
      if (m.hr_low != null) targets.push(m.hr_low + "–" + m.hr_high + " bpm");
      if (m.time_s != null) {
        // A time goal is moving time (Mission.Goal), and says so.
        targets.push("for " + clock(m.time_s) + " moving");
        verdicts.push("moving time " + (s.moving_s >= m.time_s ? "reached ✓" : "not reached ✗"));
      } else if (m.distance_m != null) {
        targets.push("over " + km(m.distance_m));
        verdicts.push("distance " + (s.distance_m >= m.distance_m ? "reached ✓" : "not reached ✗"));
      }
      if (m.pace_s_per_km != null) {
        var ok = s.pace_s_per_km != null && Math.abs(s.pace_s_per_km - m.pace_s_per_km) <= m.deviation_s_per_km;
        verdicts.push("average pace " + (ok ? "within the band ✓" : "outside the band ✗"));
      }
      if (m.hr_low != null) {
        var inBand = s.avg_hr != null && s.avg_hr >= m.hr_low && s.avg_hr <= m.hr_high;
        verdicts.push("average heart rate " + (inBand ? "within the band ✓" : "outside the band ✗"));
      }
      view.appendChild(el("p", { id: "mission", text: "Mission: " + targets.join(" ") + " — " + verdicts.join(", ") }));
    }
    var marks = { pace: splitMarks(f.splits, "pace_s_per_km", true), heart_rate: splitMarks(f.splits, "heart_rate"), cadence: splitMarks(f.splits, "cadence") };
    var marked = Object.keys(marks).some(function (k) { return marks[k].some(Boolean); });
    var rows = f.splits.map(function (sp, i) {
      function mark(kind) { return marks[kind][i] ? " " + marks[kind][i] : ""; }
      var name = sp.full ? sp.order + " km" : Math.round(sp.distance_m) + " m";
      return el("tr", { "class": "split" }, [
        el("td", { text: name }), el("td", { "class": "num", text: pace(sp.pace_s_per_km) + mark("pace") }),
        el("td", { "class": "num", text: whole(sp.heart_rate) + mark("heart_rate") }), el("td", { "class": "num", text: whole(sp.max_hr) }),
        el("td", { "class": "num", text: whole(sp.cadence) + mark("cadence") }),
        el("td", { "class": "num", text: metres(sp.gain_m, true) }), el("td", { "class": "num", text: clock(sp.at_s) }),
      ]);
    });
    var head = el("tr", {}, ["Split", "Pace", "BPM", "Max", "SPM", "Gain", "At"].map(function (h, i) { return el("th", { "class": i ? "num" : "", text: h }); }));
    view.appendChild(el("h2", { text: "Splits" }));
    view.appendChild(el("div", { "class": "scroll" }, [el("table", { id: "splits" }, [head].concat(rows))]));
    if (marked) view.appendChild(el("p", { "class": "note", text: "▲ fastest / highest   ▼ slowest / lowest (a tail under 500 m is not compared)" }));
    if (f.alerts.length) {
      view.appendChild(el("h2", { text: "GPWS alerts" }));
      view.appendChild(el("div", { "class": "scroll" }, [el("table", { id: "alerts" }, f.alerts.map(function (a) {
        return el("tr", {}, [el("td", { text: a.kind }), el("td", { text: clock(a.start_s) + " – " + clock(a.end_s) }),
          el("td", { text: a.lat == null ? "--" : a.lat.toFixed(5) + ", " + a.lon.toFixed(5) }),
          el("td", {}, [el("a", { href: "#/flight/" + f.id + "/fdr/" + Math.round(a.start_s), text: "see it" })])]);
      }))]));
    }
  }

  // ▲ and ▼ for each split (or ""), judged on the values as shown (whole seconds, whole bpm and
  // spm): only when the best and the worst shown differ, on every split showing either, never on
  // a tail under half a kilometre (a 337 m tail's pace is not a kilometre's).
  function splitMarks(splits, key, lowerIsBetter) {
    var shown = splits.map(function (sp) {
      return sp[key] == null || (!sp.full && sp.distance_m < 500) ? null : Math.round(sp[key]);
    });
    var present = shown.filter(function (v) { return v != null; });
    if (present.length < 2) return shown.map(function () { return ""; });
    var r = range(present), lo = r[0], hi = r[1];
    var best = lowerIsBetter ? lo : hi, worst = lowerIsBetter ? hi : lo;
    return shown.map(function (v) { return v == null || lo === hi ? "" : v === best ? "▲" : v === worst ? "▼" : ""; });
  }

  // Time in heart-rate zones: one bar of five parts, each as wide as its share of the time in
  // zones 1-5 and labelled where it is wide enough, and a table of the same (zone, bpm range,
  // minutes, share) that reads without the bar or its colours. Nothing is interactive: no stop
  // for the keyboard. Nothing without heart rate.
  function zoneBar(z) {
    if (!z) return;
    var total = z.s.reduce(function (a, b) { return a + b; }, 0);
    function range(i) { return z.low[i] == null ? "--" : z.low[i] + "–" + z.high[i] + " bpm"; }
    function minutes(sec) { return Math.round(sec / 60) + " min"; }
    function share(sec) { return total > 0 ? Math.round(100 * sec / total) + " %" : "--"; }
    var said = z.s.map(function (sec, i) { return "Z" + (i + 1) + " " + minutes(sec); }).join(", ");
    var bar = el("div", { "class": "zone-bar", id: "zone-bar", role: "img", "aria-label": "Time in zone: " + said });
    var rows = [el("tr", {}, ["Zone", "Heart rate", "Time", "Share"].map(function (h, i) { return el("th", { "class": i > 1 ? "num" : "", text: h }); }))];
    z.s.forEach(function (sec, i) {
      var part = total > 0 ? sec / total : 0;
      var seg = el("div", { "class": "zone z" + (i + 1), "data-zone": i + 1, title: "Z" + (i + 1) + " " + range(i) + ": " + minutes(sec) }, [part >= 0.1 ? "Z" + (i + 1) : ""]);
      seg.style.width = (100 * part).toFixed(1) + "%";
      bar.appendChild(seg);
      rows.push(el("tr", { "class": "zone-row", "data-zone": i + 1 }, [
        el("td", {}, [el("span", { "class": "swatch z" + (i + 1) }), "Z" + (i + 1)]), el("td", { text: range(i) }),
        el("td", { "class": "num", text: minutes(sec) }), el("td", { "class": "num", text: share(sec) }),
      ]));
    });
    var basis = z.method === "reserve" ? " (heart-rate reserve)" : z.method === "max" ? " (% of max heart rate)" : "";
    view.appendChild(el("h2", { text: "Time in zone" + basis }));
    view.appendChild(bar);
    view.appendChild(el("table", { id: "zones" }, rows));
  }

  // ---- Flight Data Recorder ---------------------------------------------------------------
  var LANES = [["PACE", "pace", pace], ["BPM", "hr", function (v) { return whole(v); }], ["SPM", "spm", function (v) { return whole(v); }], ["ALT", "alt", function (v) { return v == null ? "--" : v.toFixed(1) + " m"; }]];
  var W = 600, LANE_H = 60, GAP = 14;

  function fdr(f, at) {
    view.appendChild(heading(f));
    view.appendChild(tabs(f, "fdr"));
    var S = f.samples;
    if (!S || !S.t.length) {
      view.appendChild(el("p", { id: "no-samples", text: "This flight has no Flight Data Recorder samples: " + (f.no_samples_reason || "none were stored") + "." }));
      // The course is still the flight's: drawn, its marker at the start.
      var alone = el("div", { "class": "course", id: "course" });
      view.appendChild(el("div", { "class": "fdr" }, [alone]));
      var drawn = window.RUNWAY_MAP.course(alone, f, tools);
      if (drawn) drawn.show(0, null);
      return;
    }
    // The time axis: the flight's own time (span_s), never under its last sample's, never 0 wide
    // (one sample at 0 s would put every x at 0 / 0).
    var end = Math.max(S.span_s || 0, S.t[S.t.length - 1]) || 1, t = at == null ? 0 : Math.max(0, Math.min(end, at));
    var readout = el("div", { "class": "readout", id: "readout" });
    view.appendChild(readout);
    var lanesBox = el("div", { "class": "lanes", id: "lanes", tabindex: "0" });
    var courseBox = el("div", { "class": "course", id: "course" });
    view.appendChild(el("div", { "class": "fdr" }, [lanesBox, courseBox]));
    view.appendChild(el("p", { "class": "note", id: "drag-hint", text: "Drag along the lanes (not the map) to move through the flight; ← and → step 5 s." }));

    W = Math.max(280, Math.round(lanesBox.clientWidth || 600));  // one unit a pixel: text stays readable
    var height = LANES.length * (LANE_H + GAP) + 16;
    var lanes = svg("svg", { viewBox: "0 0 " + W + " " + height, preserveAspectRatio: "none" });
    LANES.forEach(function (lane, i) { drawLane(lanes, S, S[lane[1]], lane[0], i * (LANE_H + GAP), end, lane[2]); });
    var cursor = svg("line", { "class": "cursor", id: "cursor", y1: 0, y2: height - 14 });
    lanes.appendChild(cursor);
    var timeLabel = svg("text", { "class": "lane-label", y: height - 2 });
    lanes.appendChild(timeLabel);
    lanesBox.appendChild(lanes);

    var course = window.RUNWAY_MAP.course(courseBox, f, tools);
    function move(to) {
      t = Math.max(0, Math.min(end, to));
      var x = (t / end) * W;
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
      timeLabel.setAttribute("x", Math.min(x + 3, W - 40));
      timeLabel.textContent = clock(t);
      var s = sampleAt(S, t);
      readout.textContent = "";
      [["Elapsed", clock(t)], ["Distance", km(s.d)], ["Pace", pace(s.pace)], ["BPM", whole(s.hr)], ["SPM", whole(s.spm)],
       ["ALT", s.alt == null ? "--" : s.alt.toFixed(1) + " m"], ["Heading", s.hdg == null ? "--" : Math.round(s.hdg) + "°"]].forEach(function (r) {
        readout.appendChild(el("div", { "data-field": r[0] }, [el("span", { text: r[0] }), el("b", { text: r[1] })]));
      });
      if (s.paused) readout.appendChild(el("div", { "data-field": "Paused" }, [el("span", { text: "state" }), el("b", { text: "PAUSED" })]));
      if (course) course.show(t, s.hdg);
      history.replaceState(null, "", "#/flight/" + f.id + "/fdr/" + Math.round(t));
    }
    var dragging = false;
    function fromPointer(e) { var r = lanes.getBoundingClientRect(); if (r.width > 0) move(((e.clientX - r.left) / r.width) * end); }
    lanesBox.addEventListener("pointerdown", function (e) { dragging = true; lanesBox.setPointerCapture(e.pointerId); fromPointer(e); });
    lanesBox.addEventListener("pointermove", function (e) { if (dragging) fromPointer(e); });
    lanesBox.addEventListener("pointerup", function () { dragging = false; });
    document.onkeydown = function (e) {
      if (!document.getElementById("lanes")) return;
      if (e.key === "ArrowRight") { move(t + 5); e.preventDefault(); }
      if (e.key === "ArrowLeft") { move(t - 5); e.preventDefault(); }
    };
    move(t);
  }

  /// One lane: a line per run of values (a missing value breaks it), averaged into at most one
  /// point a pixel; the axis runs from the lane's lowest to highest value (pace: slower is up).
  /// A run of one point (a one-sample flight) is drawn as a 2-pixel tick, so it shows.
  function drawLane(root, S, values, name, top, end, format) {
    var lo = Infinity, hi = -Infinity;
    values.forEach(function (v) { if (v != null) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
    root.appendChild(svg("rect", { x: 0, y: top, width: W, height: LANE_H, fill: "none", stroke: "#d0d5db" }));
    var label = svg("text", { "class": "lane-label", x: 4, y: top + 11 });
    label.textContent = name + (lo === Infinity ? "  (no values)" : "  " + format(lo) + " – " + format(hi));
    root.appendChild(label);
    if (lo === Infinity) return;
    var span = hi - lo || 1, d = "", open = false, run = 0, columns = Math.min(W, values.length), per = values.length / columns;
    for (var c = 0; c < columns; c++) {
      var a = Math.floor(c * per), b = Math.max(a + 1, Math.floor((c + 1) * per)), sum = 0, n = 0;
      for (var i = a; i < b; i++) if (values[i] != null) { sum += values[i]; n++; }
      if (!n) { if (run === 1) d += "h2"; open = false; run = 0; continue; }
      var x = (S.t[a] / end) * W, y = top + LANE_H - 4 - ((sum / n - lo) / span) * (LANE_H - 18);
      d += (open ? "L" : "M") + x.toFixed(1) + " " + y.toFixed(1);
      open = true;
      run++;
    }
    if (run === 1) d += "h2";
    root.appendChild(svg("path", { "class": "lane-line", "data-lane": name, d: d }));
  }

  function sampleAt(S, t) {
    var lo = 0, hi = S.t.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (S.t[mid] <= t) lo = mid; else hi = mid - 1; }
    var i = lo, j = Math.min(i + 1, S.t.length - 1), u = S.t[j] > S.t[i] ? (t - S.t[i]) / (S.t[j] - S.t[i]) : 0;
    function mix(k) { var a = S[k][i], b = S[k][j]; return a == null ? null : b == null ? a : a + (b - a) * u; }
    return { d: mix("d"), pace: S.pace[i], hr: S.hr[i], spm: S.spm[i], alt: mix("alt"), hdg: S.hdg[i], paused: S.paused[i] };
  }

  /// The lowest and highest of `values`, by a loop: Math.min.apply / Math.min(...values) pass
  /// every value as an argument and run out of stack past ~125 000 of them.
  function range(values) {
    var lo = Infinity, hi = -Infinity;
    for (var i = 0; i < values.length; i++) { if (values[i] < lo) lo = values[i]; if (values[i] > hi) hi = values[i]; }
    return [lo, hi];
  }
  // What the course's drawing (runway-map.js) takes from here; `redraw` draws the view again.
  var tools = { el: el, svg: svg, range: range, redraw: route };


  route();
})();
