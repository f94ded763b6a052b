// The course over OpenStreetMap, for the runner who turns it on. Off by default: until the switch
// is on, this page asks nothing of any server. On, it asks tile.openstreetmap.org for the tiles
// the course's box shows and no others (no prefetch, no ring of tiles around the view, no other
// zoom), at the address OSM's tile usage policy names, and shows "© OpenStreetMap contributors"
// with its link. The choice is kept in this browser (localStorage). Web Mercator is worked out
// here: no map library. The course's drawing itself (plain or over the tiles) is here too; the
// page (runway-viewer.js) hands it its helpers.
"use strict";
(function () {
  var KEY = "runway.map";
  var SERVER = "https://tile.openstreetmap.org/";
  var TILE = 256;       // px: OSM's raster tiles
  var MAX_ZOOM = 19;    // the highest zoom tile.openstreetmap.org serves
  var SVG = "http://www.w3.org/2000/svg";

  function wanted() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function remember(on) {
    try { window.localStorage.setItem(KEY, on ? "on" : "off"); return true; } catch (e) { return false; }
  }
  // Drawn over tiles only when wanted and the browser says it is online.
  function active() { return wanted() && navigator.onLine !== false; }

  // Web Mercator, as a fraction of the world: x 0 at 180° W to 1 at 180° E, y 0 at the top
  // (85.05° N) to 1 at the bottom. sin(lat) is kept inside ±0.9999 (±89.2°) so a pole is finite.
  function mercator(lat, lon) {
    var s = Math.max(-0.9999, Math.min(0.9999, Math.sin(lat * Math.PI / 180)));
    return [(lon + 180) / 360, 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)];
  }

  // The smallest span (of the world) a course box of `inner` units shows on the map: at zoom 18
  // `inner` px, so one point or a run on the spot opens on a street, not at zoom 40.
  function minimumSpan(inner) { return inner / (TILE * Math.pow(2, 18)); }

  // The tiles the box shows, beneath everything drawn in `root`. `place(x, y)` turns a world
  // fraction into the drawing's units, `spot(u, v)` back; `size` units are `widthPx` on screen.
  // The zoom is the one whose tiles come nearest 256 px on screen (between 181 and 362 px), so a
  // ~350 px box needs at most 3 × 3 tiles.
  function tiles(root, size, widthPx, place, spot, said) {
    var a = spot(0, 0), b = spot(size, size);
    var perWorld = (place(1, 0)[0] - place(0, 0)[0]) * widthPx / size;   // px the whole world spans
    var z = Math.max(0, Math.min(MAX_ZOOM, Math.round(Math.log(perWorld / TILE) / Math.LN2))), n = Math.pow(2, z);
    var x0 = Math.max(0, Math.floor(a[0] * n)), x1 = Math.min(n - 1, Math.floor(b[0] * n));
    var y0 = Math.max(0, Math.floor(a[1] * n)), y1 = Math.min(n - 1, Math.floor(b[1] * n));
    var layer = document.createElementNS(SVG, "g"), count = 0, failed = 0;
    layer.setAttribute("id", "map-tiles");
    for (var y = y0; y <= y1; y++) {
      for (var x = x0; x <= x1; x++) {
        var p = place(x / n, y / n), q = place((x + 1) / n, (y + 1) / n);
        var img = document.createElementNS(SVG, "image");
        img.setAttribute("class", "tile");
        img.setAttribute("x", p[0].toFixed(2));
        img.setAttribute("y", p[1].toFixed(2));
        img.setAttribute("width", (q[0] - p[0]).toFixed(2));
        img.setAttribute("height", (q[1] - p[1]).toFixed(2));
        img.setAttribute("preserveAspectRatio", "none");
        img.addEventListener("error", function () {
          failed++;
          said(failed + " of " + count + " map tiles could not be loaded (offline, or the tile server said no): the course is drawn without them.");
        });
        img.setAttribute("href", SERVER + z + "/" + x + "/" + y + ".png");
        layer.appendChild(img);
        count++;
      }
    }
    root.insertBefore(layer, root.firstChild);
    return count;
  }

  // The switch and what it says, for the course's box. `redraw` draws the view again.
  function control(redraw) {
    var box = document.createElement("div");
    box.className = "map-switch";
    var label = document.createElement("label");
    var input = document.createElement("input");
    input.type = "checkbox";
    input.id = "map-switch";
    input.checked = wanted();
    input.addEventListener("change", function () {
      if (!remember(input.checked)) status.textContent = "This browser keeps no settings for this page: the map is on until it is closed.";
      redraw();
    });
    label.appendChild(input);
    label.appendChild(document.createTextNode(" Map (OpenStreetMap, online)"));
    var status = document.createElement("p");
    status.id = "map-status";
    status.className = "note";
    status.textContent = !input.checked
      ? "Map off: the course is drawn alone and nothing leaves this page. On, it is drawn over map tiles from tile.openstreetmap.org."
      : navigator.onLine === false
        ? "Map on, but this computer is offline: the course is drawn alone."
        : "Map on: tiles from tile.openstreetmap.org for this view only.";
    box.appendChild(label);
    box.appendChild(status);
    return { element: box, say: function (text) { status.textContent = text; } };
  }

  // "© OpenStreetMap contributors", linked to the copyright page, over the map's corner.
  function attribution() {
    var p = document.createElement("p");
    p.id = "map-attribution";
    p.className = "attribution";
    p.appendChild(document.createTextNode("© "));
    var a = document.createElement("a");
    a.href = "https://www.openstreetmap.org/copyright";
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = "OpenStreetMap contributors";
    p.appendChild(a);
    return p;
  }

  /// The course, north up, one scale for both axes: longitude scaled by cos(mean latitude), or
  /// Web Mercator over OpenStreetMap's tiles when the runner has turned the map on (below);
  /// a 2-minute trail brightening toward the marker, turned by heading. One point is drawn as the
  /// marker alone.
  function course(box, f, tools) {
    var el = tools.el, svg = tools.svg, range = tools.range;
    var R = f.route, onMap = active();
    if (!R || !R.lat.length) { box.appendChild(el("p", { "class": "note", text: "No route was stored for this flight." })); return null; }
    var switcher = control(tools.redraw);
    box.appendChild(switcher.element);
    var mean = R.lat.reduce(function (a, b) { return a + b; }, 0) / R.lat.length, k = Math.cos(mean * Math.PI / 180);
    // (x, y) with y up: Mercator's y grows southward, so it is turned over.
    function plane(lat, lon) { if (!onMap) return [lon * k, lat]; var m = mercator(lat, lon); return [m[0], -m[1]]; }
    var xs = [], ys = [];
    for (var i = 0; i < R.lat.length; i++) { var q = plane(R.lat[i], R.lon[i]); xs.push(q[0]); ys.push(q[1]); }
    var xr = range(xs), yr = range(ys), minX = xr[0], maxX = xr[1], minY = yr[0], maxY = yr[1];
    var size = 300, margin = 12, scale = (size - 2 * margin) / Math.max(maxX - minX, maxY - minY, onMap ? minimumSpan(size - 2 * margin) : 1e-9);
    // Centred: the shorter side gets the spare room on both sides.
    var dx = (size - 2 * margin - (maxX - minX) * scale) / 2, dy = (size - 2 * margin - (maxY - minY) * scale) / 2;
    function toBox(x, y) { return [margin + dx + (x - minX) * scale, size - margin - dy - (y - minY) * scale]; }
    function px(i) { return toBox(xs[i], ys[i]); }
    var root = svg("svg", { viewBox: "0 0 " + size + " " + size, id: "course-svg" });
    root.appendChild(svg("polyline", { "class": "route" + (onMap ? " on-map" : ""), points: R.lat.map(function (_, i) { return px(i).join(","); }).join(" ") }));
    (f.alerts || []).forEach(function (a) {
      if (a.lat == null) return;
      var c = toBox.apply(null, plane(a.lat, a.lon));
      root.appendChild(svg("circle", { "class": "alert-spot", cx: c[0], cy: c[1], r: 6 }));
    });
    var north = svg("text", { x: size - 26, y: 16, "class": "lane-label" });  // "N ↑" at 12 px is ~22 units wide
    north.textContent = "N ↑";
    root.appendChild(north);
    var trail = svg("g", { id: "trail" });
    root.appendChild(trail);
    var marker = svg("polygon", { "class": "marker", id: "marker", points: "0,-9 6,7 0,3 -6,7" });
    root.appendChild(marker);
    box.appendChild(root);
    if (onMap) {
      // World fractions to the box's units and back (Mercator's y turned over, as in plane()).
      var n = tiles(root, size, root.getBoundingClientRect().width || size,
        function (x, y) { return toBox(x, -y); },
        function (u, v) { return [minX + (u - margin - dx) / scale, -(minY + (size - margin - dy - v) / scale)]; },
        switcher.say);
      switcher.say("Map on: " + n + " tile" + (n === 1 ? "" : "s") + " from tile.openstreetmap.org for this view, none other.");
      box.appendChild(attribution());
    }
    function position(t) {
      // The last point at or before t, by halving (a 24-hour route has ~86 400).
      var i = 0, hi = R.t.length - 1;
      while (i < hi) { var mid = (i + hi + 1) >> 1; if (R.t[mid] <= t) i = mid; else hi = mid - 1; }
      var j = Math.min(i + 1, R.t.length - 1), u = R.t[j] > R.t[i] ? Math.max(0, Math.min(1, (t - R.t[i]) / (R.t[j] - R.t[i]))) : 0;
      var a = px(i), b = px(j);
      return [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, i];
    }
    return {
      show: function (t, hdg) {
        var p = position(t);
        marker.setAttribute("transform", "translate(" + p[0].toFixed(1) + " " + p[1].toFixed(1) + ") rotate(" + Math.round(hdg || 0) + ")");
        marker.setAttribute("data-x", p[0].toFixed(1));
        marker.setAttribute("data-y", p[1].toFixed(1));
        trail.textContent = "";
        var steps = 8;
        for (var s = 0; s < steps; s++) {
          var t0 = t - 120 * (1 - s / steps), t1 = t - 120 * (1 - (s + 1) / steps);
          if (t1 <= 0) continue;
          var a = position(Math.max(0, t0)), b = position(t1), pts = [a[0] + "," + a[1]];
          for (var i = a[2] + 1; i <= b[2]; i++) pts.push(px(i).join(","));
          pts.push(b[0] + "," + b[1]);
          trail.appendChild(svg("polyline", { points: pts.join(" "), fill: "none", stroke: "#b3261e", "stroke-width": 4, "stroke-opacity": ((s + 1) / steps).toFixed(2) }));
        }
      },
    };
  }

  window.RUNWAY_MAP = { course: course };
})();
