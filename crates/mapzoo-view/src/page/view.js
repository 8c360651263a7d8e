// mapzoo view: the interactive page of `mapzoo view` (crates/mapzoo-view). Written for this
// page, no library. Data: the JSON blob #mz-data (tracks, speed palette, optional comparison).
// Opened with "#selftest" it checks itself and writes the results into <pre id="selftest">.
"use strict";
(function () {
  const errors = [];
  window.addEventListener("error", (e) => errors.push(String(e.message || e)));
  window.addEventListener("unhandledrejection", (e) => errors.push("unhandled rejection: " + String(e.reason)));
  const consoleError = console.error;
  console.error = function (...a) { errors.push(a.map(String).join(" ")); consoleError.apply(console, a); };

  const D = JSON.parse(document.getElementById("mz-data").textContent);
  const PAL = D.palette;
  const CENTER = "#2060e0", WALL = "#e66e00", SPEED_SEC = "200,0,170", OT_SEC = "0,140,60";
  const DEC = { s: 3, x: 3, y: 3, dr: 3, dl: 3, v: 2, a: 2, k: 4, shift: 3 };

  // ---------- page skeleton ----------
  function el(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  const header = el("header", {}, document.body);
  const pick = el("select", { id: "pick", title: "track" }, header);
  const title = el("h1", { id: "title" }, header);
  const laps = el("table", { id: "laps" }, header);
  const sectab = el("table", { id: "sectab" }, header);
  const main = el("div", { id: "main" }, document.body);
  const mapbox = el("div", { id: "mapbox" }, main);
  const mapC = el("canvas", { id: "map" }, mapbox);
  const mapO = el("canvas", { id: "mapo" }, mapbox);
  const legend = el("div", { id: "legend" }, mapbox);
  el("div", { id: "hint" }, mapbox, "wheel / pinch: zoom · drag: pan · double-click: fit · hover or tap a line");
  const side = el("div", { id: "side" }, main);
  el("h2", {}, side, "Show");
  const toggles = el("div", { id: "toggles" }, side);
  el("h2", {}, side, "Speed colours");
  const speedSel = el("select", { id: "speedsel" }, side);
  el("h2", {}, side, "Waypoint");
  const readout = el("table", { id: "readout" }, side);
  const plotbox = el("div", { id: "plotbox" }, document.body);
  const plotC = el("canvas", { id: "plot" }, plotbox);
  const plotO = el("canvas", { id: "ploto" }, plotbox);
  const selfOut = el("pre", { id: "selftest" }, document.body);

  const FIELDS = [["line", "line"], ["id", "id"], ["s", "s [m]"], ["x", "x [m]"], ["y", "y [m]"],
    ["v", "v [m/s]"], ["a", "a_x [m/s²]"], ["k", "κ [1/m]"], ["dl", "d_left [m]"], ["dr", "d_right [m]"]];
  const cells = {};
  for (const [f, label] of FIELDS) {
    const tr = el("tr", {}, readout);
    el("th", {}, tr, label);
    cells[f] = el("td", { "data-f": f }, tr, "–");
  }

  // ---------- state ----------
  let T = null;              // the shown track
  const shown = {};          // toggle key -> visible
  let speedLine = "";        // name of the line coloured by speed ("" none)
  const view = { sc: 1, tx: 0, ty: 0 };
  let mark = null;           // {si: series index, i: waypoint index}
  let W = 0, H = 0, PW = 0, PH = 0, dpr = 1;

  function prepare(t) {
    if (t.series) return t;
    const c = t.center;
    c.name = "center"; c.label = "Centerline"; c.color = CENTER;
    t.series = (c.x && c.x.length ? [c] : []).concat(t.lines);
    for (const s of t.series) {
      s.n = s.x.length;
      s.key = s.name === "center" ? "center" : "line:" + s.name;
    }
    if (t.cmp && t.cmp.shift) {
      const sh = t.cmp.shift; sh.n = sh.s.length;
    }
    return t;
  }
  const idOf = (s, i) => (s.id ? s.id[i] : i);
  const sx = (x) => view.tx + x * view.sc;
  const sy = (y) => view.ty - y * view.sc;
  const visible = (s) => shown[s.key] !== false;
  const fmt = (v, d) => (v === null || v === undefined || !isFinite(v) ? "–" : Number(v).toFixed(d));

  // ---------- canvases ----------
  function sizeCanvas(c, w, h) {
    c.width = Math.max(1, Math.round(w * dpr)); c.height = Math.max(1, Math.round(h * dpr));
    c.style.width = w + "px"; c.style.height = h + "px";
  }
  function layout() {
    dpr = window.devicePixelRatio || 1;
    W = mapbox.clientWidth; H = mapbox.clientHeight; PW = plotbox.clientWidth; PH = plotbox.clientHeight;
    for (const c of [mapC, mapO]) sizeCanvas(c, W, H);
    for (const c of [plotC, plotO]) sizeCanvas(c, PW, PH);
  }
  function bounds(t) {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    const add = (x, y) => { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; };
    for (const s of t.series) for (let i = 0; i < s.n; i++) add(s.x[i], s.y[i]);
    for (const w of [t.walls.r, t.walls.l]) for (let i = 0; i + 1 < w.length; i += 2) add(w[i], w[i + 1]);
    if (!isFinite(x0)) { const m = t.map; x0 = m.x0; y1 = m.y0; x1 = m.x0 + m.w * m.res; y0 = m.y0 - m.h * m.res; }
    return [x0, y0, x1, y1];
  }
  function fit() {
    const [x0, y0, x1, y1] = bounds(T);
    const pad = 24;
    view.sc = Math.min((W - 2 * pad) / Math.max(x1 - x0, 1e-6), (H - 2 * pad) / Math.max(y1 - y0, 1e-6));
    view.tx = W / 2 - view.sc * (x0 + x1) / 2;
    view.ty = H / 2 + view.sc * (y0 + y1) / 2;
  }
  function zoomAt(px, py, f) {
    const sc = Math.min(Math.max(view.sc * f, 0.05), 5000);
    f = sc / view.sc;
    view.tx = px - (px - view.tx) * f; view.ty = py - (py - view.ty) * f; view.sc = sc;
  }

  // ---------- the map ----------
  function polyline(ctx, xs, ys, closed) {
    ctx.beginPath();
    for (let i = 0; i < xs.length; i++) { if (i) ctx.lineTo(sx(xs[i]), sy(ys[i])); else ctx.moveTo(sx(xs[i]), sy(ys[i])); }
    if (closed) ctx.closePath();
  }
  function flat(ctx, pts, closed) {
    ctx.beginPath();
    for (let i = 0; i + 1 < pts.length; i += 2) { const X = sx(pts[i]), Y = sy(pts[i + 1]); if (i) ctx.lineTo(X, Y); else ctx.moveTo(X, Y); }
    if (closed) ctx.closePath();
  }
  function speedRange(s) {
    let lo = Infinity, hi = -Infinity;
    for (const v of s.v) { if (v < lo) lo = v; if (v > hi) hi = v; }
    if (!(hi > lo)) { hi = lo + 1; }
    return [lo, hi];
  }
  function drawSpeedLine(ctx, s) {
    const [lo, hi] = speedRange(s);
    const bins = PAL.map(() => new Path2D());
    for (let i = 0; i + 1 < s.n; i++) {
      const t = ((s.v[i] + s.v[i + 1]) / 2 - lo) / (hi - lo);
      const b = Math.min(PAL.length - 1, Math.max(0, Math.round(t * (PAL.length - 1))));
      bins[b].moveTo(sx(s.x[i]), sy(s.y[i])); bins[b].lineTo(sx(s.x[i + 1]), sy(s.y[i + 1]));
    }
    ctx.lineCap = "round";
    ctx.strokeStyle = "#1a1a1a"; ctx.lineWidth = 6.5;
    polyline(ctx, s.x, s.y, false); ctx.stroke();
    ctx.lineWidth = 4;
    bins.forEach((p, b) => { ctx.strokeStyle = PAL[b]; ctx.stroke(p); });
    ctx.lineCap = "butt";
  }
  function racingSeries() {
    return T.lines.find((l) => l.name === T.racing) || T.lines[0] || null;
  }
  function label(ctx, text, X, Y, colour) {
    ctx.font = "bold 12px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.lineWidth = 3.5; ctx.strokeStyle = "rgba(255,255,255,0.95)"; ctx.strokeText(text, X, Y);
    ctx.fillStyle = colour; ctx.fillText(text, X, Y);
  }
  function normalAt(s, i) {
    const j0 = Math.max(0, i - 1), j1 = Math.min(s.n - 1, i + 1);
    const dx = sx(s.x[j1]) - sx(s.x[j0]), dy = sy(s.y[j1]) - sy(s.y[j0]);
    const l = Math.hypot(dx, dy) || 1;
    return [-dy / l, dx / l]; // screen left of the driving direction
  }
  function drawSectors(ctx) {
    const R = racingSeries();
    if (!R) return;
    const kinds = [[T.speed, SPEED_SEC, "S", -1], [T.ot, OT_SEC, "OT", 1]];
    for (const [spans, rgb, tag, side] of kinds) {
      spans.forEach((sp, j) => {
        const a = Math.min(sp.a, R.n - 1), b = Math.min(Math.max(sp.b, a), R.n - 1);
        const scaled = tag === "OT" ? sp.note === "ot" : sp.note !== "x1.00";
        ctx.strokeStyle = "rgba(" + rgb + "," + (scaled ? 0.22 : 0.08) + ")"; ctx.lineWidth = 14; ctx.lineCap = "butt";
        polyline(ctx, R.x.slice(a, b + 1), R.y.slice(a, b + 1), false); ctx.stroke();
        const [nx, ny] = normalAt(R, a);
        const X = sx(R.x[a]), Y = sy(R.y[a]);
        ctx.strokeStyle = "rgb(" + rgb + ")"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(X - nx * 11, Y - ny * 11); ctx.lineTo(X + nx * 11, Y + ny * 11); ctx.stroke();
        const m = Math.round((a + b) / 2), [mx, my] = normalAt(R, m);
        const text = tag === "S" ? "S" + j + " " + sp.note.replace("x", "×") : "OT" + j + (sp.note ? "" : " off");
        label(ctx, text, sx(R.x[m]) + side * mx * 24, sy(R.y[m]) + side * my * 24, "rgb(" + rgb + ")");
      });
    }
  }
  function drawStart(ctx) {
    const R = racingSeries();
    if (!R || R.n < 2) return;
    const X = sx(R.x[0]), Y = sy(R.y[0]);
    const dx = sx(R.x[1]) - X, dy = sy(R.y[1]) - Y, l = Math.hypot(dx, dy) || 1, ux = dx / l, uy = dy / l;
    ctx.fillStyle = "#e10000"; ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(X + ux * 14, Y + uy * 14); ctx.lineTo(X - uy * 6, Y + ux * 6); ctx.lineTo(X + uy * 6, Y - ux * 6);
    ctx.closePath(); ctx.fill(); ctx.stroke();
  }
  function drawBase() {
    const ctx = mapC.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#e9e9e9"; ctx.fillRect(0, 0, mapC.width, mapC.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const m = T.map;
    const image = (img) => {
      ctx.save();
      ctx.setTransform(dpr * view.sc, 0, 0, -dpr * view.sc, dpr * view.tx, dpr * view.ty);
      ctx.translate(m.x0, m.y0); ctx.rotate(m.yaw); ctx.scale(m.res, -m.res);
      ctx.imageSmoothingEnabled = view.sc * m.res < 3;
      ctx.drawImage(img, 0, 0);
      ctx.restore();
    };
    if (shown.map !== false && T.img && T.img.complete) image(T.img);
    if (T.cmp && T.cmp.changed && shown.changed !== false && T.cimg && T.cimg.complete) image(T.cimg);
    if (T.cmp && T.cmp.spots && shown.changed !== false) {
      // a ring round each place where pixels changed, so a few pixels are seen at any zoom
      ctx.strokeStyle = "#ff1010"; ctx.lineWidth = 2.5;
      for (let i = 0; i + 2 < T.cmp.spots.length; i += 3) {
        const r = Math.max(12, T.cmp.spots[i + 2] * view.sc + 6);
        ctx.beginPath(); ctx.arc(sx(T.cmp.spots[i]), sy(T.cmp.spots[i + 1]), r, 0, 2 * Math.PI); ctx.stroke();
      }
    }
    if (shown.walls !== false) {
      ctx.strokeStyle = WALL; ctx.lineWidth = 1.8;
      flat(ctx, T.walls.r, true); ctx.stroke();
      flat(ctx, T.walls.l, true); ctx.stroke();
      for (const o of T.walls.obs) { flat(ctx, o, true); ctx.stroke(); }
    }
    if (shown.sectors !== false) drawSectors(ctx);
    for (const s of T.series) {
      if (!visible(s) || s.name === speedLine) continue;
      ctx.strokeStyle = s.color;
      if (s.name === "center") { ctx.lineWidth = 1.5; ctx.setLineDash([6, 4]); } else { ctx.lineWidth = 2.5; ctx.setLineDash([]); }
      polyline(ctx, s.x, s.y, false); ctx.stroke();
      ctx.setLineDash([]);
    }
    const sp = T.series.find((s) => s.name === speedLine);
    if (sp && visible(sp)) drawSpeedLine(ctx, sp);
    if (shown.sectors !== false) drawStart(ctx);
  }

  // ---------- hover on the map ----------
  function pickAt(px, py, maxPx) {
    let best = null, bd = maxPx * maxPx;
    T.series.forEach((s, si) => {
      if (!visible(s)) return;
      const { x, y } = s;
      for (let i = 0; i < s.n; i++) {
        const dx = view.tx + x[i] * view.sc - px, dy = view.ty - y[i] * view.sc - py, d = dx * dx + dy * dy;
        if (d < bd || (d === bd && best && s.name === speedLine)) { bd = d; best = { si, i }; }
      }
    });
    return best;
  }
  function nearestS(s, v) {
    let lo = 0, hi = s.n - 1;
    while (hi - lo > 1) { const m = (lo + hi) >> 1; if (s.s[m] <= v) lo = m; else hi = m; }
    return Math.abs(s.s[hi] - v) < Math.abs(s.s[lo] - v) ? hi : lo;
  }
  function setReadout() {
    if (!mark) { for (const f in cells) cells[f].textContent = "–"; return; }
    const s = T.series[mark.si], i = mark.i;
    cells.line.textContent = s.label;
    cells.line.style.color = s.color;
    cells.id.textContent = String(idOf(s, i));
    for (const f of ["s", "x", "y", "v", "a", "k", "dl", "dr"]) cells[f].textContent = s[f] ? fmt(s[f][i], DEC[f]) : "–";
  }
  function markers() {
    // the marked waypoint, and the point at the same s on every other visible line
    if (!mark) return [];
    const a = T.series[mark.si], sv = a.s[mark.i];
    const out = [];
    T.series.forEach((s, si) => {
      if (!visible(s)) return;
      out.push({ si, i: si === mark.si ? mark.i : nearestS(s, sv), active: si === mark.si });
    });
    return out;
  }
  function drawOverlay() {
    const ctx = mapO.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, mapO.width, mapO.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    for (const m of markers()) {
      const s = T.series[m.si], X = sx(s.x[m.i]), Y = sy(s.y[m.i]);
      ctx.beginPath(); ctx.arc(X, Y, m.active ? 7 : 4.5, 0, 2 * Math.PI);
      ctx.fillStyle = m.active ? "#fff" : s.color; ctx.fill();
      ctx.lineWidth = m.active ? 3 : 1.5; ctx.strokeStyle = m.active ? s.color : "#fff"; ctx.stroke();
    }
    drawPlotOverlay();
  }
  function setMark(m) { mark = m; setReadout(); drawOverlay(); }
  function hover(px, py) {
    const p = pickAt(px, py, 14);
    if (p) setMark(p);
  }

  // ---------- plots ----------
  const PL = 64, PR = 14, PT = 8, PB = 24, GAP = 10;
  function panels() {
    const p = [{ key: "v", name: "v [m/s]" }, { key: "a", name: "a_x [m/s²]" }, { key: "k", name: "κ [1/m]" }];
    if (T.cmp && T.cmp.shift) p.push({ key: "shift", name: "shift [m]" });
    const h = (PH - PT - PB - GAP * (p.length - 1)) / p.length;
    p.forEach((q, j) => { q.y0 = PT + j * (h + GAP); q.h = h; });
    return p;
  }
  function plotSeries(key) {
    if (key === "shift") return [T.cmp.shift];
    return T.series.filter((s) => visible(s) && s[key] && (key === "k" || s.name !== "center"));
  }
  function sMax() {
    let m = 0;
    for (const s of T.series) if (s.n) m = Math.max(m, s.s[s.n - 1]);
    return m || 1;
  }
  const xOfS = (s) => PL + (s / sMax()) * (PW - PL - PR);
  const sOfX = (x) => ((x - PL) / (PW - PL - PR)) * sMax();
  function niceTicks(lo, hi, n) {
    const span = hi - lo || 1, raw = span / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((f) => f * mag).find((st) => span / st <= n) || 10 * mag;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.abs(v) < 1e-12 ? 0 : v);
    return { ticks: out, step };
  }
  function range(key, list) {
    let lo = Infinity, hi = -Infinity;
    for (const s of list) for (const v of s[key === "shift" ? "d" : key]) { if (v < lo) lo = v; if (v > hi) hi = v; }
    if (!isFinite(lo)) { lo = 0; hi = 1; }
    if (key === "shift") { const m = Math.max(Math.abs(lo), Math.abs(hi), 0.01); lo = -m; hi = m; }
    const pad = (hi - lo) * 0.06 || 0.5;
    return [lo - pad, hi + pad];
  }
  function drawPlot() {
    const ctx = plotC.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, PW, PH);
    const P = panels();
    const R = racingSeries();
    ctx.font = "11px system-ui, sans-serif";
    for (const q of P) {
      const list = plotSeries(q.key);
      const [lo, hi] = range(q.key, list);
      q.lo = lo; q.hi = hi;
      const yOf = (v) => q.y0 + q.h - ((v - lo) / (hi - lo)) * q.h;
      q.yOf = yOf;
      // speed-scaled sectors behind the curves
      if (R && shown.sectors !== false) {
        for (const sp of T.speed) {
          if (sp.note === "x1.00") continue;
          const a = R.s[Math.min(sp.a, R.n - 1)], b = R.s[Math.min(sp.b, R.n - 1)];
          ctx.fillStyle = "rgba(" + SPEED_SEC + ",0.10)"; ctx.fillRect(xOfS(a), q.y0, xOfS(b) - xOfS(a), q.h);
        }
      }
      ctx.strokeStyle = "#ccc"; ctx.lineWidth = 1; ctx.strokeRect(PL, q.y0, PW - PL - PR, q.h);
      ctx.fillStyle = "#444"; ctx.textAlign = "right"; ctx.textBaseline = "middle";
      const yt = niceTicks(lo, hi, Math.max(2, Math.floor(q.h / 22)));
      for (const v of yt.ticks) {
        const Y = yOf(v);
        ctx.strokeStyle = v === 0 ? "#999" : "#eee"; ctx.beginPath(); ctx.moveTo(PL, Y); ctx.lineTo(PW - PR, Y); ctx.stroke();
        ctx.fillText(v.toFixed(Math.max(0, -Math.floor(Math.log10(yt.step) + 1e-9))), PL - 4, Y);
      }
      ctx.save(); ctx.translate(12, q.y0 + q.h / 2); ctx.rotate(-Math.PI / 2); ctx.textAlign = "center";
      ctx.fillText(q.name, 0, 0); ctx.restore();
      ctx.save(); ctx.beginPath(); ctx.rect(PL, q.y0, PW - PL - PR, q.h); ctx.clip();
      for (const s of list) {
        const vals = q.key === "shift" ? s.d : s[q.key];
        ctx.strokeStyle = q.key === "shift" ? "#b00020" : s.color;
        ctx.lineWidth = s.name === "center" ? 1 : 1.5;
        ctx.beginPath();
        for (let i = 0; i < s.n; i++) { const X = xOfS(s.s[i]), Y = yOf(vals[i]); if (i) ctx.lineTo(X, Y); else ctx.moveTo(X, Y); }
        ctx.stroke();
      }
      ctx.restore();
    }
    const xt = niceTicks(0, sMax(), Math.max(2, Math.floor((PW - PL - PR) / 70)));
    ctx.textAlign = "center"; ctx.textBaseline = "top"; ctx.fillStyle = "#444";
    for (const v of xt.ticks) ctx.fillText(String(+v.toFixed(3)), xOfS(v), PH - PB + 6);
    ctx.textAlign = "left"; ctx.fillText("s [m]", 6, PH - PB + 6);
    plotLayout = P;
  }
  let plotLayout = [];
  let plotCursor = null; // CSS x of the plot's cursor, for the self-test
  function drawPlotOverlay() {
    const ctx = plotO.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, plotO.width, plotO.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    plotCursor = null;
    if (!mark) return;
    const a = T.series[mark.si], sv = a.s[mark.i], X = xOfS(sv);
    plotCursor = X;
    ctx.strokeStyle = "rgba(0,0,0,0.55)"; ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(X, PT); ctx.lineTo(X, PH - PB); ctx.stroke();
    for (const q of plotLayout) {
      for (const s of plotSeries(q.key)) {
        const i = s === a ? mark.i : nearestS(s, sv), vals = q.key === "shift" ? s.d : s[q.key];
        ctx.beginPath(); ctx.arc(xOfS(s.s[i]), q.yOf(vals[i]), s === a ? 4.5 : 3, 0, 2 * Math.PI);
        ctx.fillStyle = q.key === "shift" ? "#b00020" : s.color; ctx.fill();
      }
    }
    ctx.fillStyle = "#222"; ctx.textAlign = X > PW - 140 ? "right" : "left"; ctx.textBaseline = "top";
    ctx.font = "11px system-ui, sans-serif";
    ctx.fillText("s = " + sv.toFixed(2) + " m", X + (X > PW - 140 ? -5 : 5), PT + 2);
  }
  function plotHover(px) {
    const sv = Math.min(Math.max(sOfX(px), 0), sMax());
    const cand = T.series.filter((s) => visible(s) && s.v);
    const s = cand.find((c) => c.name === speedLine) || cand[0] || T.series.find(visible);
    if (!s) return;
    setMark({ si: T.series.indexOf(s), i: nearestS(s, sv) });
  }

  // ---------- header, toggles, legend ----------
  function drawLegend() {
    const s = T.series.find((q) => q.name === speedLine);
    legend.innerHTML = "";
    legend.style.display = s && visible(s) ? "" : "none";
    if (!s) return;
    const [lo, hi] = speedRange(s);
    el("div", {}, legend, s.label + " speed [m/s]");
    const c = el("canvas", { width: 180, height: 10 }, legend);
    const g = c.getContext("2d");
    PAL.forEach((col, b) => { g.fillStyle = col; g.fillRect(Math.floor((b * 180) / PAL.length), 0, Math.ceil(180 / PAL.length) + 1, 10); });
    const ends = el("div", { class: "ends" }, legend);
    el("span", {}, ends, lo.toFixed(2)); el("span", {}, ends, ((lo + hi) / 2).toFixed(2)); el("span", {}, ends, hi.toFixed(2));
  }
  function buildHeader() {
    title.textContent = T.name;
    laps.innerHTML = "";
    for (const s of T.lines) {
      const tr = el("tr", {}, laps);
      const td = el("td", {}, tr); const sw = el("span", { class: "sw" }, td); sw.style.background = s.color;
      td.appendChild(document.createTextNode(s.label));
      el("td", {}, tr, s.lap === null ? "lap –" : "lap " + s.lap.toFixed(3) + " s");
      el("td", {}, tr, s.vmax === null ? "" : "top " + s.vmax.toFixed(2) + " m/s");
      el("td", {}, tr, s.n ? (s.s[s.n - 1]).toFixed(1) + " m" : "");
    }
    sectab.innerHTML = "";
    if (T.cmp && T.cmp.sectors && T.cmp.sectors.length) {
      // one column per sector: its name and span, the time before and after, the difference
      const rows = [["sector", (q) => q.name], ["from s [m]", (q) => q.s0.toFixed(1)], ["before [s]", (q) => q.t0.toFixed(3)],
        ["after [s]", (q) => q.t1.toFixed(3)], ["Δ [s]", (q) => { const d = q.t1 - q.t0; return (d >= 0 ? "+" : "") + d.toFixed(3); }]];
      for (const [head, f] of rows) {
        const tr = el("tr", {}, sectab);
        el("th", {}, tr, head);
        for (const q of T.cmp.sectors) {
          const d = q.t1 - q.t0;
          el("td", head.startsWith("Δ") ? { class: d > 0.0005 ? "slower" : d < -0.0005 ? "faster" : "" } : {}, tr, f(q));
        }
      }
    }
  }
  function buildToggles() {
    toggles.innerHTML = "";
    const items = [["map", "Map", null], ["walls", "Walls", WALL]];
    if (T.cmp && T.cmp.changed) items.push(["changed", "Changed map pixels", "#ff2020"]);
    for (const s of T.series) items.push([s.key, s.label, s.color]);
    items.push(["sectors", "Sectors and start", "rgb(" + SPEED_SEC + ")"]);
    for (const [key, text, colour] of items) {
      const lab = el("label", { class: "tg" }, toggles);
      const box = el("input", { type: "checkbox", "data-t": key }, lab);
      box.checked = shown[key] !== false;
      box.addEventListener("change", () => { shown[key] = box.checked; redraw(); });
      if (colour) { const sw = el("span", { class: "sw" }, lab); sw.style.background = colour; }
      lab.appendChild(document.createTextNode(text));
    }
    speedSel.innerHTML = "";
    for (const s of T.lines) el("option", { value: s.name }, speedSel, s.label);
    el("option", { value: "" }, speedSel, "none");
    speedSel.value = speedLine;
  }
  speedSel.addEventListener("change", () => { speedLine = speedSel.value; redraw(); });

  function redraw() {
    drawBase(); drawPlot(); drawLegend(); drawOverlay();
  }
  function loadImage(uri) {
    const img = new Image();
    const p = new Promise((res) => { img.onload = () => res(); img.onerror = () => { errors.push("map image failed to load"); res(); }; });
    img.src = uri;
    return [img, p];
  }
  function selectTrack(i) {
    T = prepare(D.tracks[i]);
    pick.value = String(i);
    for (const k in shown) delete shown[k];
    const R = racingSeries();
    speedLine = R ? R.name : "";
    mark = null;
    buildHeader(); buildToggles(); layout(); fit(); setReadout();
    const waits = [];
    if (!T.img) { const [img, p] = loadImage(T.map.png); T.img = img; waits.push(p); }
    if (T.cmp && T.cmp.changed && !T.cimg) { const [img, p] = loadImage(T.cmp.changed); T.cimg = img; waits.push(p); }
    redraw();
    return Promise.all(waits).then(() => { redraw(); });
  }
  D.tracks.forEach((t, i) => el("option", { value: String(i) }, pick, t.name));
  pick.style.display = D.tracks.length > 1 ? "" : "none";
  pick.addEventListener("change", () => selectTrack(Number(pick.value)));

  // ---------- pointer input: pan, pinch, wheel, hover, tap ----------
  const ptrs = new Map();
  let downAt = null;
  const local = (e, c) => { const r = c.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  mapO.addEventListener("pointerdown", (e) => {
    mapO.setPointerCapture(e.pointerId);
    ptrs.set(e.pointerId, local(e, mapO));
    downAt = local(e, mapO);
  });
  mapO.addEventListener("pointermove", (e) => {
    const p = local(e, mapO);
    if (!ptrs.has(e.pointerId)) { hover(p[0], p[1]); return; }
    const old = ptrs.get(e.pointerId);
    if (ptrs.size === 1) {
      view.tx += p[0] - old[0]; view.ty += p[1] - old[1];
    } else if (ptrs.size === 2) {
      const other = [...ptrs.entries()].find(([id]) => id !== e.pointerId)[1];
      const d0 = Math.hypot(old[0] - other[0], old[1] - other[1]), d1 = Math.hypot(p[0] - other[0], p[1] - other[1]);
      const mx0 = (old[0] + other[0]) / 2, my0 = (old[1] + other[1]) / 2, mx1 = (p[0] + other[0]) / 2, my1 = (p[1] + other[1]) / 2;
      view.tx += mx1 - mx0; view.ty += my1 - my0;
      if (d0 > 0) zoomAt(mx1, my1, d1 / d0);
    }
    ptrs.set(e.pointerId, p);
    drawBase(); drawOverlay();
  });
  const up = (e) => {
    const p = local(e, mapO);
    ptrs.delete(e.pointerId);
    if (downAt && Math.hypot(p[0] - downAt[0], p[1] - downAt[1]) < 5) { const q = pickAt(p[0], p[1], 24); if (q) setMark(q); }
    downAt = null;
  };
  mapO.addEventListener("pointerup", up);
  mapO.addEventListener("pointercancel", (e) => { ptrs.delete(e.pointerId); downAt = null; });
  mapO.addEventListener("wheel", (e) => {
    e.preventDefault();
    const p = local(e, mapO);
    zoomAt(p[0], p[1], Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)));
    drawBase(); drawOverlay();
  }, { passive: false });
  mapO.addEventListener("dblclick", () => { fit(); drawBase(); drawOverlay(); });
  plotO.addEventListener("pointermove", (e) => plotHover(local(e, plotO)[0]));
  plotO.addEventListener("pointerdown", (e) => plotHover(local(e, plotO)[0]));
  window.addEventListener("resize", () => { if (T) { layout(); fit(); redraw(); } });

  // ---------- self-test (#selftest) ----------
  function dispatch(target, x, y) {
    const r = target.getBoundingClientRect();
    const ev = new PointerEvent("pointermove", { clientX: r.left + x, clientY: r.top + y, bubbles: true, pointerId: 99, pointerType: "mouse" });
    target.dispatchEvent(ev);
  }
  function boxFor(s) { return toggles.querySelector('input[data-t="' + s.key + '"]'); }
  function setOnly(keep) {
    for (const s of T.series) {
      const b = boxFor(s), want = keep.includes(s);
      if (b.checked !== want) b.click();
    }
  }
  function samplePixels(pts) {
    const ctx = mapC.getContext("2d");
    return pts.map(([X, Y]) => Array.from(ctx.getImageData(Math.round(X * dpr), Math.round(Y * dpr), 1, 1).data));
  }
  function onScreen(s, count) {
    const pts = [];
    for (let j = 0; j < count; j++) {
      const i = Math.floor((j * s.n) / count), X = sx(s.x[i]), Y = sy(s.y[i]);
      if (X > 2 && Y > 2 && X < W - 2 && Y < H - 2) pts.push([X, Y]);
    }
    return pts;
  }
  async function checkTrack(ti, wp, lines) {
    await selectTrack(ti);
    const out = { name: T.name, toggles: {}, readouts: {}, links: {}, hover_ms: null };
    const t0 = performance.now();
    redraw();
    out.redraw_ms = performance.now() - t0;
    for (const s of T.series) {
      setOnly([s]);
      const pts = onScreen(s, 48);
      const before = samplePixels(pts);
      boxFor(s).click();
      const after = samplePixels(pts);
      let changed = 0;
      before.forEach((b, j) => { const a = after[j]; if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 40) changed++; });
      const k = Math.min(wp, s.n - 1);
      const p = pickAt(sx(s.x[k]), sy(s.y[k]), 14);
      out.toggles[s.name] = { samples: pts.length, changed, picked_when_hidden: !!(p && T.series[p.si] === s) };
      boxFor(s).click();
    }
    for (const s of T.series) {
      if (lines.length && !lines.includes(s.name)) continue;
      setOnly([s]);
      const k = Math.min(wp, s.n - 1);
      mark = null;
      dispatch(mapO, sx(s.x[k]), sy(s.y[k]));
      const r = {};
      for (const f in cells) r[f] = cells[f].textContent;
      r.index = mark ? mark.i : null;
      out.readouts[s.name] = r;
      const link = { wp: k, plot_cursor_px: plotCursor, expected_cursor_px: xOfS(s.s[k]) };
      // and back: the plot at this waypoint's s marks it on the map
      mark = null; drawOverlay();
      dispatch(plotO, xOfS(s.s[k]), plotLayout[0].y0 + 5);
      link.map_marked_index = mark ? mark.i : null;
      const mk = markers().find((m) => m.active);
      link.map_marker_px = mk ? [sx(T.series[mk.si].x[mk.i]), sy(T.series[mk.si].y[mk.i])] : null;
      link.waypoint_px = [sx(s.x[k]), sy(s.y[k])];
      const ov = mapO.getContext("2d").getImageData(Math.round(link.waypoint_px[0] * dpr), Math.round(link.waypoint_px[1] * dpr), 1, 1).data;
      link.marker_alpha = ov[3];
      link.plot_s_step = s.n > 1 ? (s.s[s.n - 1] - s.s[0]) / (s.n - 1) : 0;
      link.plot_px_per_m = (PW - PL - PR) / sMax();
      out.links[s.name] = link;
    }
    setOnly(T.series);
    // hover speed: the handler with its readout and overlay redraw, at waypoints of every line
    // each hover is timed three times and its fastest counts (the handler's own time; a
    // busy machine that takes the CPU away in between shows in the raw maximum only)
    const times = [];
    let rawMax = 0;
    const timed = (target, x, y) => {
      let best = Infinity;
      for (let r = 0; r < 3; r++) {
        const a = performance.now();
        dispatch(target, x, y);
        const t = performance.now() - a;
        best = Math.min(best, t); rawMax = Math.max(rawMax, t);
      }
      times.push(best);
    };
    const all = T.series.filter(visible);
    for (let j = 0; j < 120; j++) {
      const s = all[j % all.length], i = (j * 7919) % s.n;
      timed(mapO, sx(s.x[i]), sy(s.y[i]));
    }
    for (let j = 0; j < 60; j++) timed(plotO, PL + ((PW - PL - PR) * j) / 60, plotLayout[0].y0 + 5);
    const sorted = times.slice().sort((p, q) => p - q), at = (f) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
    out.hover_ms = { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1], raw_max: rawMax, mean: times.reduce((p, q) => p + q, 0) / times.length, n: times.length };
    out.waypoints = T.series.reduce((n, s) => n + s.n, 0);
    return out;
  }
  async function selftest(q) {
    const R = { version: D.version, tracks: [], open_ms: null };
    try {
      const lines = q.line ? q.line.split(",") : [];
      const wp = q.wp ? Number(q.wp) : 10;
      const which = q.track !== undefined ? [Number(q.track)] : D.tracks.map((_, i) => i);
      for (const i of which) R.tracks.push(await checkTrack(i, wp, lines));
      // leave the first track shown, a waypoint hovered, for the screenshot
      await selectTrack(which[0]);
      const s = racingSeries() || T.series[0];
      if (s) { const k = Math.min(wp, s.n - 1); hover(sx(s.x[k]), sy(s.y[k])); }
    } catch (e) {
      errors.push("selftest: " + (e && e.stack ? e.stack : String(e)));
    }
    R.errors = errors;
    selfOut.textContent = JSON.stringify(R);
    selfOut.setAttribute("data-done", "1");
  }

  const t0 = performance.now();
  const first = Number((/[#&]track=(\d+)/.exec(location.hash) || [])[1] || 0);
  const opened = selectTrack(Math.min(first, D.tracks.length - 1));
  opened.then(() => {
    const openMs = performance.now();
    document.body.setAttribute("data-open-ms", String(Math.round(openMs)));
    document.body.setAttribute("data-first-draw-ms", String(Math.round(openMs - t0)));
    if (location.hash.startsWith("#selftest")) {
      const q = {};
      for (const part of location.hash.slice(1).split("&").slice(1)) { const [k, v] = part.split("="); q[k] = decodeURIComponent(v || ""); }
      return selftest(q);
    }
  });
})();
