// A/B: comparison runs of two dists alternating. node ab.tmp.mjs <distA> <distB> <runs> [scale]
import process from 'node:process';
import fs from 'node:fs';
import { lensRun } from './scripts/bench/lens.mjs';
import { lensScale } from './scripts/bench/scale.mjs';
import { HOST, freePort, startProcess, startStaticServer, snapshotDir, gzipSizes, launchBrowser, cleanup, median } from './scripts/bench/lib.mjs';
const [a, b, runs = '3', mode = 'cmp'] = process.argv.slice(2);
const f = (v) => (v == null ? '-' : v.toFixed(1));
async function main() {
  const apps = [];
  for (const d of [a, b]) { const snap = await snapshotDir(d); apps.push({ d, url: await startStaticServer(snap), gzip: gzipSizes(snap) }); }
  const port = await freePort();
  const url = `http://${HOST}:${port}/mcp`;
  if (mode === 'cmp') await startProcess('server-everything', process.execPath, ['-r', './tests/servers/loopback.cjs', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'streamableHttp'], { env: { PORT: String(port) }, url });
  else await startProcess('scale_server.py', '.venv/bin/python', ['tests/servers/scale_server.py', '--port', String(port), '--tools', '5000'], { url });
  const browser = await launchBrowser();
  const out = { [a]: [], [b]: [] };
  for (let i = 0; i < Number(runs); i++) {
    for (const app of apps) {
      if (mode === 'cmp') {
        const r = await lensRun(browser, { appUrl: app.url, serverUrl: url, gzip: app.gzip });
        const o = r.own;
        const row = { longest: r.longest, connect: r.times.connect, reconnect: r.times.reconnect, c2s: o.connect?.clickToSent, lb: o.connect?.lastByteToPainted, rc2s: o.reconnect?.clickToSent, rlb: o.reconnect?.lastByteToPainted };
        out[app.d].push(row);
        console.log(app.d.padEnd(16), `longest ${JSON.stringify(r.longest)} connect ${f(row.connect)} reconnect ${f(row.reconnect)} own: click->sent ${f(row.c2s)} lastbyte->painted ${f(row.lb)} | reconnect click->sent ${f(row.rc2s)} lastbyte->painted ${f(row.rlb)}`);
      } else {
        const r = await lensScale(browser, { appUrl: app.url, scaleUrl: url, gzip: app.gzip });
        const pick = r.cases.filter((c) => ['connectAll', 'filter', 'filter500'].includes(c.case ?? c.name ?? c.id));
        console.log(app.d.padEnd(16), JSON.stringify(pick.length ? pick : r.cases.slice(0, 5), (k, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v)).slice(0, 2500));
      }
    }
  }
  if (mode === 'cmp') for (const [d, rows] of Object.entries(out)) {
    const m = (k) => f(median(rows.map((r) => r[k]).filter((v) => v != null)));
    console.log(`MEDIAN ${d}: connect ${m('connect')} reconnect ${m('reconnect')} click->sent ${m('c2s')} lastbyte->painted ${m('lb')} reconnect click->sent ${m('rc2s')} reconnect lastbyte->painted ${m('rlb')}; longest connect ${rows.map((r) => r.longest.connect ?? '<50').join(',')} load ${rows.map((r) => r.longest.load ?? '<50').join(',')} reconnect ${rows.map((r) => r.longest.reconnect ?? '<50').join(',')}`);
  }
}
try { await main(); } catch (e) { console.error(e); process.exitCode = 1; } finally { await cleanup(); }
