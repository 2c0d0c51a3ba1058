// The window's page: the machine's picture, the person's keys, pause and
// run, dev mode, and the journal. Plain JavaScript, no build step.
//
// The picture comes from GET /frame?since=N, which answers once the
// picture has changed since frame N with the rows that changed (frames.go
// describes the bytes), or 204 after a second of nothing. The status, and
// with it the journal's length, comes from GET /status?since=V the same
// way. Keys go to POST /keys as they go down and up; the window maps them
// onto the machine's own (keys.go).
"use strict";

const $ = (id) => document.getElementById(id);
const canvas = $("screen");
const ctx = canvas.getContext("2d", { alpha: false });

// What the page shows, for a person and for the tests that drive it.
const shown = { seq: 0, tick: 0, width: 0, height: 0, status: null, frames: 0 };
window.colophon = shown;

let image = null;   // the ImageData the rows are painted into
let pixels = null;  // its pixels as 32-bit words
let palette = new Uint32Array(0);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const little = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// paint applies one answer of /frame to the canvas.
function paint(buf) {
  const v = new DataView(buf);
  const magic = String.fromCharCode(v.getUint8(0), v.getUint8(1), v.getUint8(2), v.getUint8(3));
  if (magic !== "CFR1") throw new Error("not a frame: " + magic);
  let at = 4;
  const seq = v.getUint32(at, true); at += 4;
  const tick = Number(v.getBigUint64(at, true)); at += 8;
  const width = v.getUint16(at, true); at += 2;
  const height = v.getUint16(at, true); at += 2;
  const colours = v.getUint16(at, true); at += 2;
  palette = new Uint32Array(colours);
  for (let i = 0; i < colours; i++) {
    const r = v.getUint8(at), g = v.getUint8(at + 1), b = v.getUint8(at + 2);
    at += 3;
    palette[i] = little ? (0xff000000 | (b << 16) | (g << 8) | r) >>> 0
                        : ((r << 24) | (g << 16) | (b << 8) | 0xff) >>> 0;
  }
  if (width !== shown.width || height !== shown.height) {
    canvas.width = width;
    canvas.height = height;
    canvas.style.setProperty("--w", width);
    canvas.style.setProperty("--h", height);
    // A Spectrum's picture is small: shown twice its size.
    canvas.classList.toggle("double", width < 500);
    image = ctx.createImageData(width, height);
    pixels = new Uint32Array(image.data.buffer);
    shown.width = width;
    shown.height = height;
  }
  const runs = v.getUint16(at, true); at += 2;
  const bytes = new Uint8Array(buf);
  for (let r = 0; r < runs; r++) {
    const first = v.getUint16(at, true);
    const n = v.getUint16(at + 2, true);
    at += 4;
    const count = n * width;
    const base = first * width;
    for (let i = 0; i < count; i++) pixels[base + i] = palette[bytes[at + i]];
    at += count;
    ctx.putImageData(image, 0, 0, 0, first, width, n);
  }
  shown.seq = seq;
  shown.tick = tick;
  shown.frames++;
  $("tick").textContent = "tick " + tick;
}

async function watchFrames() {
  for (;;) {
    try {
      const r = await fetch("/frame?since=" + shown.seq, { cache: "no-store" });
      if (r.status === 200) paint(await r.arrayBuffer());
      else if (r.status !== 204) await sleep(500);
    } catch (e) {
      gone();
      await sleep(500);
    }
  }
}

function gone() {
  const s = $("state");
  s.textContent = "the window has gone";
  s.className = "state gone";
}

// The status: paused or running, dev mode, and the journal's length.
async function watchStatus() {
  let version = 0;
  for (;;) {
    try {
      const r = await fetch("/status?since=" + version, { cache: "no-store" });
      if (!r.ok) throw new Error(r.statusText);
      const st = await r.json();
      if (shown.status && st.instance !== shown.status.instance) {
        location.reload(); // another window took this one's place
        return;
      }
      version = st.version;
      show(st);
      await journal(st.journal);
    } catch (e) {
      gone();
      await sleep(1000);
    }
  }
}

function show(st) {
  shown.status = st;
  document.title = st.title + " — colophon window";
  $("title").textContent = st.title + " (" + st.handle + ")";
  const s = $("state");
  s.textContent = st.paused ? "paused" : "running";
  s.className = "state" + (st.paused ? " paused" : "");
  $("pause").textContent = st.paused ? "Run" : "Pause";
  $("devmode").checked = st.dev_mode;
  $("problem").textContent = st.problem || "";
  $("keyhint").textContent = st.machine.startsWith("cpc")
    ? "Alt is COPY, F1–F10 and the number pad the keypad."
    : "Shift is CAPS SHIFT, Ctrl and Alt SYMBOL SHIFT; Backspace is DELETE, Esc BREAK.";
}

// The journal: the entries not yet shown, and the last one shown again,
// since the frames run in real time make one entry that grows.
const entries = [];
let lastTotal = 0;
async function journal(total) {
  if (total < lastTotal) {
    // A state put back: its journal is the machine's now.
    entries.length = 0;
    $("journal").innerHTML = "";
  }
  lastTotal = total;
  let start = Math.max(0, Math.min(entries.length, total) - 1);
  for (;;) {
    const r = await fetch("/journal?start=" + start, { cache: "no-store" });
    if (!r.ok) return;
    const page = await r.json();
    page.entries.forEach((e, i) => { entries[page.start + i] = e; });
    if (page.next === undefined) break;
    start = page.next;
  }
  entries.length = Math.min(entries.length, total);
  const list = $("journal");
  const follow = list.parentElement.scrollTop + list.parentElement.clientHeight >= list.parentElement.scrollHeight - 4;
  while (list.children.length > entries.length) list.lastChild.remove();
  const from = Math.max(0, list.children.length - 1);
  for (let i = from; i < entries.length; i++) {
    const e = entries[i];
    let li = list.children[i];
    if (!li) { li = document.createElement("li"); list.appendChild(li); }
    li.innerHTML = "";
    const tool = document.createElement("span");
    tool.className = "tool";
    tool.textContent = e.tool;
    const at = document.createElement("span");
    at.className = "at";
    at.textContent = " @" + e.tick + " ";
    li.append(tool, at, JSON.stringify(e.arguments));
  }
  $("count").textContent = entries.length + " entries";
  if (follow) list.parentElement.scrollTop = list.parentElement.scrollHeight;
}

// Refresh the journal's last entry now and then, as real time runs it on.
async function refreshJournal() {
  for (;;) {
    await sleep(1000);
    if (shown.status && !shown.status.paused) {
      try { await journal(shown.status.journal); } catch (e) { /* the status loop says */ }
    }
  }
}

async function control(c) {
  const r = await fetch("/control", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(c),
  });
  if (r.ok) show(await r.json());
  canvas.focus(); // the keys go to the machine again, not the button
}

$("pause").addEventListener("click", () => control({ paused: !(shown.status && shown.status.paused) }));
$("devmode").addEventListener("change", (e) => control({ dev_mode: e.target.checked }));

// Keys go to the window in the order they happened, one request at a
// time, so that none overtakes another.
const pending = [];
let sending = false;
async function send(ev) {
  pending.push(ev);
  if (sending) return;
  sending = true;
  while (pending.length > 0) {
    const batch = pending.splice(0, 64);
    try {
      await fetch("/keys", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(batch),
      });
    } catch (e) { /* the window has gone; the status says */ }
  }
  sending = false;
}
shown.keysPending = () => pending.length + (sending ? 1 : 0);

canvas.addEventListener("keydown", (e) => {
  e.preventDefault();
  if (e.repeat) return;
  send({ type: "down", code: e.code, key: e.key });
});
canvas.addEventListener("keyup", (e) => {
  e.preventDefault();
  send({ type: "up", code: e.code, key: e.key });
});
canvas.addEventListener("blur", () => send({ type: "blur", code: "", key: "" }));
canvas.focus();

watchFrames();
watchStatus();
refreshJournal();
