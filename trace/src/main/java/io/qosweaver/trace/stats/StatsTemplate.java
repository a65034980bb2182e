package io.qosweaver.trace.stats;

/**
 * The statistics view's page, with {@value #MARK} where the data goes. A constant rather than a
 * resource: the tracer runs from the bootstrap class path, where an agent-appended jar's
 * resources are not found by {@code getResourceAsStream}.
 */
final class StatsTemplate {
    static final String MARK = "/*QOSWEAVER-DATA*/";

    private StatsTemplate() {
    }

    static final String PAGE = """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>QoSWeaver trace statistics</title>
<style>
body { font: 13px/1.4 system-ui, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; margin: 0 0 4px; }
h2 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: #666; }
.warn { color: #a40; }
table { border-collapse: collapse; }
th, td { padding: 2px 6px; border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; }
th { position: sticky; top: 0; background: #f4f4f4; cursor: pointer; user-select: none; font-weight: 600; }
th.lvl { cursor: default; text-align: center; border-left: 2px solid #ccc; }
td.name, th.name { text-align: left; }
td.first, th.first { border-left: 2px solid #ccc; }
td .pct { color: #555; font-size: 11px; }
td.hot { background: linear-gradient(to right, #f7c9a9 var(--p), transparent var(--p)); }
#overview { border: 1px solid #bbb; cursor: crosshair; display: block; margin: 4px 0; }
.controls input[type=number] { width: 90px; }
.controls > * { margin-right: 8px; }
.legend span { display: inline-block; width: 10px; height: 10px; margin: 0 3px 0 10px; vertical-align: middle; }
#stats td { text-align: left; }
.scroll { max-height: 70vh; overflow: auto; border: 1px solid #ddd; }
</style>
</head>
<body>
<h1>Trace statistics: time per thread and task class in each state of each level</h1>
<div class="muted" id="head"></div>

<h2>Range</h2>
<div class="controls">
  <label>from <input type="number" id="from" step="0.1" min="0"> s</label>
  <label>to <input type="number" id="to" step="0.1" min="0"> s</label>
  <button id="all">whole trace</button>
  <label><input type="text" id="filter" placeholder="thread name contains"></label>
  <label><input type="checkbox" id="idle"> hide threads with no time in range</label>
</div>
<canvas id="overview" width="1000" height="70"></canvas>
<div class="legend muted">drag on the overview to select a range;
  <span style="background:#3a7"></span>threads running
  <span style="background:#d63"></span>threads blocked in the JVM (monitor enter, wait, park)
  <span style="background:#36c"></span>threads suspended by the scheduler</div>
<div id="note" class="warn"></div>

<h2>Timeline</h2>
<div class="muted">The threads of the table below (same filter and order) over the range, as Paraver draws them:
  in each row the upper band is the thread's OS state, the lower band its JVM state, with the scheduler's
  suspensions over it. The Perfetto file beside this page holds the same events, every level on its own track.
  The range, the filter and the hiding of idle threads can be given in the address: <code>#from=2.5&amp;to=3&amp;filter=worker&amp;idle=1</code>.</div>
<div class="legend muted" id="tlLegend"></div>
<canvas id="timeline" width="1200" height="30"></canvas>
<div id="tlNote" class="muted"></div>

<h2>Threads</h2>
<div class="muted">Each cell: time in the state, and its share of the thread's traced time in the range
  (from its first to its last event). Click a column to sort.</div>
<div class="scroll"><table id="threads"></table></div>

<h2>Task classes</h2>
<div class="muted">Time in each state while in the task class (an application request of the class or,
  without requests, a scheduler scope of it), summed over threads; share of the time in the class.</div>
<div class="scroll"><table id="classes"></table></div>

<h2>Trace statistics</h2>
<table id="stats"></table>

<script type="application/json" id="data">/*QOSWEAVER-DATA*/</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const LEVEL_NAMES = {os: "OS", jvm: "JVM", scheduler: "scheduler", app: "app", server: "server", user: "user events"};
const ORDER = ["Running", "Runnable (waiting for CPU)", "Sleeping", "Blocked (I/O)",
  "monitor enter", "monitor wait", "park", "in task class", "suspended", "request", "parsing", "service"];
// Columns: the states, grouped by level, in a fixed order where known.
const cols = D.states.map((s, i) => ({i, level: s[0], name: s[1]}));
cols.sort((a, b) => a.level - b.level || rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
function rank(n) { const r = ORDER.indexOf(n); return r < 0 ? 99 : r; }
const APP = D.levels.indexOf("app"), SCHED = D.levels.indexOf("scheduler"), JVM = D.levels.indexOf("jvm"),
  OS = D.levels.indexOf("os");
const stateLevel = D.states.map(s => s[0]);

// Per thread: its intervals, and its class intervals (requests, else scheduler scopes) sorted by start.
for (const t of D.threads) {
  const iv = t.iv, own = [], cls = [];
  for (let k = 0; k < iv.length; k += 4) {
    const lv = stateLevel[iv[k]];
    if (lv === APP) own.push([iv[k + 2], iv[k + 2] + iv[k + 3], iv[k + 1]]);
    else if (lv === SCHED && iv[k + 1] >= 0) cls.push([iv[k + 2], iv[k + 2] + iv[k + 3], iv[k + 1]]);
  }
  t.classIv = (own.length ? own : cls).sort((a, b) => a[0] - b[0]);
}

function fmt(us) {
  const s = us / 1e6;
  return s >= 100 ? s.toFixed(0) + " s" : s >= 1 ? s.toFixed(2) + " s" : (us / 1000).toFixed(1) + " ms";
}
function pct(x, of) { return of > 0 ? 100 * x / of : 0; }

function compute(t0, t1) {
  const whole = t0 <= 0 && t1 >= D.durationUs;
  const useTotals = whole && D.cap.dropped > 0; // exact, where the intervals are cut short
  const rows = [], classes = new Map();
  const classRow = c => {
    if (!classes.has(c)) classes.set(c, {name: D.classes[c], cells: new Float64Array(D.states.length), traced: 0,
      threads: new Set()});
    return classes.get(c);
  };
  for (const t of D.threads) {
    const cells = new Float64Array(D.states.length);
    const traced = Math.max(0, Math.min(t1, t.lastUs) - Math.max(t0, t.firstUs));
    if (useTotals) {
      for (let k = 0; k < t.totals.length; k += 3) cells[t.totals[k]] += t.totals[k + 2];
    }
    const iv = t.iv, civ = t.classIv;
    for (let k = 0; k < iv.length; k += 4) {
      const s = Math.max(t0, iv[k + 2]), e = Math.min(t1, iv[k + 2] + iv[k + 3]);
      if (e <= s) continue;
      const st = iv[k], c = iv[k + 1];
      if (!useTotals) cells[st] += e - s;
      if (c >= 0) { const r = classRow(c); r.cells[st] += e - s; r.threads.add(t.tid); continue; }
      // OS and JVM states: the part inside each of the thread's class intervals
      let lo = 0, hi = civ.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (civ[m][1] <= s) lo = m + 1; else hi = m; }
      for (let j = lo; j < civ.length && civ[j][0] < e; j++) {
        const o = Math.min(e, civ[j][1]) - Math.max(s, civ[j][0]);
        if (o > 0) { const r = classRow(civ[j][2]); r.cells[st] += o; r.threads.add(t.tid); }
      }
    }
    for (const c of civ) {
      const o = Math.min(t1, c[1]) - Math.max(t0, c[0]);
      if (o > 0) classRow(c[2]).traced += o;
    }
    rows.push({tid: t.tid, name: t.name, traced, cells});
  }
  return {rows, classes: [...classes.values()]};
}

const sortState = {threads: {key: "name", dir: 1}, classes: {key: "name", dir: 1}};

function render(id, rows, first) {
  const table = document.getElementById(id), st = sortState[id];
  const val = (r, key) => key === "name" ? r.name : key === "tid" ? r.tid : key === "traced" ? r.traced
    : key === "threads" ? r.threads.size : pct(r.cells[key], r.traced);
  rows.sort((a, b) => { const x = val(a, st.key), y = val(b, st.key);
    return (typeof x === "string" ? x.localeCompare(y) : x - y) * st.dir; });
  let h = "<thead><tr><th class='lvl name' colspan='" + first.length + "'></th>";
  let prev = -1, span = 0, lvls = [];
  for (const c of cols) { if (c.level !== prev) { lvls.push([c.level, 0]); prev = c.level; } lvls[lvls.length - 1][1]++; }
  for (const [l, n] of lvls) h += "<th class='lvl' colspan='" + n + "'>" + LEVEL_NAMES[D.levels[l]] + "</th>";
  h += "</tr><tr>";
  for (const [k, label] of first) h += "<th data-k='" + k + "' class='" + (k === "name" ? "name" : "") + "'>" + label + arrow(st, k) + "</th>";
  prev = -1;
  for (const c of cols) {
    h += "<th data-k='" + c.i + "' class='" + (c.level !== prev ? "first" : "") + "'>" + esc(c.name) + arrow(st, c.i) + "</th>";
    prev = c.level;
  }
  h += "</tr></thead><tbody>";
  for (const r of rows) {
    h += "<tr>";
    for (const [k] of first) {
      h += k === "name" ? "<td class='name'>" + esc(r.name) + "</td>" : k === "tid" ? "<td>" + r.tid + "</td>"
        : k === "threads" ? "<td>" + r.threads.size + "</td>" : "<td>" + fmt(r.traced) + "</td>";
    }
    prev = -1;
    for (const c of cols) {
      const v = r.cells[c.i], p = pct(v, r.traced);
      const cls = (c.level !== prev ? "first " : "") + (v > 0 ? "hot" : "");
      h += "<td class='" + cls + "' style='--p:" + Math.min(100, p).toFixed(1) + "%'>" + (v > 0 ? fmt(v)
        + " <span class='pct'>" + p.toFixed(1) + " %</span>" : "") + "</td>";
      prev = c.level;
    }
    h += "</tr>";
  }
  table.innerHTML = h + "</tbody>";
  for (const th of table.querySelectorAll("th[data-k]")) {
    th.onclick = () => {
      const k = isNaN(th.dataset.k) ? th.dataset.k : +th.dataset.k;
      st.dir = st.key === k ? -st.dir : (typeof k === "number" || k === "traced" ? -1 : 1);
      st.key = k;
      update();
    };
  }
}
function arrow(st, k) { return st.key === k ? (st.dir > 0 ? " &#9650;" : " &#9660;") : ""; }
function esc(s) { return String(s).replace(/[&<>"']/g, c => "&#" + c.charCodeAt(0) + ";"); }

const fromIn = document.getElementById("from"), toIn = document.getElementById("to");
function range() {
  let a = Math.max(0, (+fromIn.value || 0) * 1e6), b = toIn.value === "" ? D.durationUs : +toIn.value * 1e6;
  b = Math.min(D.durationUs, b);
  return a < b ? [a, b] : [0, D.durationUs];
}
function update() {
  const [t0, t1] = range();
  const m = compute(t0, t1);
  const f = document.getElementById("filter").value.toLowerCase(), hide = document.getElementById("idle").checked;
  const rows = m.rows.filter(r => r.name.toLowerCase().includes(f) && (!hide || r.traced > 0));
  render("threads", rows, [["name", "thread"], ["tid", "tid"], ["traced", "traced"]]);
  drawTimeline(t0, t1, rows);
  render("classes", m.classes, [["name", "task class"], ["threads", "threads"], ["traced", "time in class"]]);
  let note = "";
  if (D.cap.dropped > 0) {
    note = "The page keeps at most " + D.cap.max + " intervals: " + D.cap.dropped + " from " + fmt(D.cap.fromUs)
      + " on are left out. The whole trace's thread rows use exact totals; ranges reaching past " + fmt(D.cap.fromUs)
      + " and the task-class rows miss them.";
  }
  document.getElementById("note").textContent = note;
  drawOverview(t0, t1);
}

// Overview: how many threads run, block in the JVM, or are suspended, per time bin.
const canvas = document.getElementById("overview"), ctx = canvas.getContext("2d");
const BINS = 250, series = [new Float64Array(BINS), new Float64Array(BINS), new Float64Array(BINS)];
(function bin() {
  const w = D.durationUs / BINS;
  if (!(w > 0)) return;
  const which = D.states.map(s => s[0] === OS && s[1] === "Running" ? 0
    : s[0] === JVM ? 1 : s[0] === SCHED && s[1] === "suspended" ? 2 : -1);
  for (const t of D.threads) {
    const iv = t.iv;
    for (let k = 0; k < iv.length; k += 4) {
      const sr = which[iv[k]];
      if (sr < 0) continue;
      const s = iv[k + 2], e = s + iv[k + 3];
      for (let b = Math.max(0, Math.floor(s / w)); b < BINS && b * w < e; b++) {
        series[sr][b] += (Math.min(e, (b + 1) * w) - Math.max(s, b * w)) / w;
      }
    }
  }
})();
function drawOverview(t0, t1) {
  const W = canvas.width, H = canvas.height, bw = W / BINS;
  ctx.clearRect(0, 0, W, H);
  let max = 1;
  for (const s of series) for (const v of s) max = Math.max(max, v);
  const colors = ["#3a7", "#d63", "#36c"];
  series.forEach((s, i) => {
    ctx.strokeStyle = colors[i];
    ctx.beginPath();
    for (let b = 0; b < BINS; b++) {
      const y = H - 2 - (H - 14) * s[b] / max;
      b ? ctx.lineTo((b + 0.5) * bw, y) : ctx.moveTo(0.5 * bw, y);
    }
    ctx.stroke();
  });
  ctx.fillStyle = "#666";
  ctx.fillText("max " + max.toFixed(1) + " threads; " + fmt(D.durationUs) + " in all", 4, 10);
  if (t0 > 0 || t1 < D.durationUs) {
    ctx.fillStyle = "rgba(60,100,200,0.15)";
    ctx.fillRect(W * t0 / D.durationUs, 0, W * (t1 - t0) / D.durationUs, H);
  }
}
// Timeline: one row per thread, its intervals in the range as colored bars (upper band OS, lower JVM and
// scheduler); an interval narrower than a pixel still gets one, so that short events stay visible.
const TL_COLORS = {"Running": "#3a7", "Runnable (waiting for CPU)": "#eb3", "Sleeping": "#e2e2e2",
  "Blocked (I/O)": "#96c", "monitor enter": "#d63", "monitor wait": "#a22", "park": "#f9b", "suspended": "#36c"};
const TL_MAX_ROWS = 300, TL_LABEL = 200, TL_ROW = 13, TL_AXIS = 22;
const tl = document.getElementById("timeline"), tctx = tl.getContext("2d");
const byTid = new Map(D.threads.map(t => [t.tid, t]));
document.getElementById("tlLegend").innerHTML = Object.entries(TL_COLORS)
  .map(([n, c]) => "<span style='background:" + c + "'></span>" + esc(n)).join(" ");
function drawTimeline(t0, t1, rows) {
  const shown = rows.slice(0, TL_MAX_ROWS);
  tl.height = shown.length * TL_ROW + TL_AXIS;
  const W = tl.width, PW = W - TL_LABEL, span = t1 - t0;
  tctx.clearRect(0, 0, W, tl.height);
  tctx.font = "11px system-ui, sans-serif";
  let painted = 0;
  shown.forEach((r, i) => {
    const y = i * TL_ROW, t = byTid.get(r.tid), iv = t.iv;
    tctx.fillStyle = i % 2 ? "#fafafa" : "#fff";
    tctx.fillRect(TL_LABEL, y, PW, TL_ROW);
    tctx.fillStyle = "#222";
    tctx.fillText(r.name.length > 30 ? r.name.slice(0, 29) + "\u2026" : r.name, 2, y + 10);
    for (const pass of [0, 1]) { // the scheduler's suspensions last, over the JVM band
      for (let k = 0; k < iv.length; k += 4) {
        const name = D.states[iv[k]][1], lv = stateLevel[iv[k]], color = TL_COLORS[name];
        if (!color || (lv === SCHED) !== (pass === 1) || (lv !== OS && lv !== JVM && lv !== SCHED)) continue;
        const s = Math.max(t0, iv[k + 2]), e = Math.min(t1, iv[k + 2] + iv[k + 3]);
        if (e <= s) continue;
        const x = TL_LABEL + PW * (s - t0) / span, w = Math.max(1, PW * (e - s) / span);
        tctx.fillStyle = color;
        if (lv === OS) tctx.fillRect(x, y + 1, w, 6); else tctx.fillRect(x, y + 8, w, 4);
        painted++;
      }
    }
  });
  const y = shown.length * TL_ROW;
  tctx.fillStyle = "#666";
  tctx.fillRect(TL_LABEL, y + 1, PW, 1);
  for (let k = 0; k <= 5; k++) {
    const x = TL_LABEL + PW * k / 5;
    tctx.fillRect(x, y + 1, 1, 4);
    const label = ((t0 + span * k / 5) / 1e6).toFixed(span < 2e6 ? 3 : 2) + " s";
    tctx.fillText(label, Math.min(x - (k ? tctx.measureText(label).width / 2 : 0), W - tctx.measureText(label).width), y + 16);
  }
  tl.dataset.rows = shown.length;
  tl.dataset.painted = painted;
  document.getElementById("tlNote").textContent = rows.length > TL_MAX_ROWS ? "The first " + TL_MAX_ROWS + " of "
    + rows.length + " threads; filter by name to see the others." : "";
}

let dragFrom = null;
const xToUs = ev => Math.max(0, Math.min(1, (ev.offsetX) / canvas.clientWidth)) * D.durationUs;
canvas.onmousedown = ev => { dragFrom = xToUs(ev); };
canvas.onmousemove = ev => {
  if (dragFrom === null) return;
  const x = xToUs(ev);
  fromIn.value = (Math.min(dragFrom, x) / 1e6).toFixed(3);
  toIn.value = (Math.max(dragFrom, x) / 1e6).toFixed(3);
  drawOverview(...range());
};
window.onmouseup = () => { if (dragFrom !== null) { dragFrom = null; update(); } };
fromIn.onchange = toIn.onchange = update;
document.getElementById("filter").oninput = update;
document.getElementById("idle").onchange = update;
document.getElementById("all").onclick = () => { fromIn.value = 0; toIn.value = (D.durationUs / 1e6).toFixed(3); update(); };

document.getElementById("head").textContent = D.process + ": " + fmt(D.durationUs) + " traced, "
  + D.threads.length + " threads, " + D.cap.kept + " state intervals" + (D.cap.dropped ? " (" + D.cap.dropped + " left out)" : "");
let st = "";
for (const k in D.stats) st += "<tr><td>" + esc(k) + "</td><td>" + esc(D.stats[k]) + "</td></tr>";
st += "<tr><td>state intervals in this page</td><td>" + D.cap.kept + " (at most " + D.cap.max + "; left out: "
  + D.cap.dropped + ")</td></tr>";
document.getElementById("stats").innerHTML = st;
fromIn.value = 0;
toIn.value = (D.durationUs / 1e6).toFixed(3);
// #from=S&to=S&filter=TEXT&idle=1 in the address: a range to open the page on (links, screenshots)
for (const part of location.hash.slice(1).split("&")) {
  const eq = part.indexOf("="), k = part.slice(0, eq), v = decodeURIComponent(part.slice(eq + 1));
  if (eq < 0) continue;
  if (k === "from") fromIn.value = v;
  else if (k === "to") toIn.value = v;
  else if (k === "filter") document.getElementById("filter").value = v;
  else if (k === "idle") document.getElementById("idle").checked = v === "1";
}
update();
</script>
</body>
</html>
""";
}
