// Soak load against a running LexPilot server on 127.0.0.1 (started by
// scripts/soak.sh): event-stream clients that stay open, page readers in a
// loop, and a stream of run uploads, for a bounded time. Prints errors (which
// must be 0), page latency percentiles, upload figures and the server's peak
// memory, then exits 1 if there was any error.
//
//   BASE=http://127.0.0.1:3200 TOKEN=… SERVER_PID=… node scripts/soak.mjs
//   SOAK_SECONDS (180), SOAK_STREAMS (200), SOAK_READERS (50), SOAK_UPLOAD_MS (500)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const base = process.env.BASE ?? 'http://127.0.0.1:3200';
const token = process.env.TOKEN;
const pid = process.env.SERVER_PID;
const seconds = Number(process.env.SOAK_SECONDS ?? 180);
const streams = Number(process.env.SOAK_STREAMS ?? 200);
const readers = Number(process.env.SOAK_READERS ?? 50);
const uploadEvery = Number(process.env.SOAK_UPLOAD_MS ?? 500);
if (!token) throw new Error('set TOKEN to a researcher API token');

const here = path.dirname(fileURLToPath(import.meta.url));
const demoRun = fs.readFileSync(path.join(here, '../server/data/runs/sim-frontier-2-run1.jsonl'), 'utf-8');
const deadline = Date.now() + seconds * 1000;
const errors = [];
const error = (what) => { if (errors.length < 20) errors.push(what); errors.count = (errors.count ?? 0) + 1; };

const pages = [
  '/',
  '/cases',
  '/cases?class=tort&page=2',
  '/cases/DEMO-0001',
  '/leaderboard',
  '/leaderboard?task=ljp&setup=gold',
  `/models/${encodeURIComponent('Sim-Frontier-2 (simulated)')}`,
  `/leaderboard/items?model=${encodeURIComponent('Sim-OpenChat-72B (simulated)')}&task=lca`,
  '/api/leaderboard',
  '/api/cases?per_page=50',
];

// Page readers: one request after another, each timed.
const latencies = [];
async function reader(n) {
  let i = n;
  while (Date.now() < deadline) {
    const url = pages[i++ % pages.length];
    const start = performance.now();
    try {
      const res = await fetch(base + url);
      await res.arrayBuffer();
      if (res.status !== 200) error(`GET ${url}: ${res.status}`);
    } catch (e) {
      error(`GET ${url}: ${e.message}`);
    }
    latencies.push(performance.now() - start);
  }
}

// Event-stream clients: open until the end; the stream ending early is an error.
let eventsSeen = 0;
let streamsOpen = 0;
async function stream() {
  const controller = new AbortController();
  const stop = setTimeout(() => controller.abort(), deadline - Date.now());
  try {
    const res = await fetch(`${base}/api/events`, { signal: controller.signal });
    if (res.status !== 200) { error(`events: ${res.status}`); return; }
    streamsOpen++;
    const body = res.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await body.read();
      if (done) { if (Date.now() < deadline - 1000) error('an event stream ended early'); break; }
      eventsSeen += (decoder.decode(value).match(/^event: runs$/gm) ?? []).length;
    }
  } catch (e) {
    if (e.name !== 'AbortError') error(`events: ${e.message}`);
  } finally {
    clearTimeout(stop);
  }
}

// Uploads: a new model every SOAK_UPLOAD_MS, every fifth a replacement.
let uploads = 0;
const uploadTimes = [];
async function uploader() {
  let n = 0;
  while (Date.now() < deadline) {
    const next = Date.now() + uploadEvery;
    const replace = n > 0 && n % 5 === 0;
    const model = `Soak-${replace ? n - 1 : n}`;
    const body = demoRun.replace('Sim-Frontier-2 (simulated)', model);
    const start = performance.now();
    try {
      const res = await fetch(`${base}/api/runs${replace ? '?replace=true' : ''}`, {
        method: 'POST', body, headers: { authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      if (res.status !== 201) error(`upload ${model}: ${res.status}`); else uploads++;
    } catch (e) {
      error(`upload ${model}: ${e.message}`);
    }
    uploadTimes.push(performance.now() - start);
    n++;
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
  }
}

function memory() {
  if (!pid) return {};
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf-8');
    const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch { return {}; }
}

const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const started = Date.now();
const before = memory();
const tasks = [];
for (let i = 0; i < streams; i++) tasks.push(stream());
for (let i = 0; i < readers; i++) tasks.push(reader(i));
tasks.push(uploader());
const sampler = setInterval(() => {
  const m = memory();
  process.stderr.write(`  ${Math.round((Date.now() - started) / 1000)} s: ${latencies.length} pages, ${uploads} uploads, ${streamsOpen} streams, rss ${Math.round((m.rss ?? 0) / 1024)} MiB, errors ${errors.count ?? 0}\n`);
}, 10_000);
await Promise.all(tasks);
clearInterval(sampler);
const after = memory();

const f = (x) => x.toFixed(1);
console.log(`soak: ${seconds} s, ${streams} event streams, ${readers} page readers, an upload every ${uploadEvery} ms`);
console.log(`errors: ${errors.count ?? 0}${errors.length ? '\n  ' + errors.join('\n  ') : ''}`);
console.log(`pages: ${latencies.length} (${f(latencies.length / seconds)}/s); latency ms p50 ${f(pct(latencies, 50))} p90 ${f(pct(latencies, 90))} p99 ${f(pct(latencies, 99))} max ${f(Math.max(...latencies))}`);
console.log(`uploads: ${uploads} stored; latency ms p50 ${f(pct(uploadTimes, 50))} p99 ${f(pct(uploadTimes, 99))}`);
console.log(`event streams: ${streamsOpen} opened; 'runs' events received ${eventsSeen} (${f(eventsSeen / Math.max(1, streamsOpen))} per stream)`);
if (pid) console.log(`server memory: rss ${Math.round((before.rss ?? 0) / 1024)} MiB at start, ${Math.round((after.rss ?? 0) / 1024)} MiB at end, peak ${Math.round((after.peak ?? 0) / 1024)} MiB`);
process.exit(errors.count ? 1 : 0);
