// The requests of mcp-lens's connect, disconnect, reconnect and echo phases on the wire (CDP
// Network events, which also show CORS preflights that Playwright's page.on('request') does not
// report), and the checks of their shape.
//
// Wire shapes required (server-everything has no 2026-07-28 era):
//   - first connect (protocol "Auto"): an optional POST server/discover answered 4xx (the refused
//     probe), then initialize -> notifications/initialized -> the lists in parallel;
//   - reconnect in the same page: the app remembers the refusal, so exactly initialize ->
//     notifications/initialized -> the lists in parallel, no server/discover. The old session's
//     DELETE goes out at Disconnect, before the reconnect phase.
// Nothing else may start before the tool list is rendered, but the standalone GET stream, which
// opens a task after the list requests have left (and is only noted).

import { median, ms, stats } from './lib.mjs';

// After the tool list is in the DOM, keep watching the wire this long for stray requests.
export const WIRE_GRACE_MS = 300;
export const LIST_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

export function attachWire(cdp, serverOrigin) {
  const requests = new Map(); // requestId -> record
  const list = [];
  const hit = (url) => {
    try {
      return new URL(url).origin === serverOrigin;
    } catch {
      return false;
    }
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!hit(e.request.url)) return;
    const record = {
      id: e.requestId,
      method: e.request.method,
      preflightFor: e.initiator?.type === 'preflight' ? e.initiator.requestId : null,
      rpc: null,
      hasPostData: Boolean(e.request.hasPostData),
      postData: e.request.postData ?? null,
      start: e.timestamp, // monotonic seconds
      wallStart: e.wallTime * 1000, // epoch ms
      headersAt: null,
      lastDataAt: null,
      endAt: null,
      status: null,
      mimeType: null,
      failed: null,
    };
    requests.set(e.requestId, record);
    list.push(record);
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.headersAt = e.timestamp;
    r.status = e.response.status;
    r.mimeType = e.response.mimeType ?? null;
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.lastDataAt = Math.max(r.lastDataAt ?? 0, e.timestamp);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.endAt = e.timestamp;
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.endAt = e.timestamp;
    r.failed = e.canceled ? 'canceled' : e.errorText;
  });
  return {
    list,
    async resolvePostData() {
      for (const r of list) {
        if (r.method !== 'POST') continue;
        if (r.postData === null && r.hasPostData) {
          try {
            r.postData = (await cdp.send('Network.getRequestPostData', { requestId: r.id })).postData;
          } catch {
            // gone
          }
        }
        try {
          const body = JSON.parse(r.postData ?? '');
          r.rpc = Array.isArray(body) ? `batch[${body.map((m) => m.method ?? 'response').join(',')}]` : (body.method ?? 'response');
        } catch {
          r.rpc = '(not JSON)';
        }
      }
    },
  };
}

export const label = (r) => (r.method === 'POST' ? `POST ${r.rpc}` : r.method === 'OPTIONS' ? 'OPTIONS' : `${r.method}`);

const answerOf = (r) =>
  r.status !== null ? `answered HTTP ${r.status}` : r.failed ? `failed: ${r.failed}` : 'was not answered';

// Analyses the requests of a connect phase (the first Connect or the reconnect). `all` are in the
// order the browser issued them. `discover`: 'optional' (a leading POST server/discover answered
// 4xx, the refused probe of the 2026-07-28 era, is accepted) or 'forbidden' (the app learned that
// the server refuses it, so it must not be sent again).
export function analyseConnectWire(all, clickAtWallMs, renderedAtWallMs, { discover }) {
  const violations = [];
  // The page clock (timeOrigin + now) and CDP's wall clock agree to well under a millisecond.
  // Every POST of the connect path precedes the render: a few ms of slack keeps them in. Other
  // requests count as "before the render" only if they clearly started before it.
  const beforeRender = (r) =>
    r.method === 'POST' ? r.wallStart <= renderedAtWallMs + 5 : r.wallStart < renderedAtWallMs - 2;
  const preflights = all.filter((r) => r.preflightFor);
  const main = all.filter((r) => !r.preflightFor);
  const before = main.filter(beforeRender);
  const after = main
    .filter((r) => !beforeRender(r))
    .map((r) => ({ label: label(r), sinceRender: r.wallStart - renderedAtWallMs }))
    .filter((a) => a.sinceRender <= WIRE_GRACE_MS);

  const preflighted = new Set(preflights.map((p) => p.preflightFor));
  const posts = before.filter((r) => r.method === 'POST');
  const others = before.filter((r) => r.method !== 'POST');
  // The standalone GET stream opens a task after the list requests have left (the client does
  // not wait for the paint: a server's own request sent before it is open is lost); anything else
  // that is not a POST, or a GET before the lists, stands in the connect's way.
  const listsLeftAt = Math.max(...posts.filter((r) => LIST_METHODS.has(r.rpc)).map((r) => r.wallStart));
  for (const r of others) {
    if (r.method === 'GET' && Number.isFinite(listsLeftAt) && r.wallStart >= listsLeftAt) continue;
    violations.push(`unexpected ${label(r)} before the tool list was rendered${r.method === 'GET' ? ' (before the list requests)' : ''}`);
  }

  // The refused probe, if it leads.
  const probe = posts[0]?.rpc === 'server/discover' ? posts[0] : null;
  if (probe) {
    if (discover === 'forbidden') {
      violations.push('POST server/discover sent, but the server refused it on the first connect: the probe should be skipped');
    } else if (probe.status === null || probe.status < 400 || probe.status > 499) {
      violations.push(`POST server/discover ${answerOf(probe)}, expected a 4xx refusal (server-everything has no 2026-07-28 era)`);
    }
  }
  const handshake = probe ? posts.slice(1) : posts;
  const rpcs = handshake.map((r) => r.rpc);
  const nth = probe ? ['second', 'third'] : ['first', 'second'];
  if (rpcs[0] !== 'initialize') violations.push(`${nth[0]} POST is ${rpcs[0] ?? '(none)'}, expected initialize`);
  if (rpcs[1] !== 'notifications/initialized') violations.push(`${nth[1]} POST is ${rpcs[1] ?? '(none)'}, expected notifications/initialized`);
  for (const r of handshake.slice(2)) if (!LIST_METHODS.has(r.rpc)) violations.push(`unexpected POST ${r.rpc} before the tool list was rendered`);
  const lists = handshake.slice(2).filter((r) => LIST_METHODS.has(r.rpc));
  const seen = new Set();
  for (const r of lists) {
    if (seen.has(r.rpc)) violations.push(`${r.rpc} sent twice`);
    seen.add(r.rpc);
  }
  if (!seen.has('tools/list')) violations.push('no tools/list before the tool list was rendered');
  for (const r of handshake) {
    if (r.status !== null && (r.status < 200 || r.status > 299)) violations.push(`POST ${r.rpc} answered HTTP ${r.status}`);
    if (r.status === null && r.failed) violations.push(`POST ${r.rpc} failed: ${r.failed}`);
  }

  // Round trips: a request depends on every request whose answer (headers) arrived before it
  // started; the count is the longest such chain. With preflights, a preflighted POST costs 2.
  const answeredAt = (r) => r.headersAt ?? r.endAt ?? Infinity;
  const levels = new Map();
  const wireLevels = new Map();
  for (const r of posts) {
    let level = 0;
    let wire = 0;
    for (const p of posts) {
      if (p === r || !levels.has(p)) continue;
      if (answeredAt(p) <= r.start) {
        level = Math.max(level, levels.get(p));
        wire = Math.max(wire, wireLevels.get(p));
      }
    }
    levels.set(r, level + 1);
    wireLevels.set(r, wire + 1 + (preflighted.has(r.id) ? 1 : 0));
  }
  const roundTrips = Math.max(0, ...levels.values());
  const wireRoundTrips = Math.max(0, ...wireLevels.values());

  // The sequence, grouped by round trip.
  const groups = [];
  for (const r of posts) {
    const level = levels.get(r);
    const refused = r === probe && r.status !== null && r.status >= 400 ? ` (HTTP ${r.status})` : '';
    (groups[level - 1] ||= []).push(`${label(r)}${refused}${preflighted.has(r.id) ? ' [+preflight]' : ''}`);
  }
  let sequence = groups.filter(Boolean).map((g) => g.join(', ')).join(' -> ');
  if (others.length) sequence += ` (also: ${others.map(label).join(', ')})`;

  // The lists are parallel if every one of them started before any of them was answered.
  let listsParallel = null;
  if (lists.length > 1) {
    const lastStart = Math.max(...lists.map((r) => r.start));
    const firstAnswer = Math.min(...lists.map(answeredAt));
    listsParallel = lastStart < firstAnswer;
    if (!listsParallel) violations.push('the list requests were not in flight at the same time (not parallel)');
  }
  const offset = probe ? 1 : 0;
  const orderOk =
    violations.length === 0 &&
    (!probe || levels.get(probe) === 1) &&
    levels.get(handshake[0]) === offset + 1 &&
    levels.get(handshake[1]) === offset + 2 &&
    handshake.length === 2 + lists.length &&
    lists.every((r) => levels.get(r) === offset + 3);
  // In words, e.g. "4 round trips (server/discover refused; initialize; initialized; lists in parallel)".
  const steps = [
    ...(probe ? ['server/discover refused'] : []),
    'initialize',
    'initialized',
    lists.length > 1 ? 'lists in parallel' : 'tools/list',
  ];
  const shape = orderOk ? `${steps.length} round trips (${steps.join('; ')})` : null;

  const preflightOf = posts.filter((r) => preflighted.has(r.id)).map((r) => r.rpc);
  const breakdown = orderOk ? connectBreakdown(all, probe, handshake, lists, clickAtWallMs, renderedAtWallMs) : null;
  return {
    breakdown,
    sequence,
    shape,
    probe: probe ? { status: probe.status } : null,
    roundTrips,
    wireRoundTrips,
    preflightsBefore: preflightOf,
    listsParallel,
    shapeOk: orderOk,
    violations,
    after,
  };
}

// Where a connect phase's time goes (ms). Stage boundaries are the moments the next stage's
// first request (or its preflight) was issued. CDP times are monotonic; the click and render
// times come from the page clock, so the first and last stage are good to about a millisecond.
// `discover` and `discoverPreflight` are there only when the refused probe led.
function connectBreakdown(all, probe, handshake, lists, clickAtWallMs, renderedAtWallMs) {
  const toWall = (t) => (t - all[0].start) * 1000 + all[0].wallStart;
  const preflightOf = (r) => all.find((p) => p.preflightFor === r.id) ?? null;
  const issued = (r) => Math.min(r.start, preflightOf(r)?.start ?? Infinity);
  // CDP stamps a preflight's events from different places; tiny negative spans become 0.
  const preflightMs = (r) => {
    const p = preflightOf(r);
    return p ? Math.max(0, (Math.max(p.headersAt ?? 0, p.endAt ?? 0) - p.start) * 1000) : 0;
  };
  // When the answer's bytes arrived. Not the end of loading: the client cancels a finished SSE
  // answer's stream when it gets to it, which can be later.
  const answered = (r) => (r.headersAt !== null ? Math.max(r.headersAt, r.lastDataAt ?? 0) : (r.endAt ?? r.start));
  const [init, initialized] = handshake;
  const listsIssued = Math.min(...lists.map(issued));
  const listsAnswered = Math.max(...lists.map(answered));
  return {
    clickToFirstSent: toWall(issued(probe ?? init)) - clickAtWallMs,
    ...(probe ? { discover: (issued(init) - issued(probe)) * 1000, discoverPreflight: preflightMs(probe) } : {}),
    initialize: (issued(initialized) - issued(init)) * 1000,
    initializePreflight: preflightMs(init),
    initialized: (listsIssued - issued(initialized)) * 1000,
    initializedPreflight: preflightMs(initialized),
    lists: (listsAnswered - listsIssued) * 1000,
    listsAnsweredToRendered: renderedAtWallMs - toWall(listsAnswered),
  };
}

// The requests between the Disconnect click and the reconnect click: the old session's DELETE.
export function analyseDisconnectWire(all) {
  const main = all.filter((r) => !r.preflightFor);
  const preflighted = new Set(all.filter((r) => r.preflightFor).map((r) => r.preflightFor));
  const violations = [];
  const deletes = main.filter((r) => r.method === 'DELETE');
  if (!deletes.length) violations.push('no DELETE of the old session at Disconnect');
  for (const r of deletes) if (r.status === null && r.failed) violations.push(`DELETE failed: ${r.failed}`);
  const sequence = main.map((r) => `${label(r)}${r.status !== null ? ` (HTTP ${r.status})` : ''}${preflighted.has(r.id) ? ' [+preflight]' : ''}`).join(', ') || '(nothing)';
  return { sequence, violations };
}

export function analyseEchoWire(all) {
  const preflighted = new Set(all.filter((r) => r.preflightFor).map((r) => r.preflightFor));
  return all
    .filter((r) => !r.preflightFor)
    .map((r) => `${label(r)}${preflighted.has(r.id) ? ' [+preflight]' : ''}`)
    .join(', ');
}

// ---------------------------------------------------------------- the report

/**
 * Prints the wire of every mcp-lens run: the sequences, what came after the render, the round
 * trips in words (or the violations), the breakdown and the count with preflights, for the first
 * connect, the disconnect, the reconnect and the echo call. Returns the violations and a summary.
 */
export function reportLensWire(results) {
  const runsLabel = (runs) => (runs.length === results.length ? 'all runs' : `run${runs.length > 1 ? 's' : ''} ${runs.join(', ')}`);
  const groupBy = (keyOf) => {
    const groups = new Map();
    for (const [i, r] of results.entries()) {
      const key = keyOf(r);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(i + 1);
    }
    return groups;
  };
  const violations = [];
  // Prints one connect phase's wire: the sequences, what came after the render, the round trips
  // in words (or the violations), the breakdown and the count with preflights.
  const reportConnectWire = (name, title, key) => {
    const sequences = groupBy((r) => r[key].sequence);
    for (const [sequence, runs] of sequences) console.log(`${name} wire (${runsLabel(runs)}): ${sequence}`);
    const afterGroups = groupBy((r) => r[key].after.map((a) => a.label).join(', '));
    for (const [labels, runs] of afterGroups) {
      if (!labels) continue;
      const firsts = runs.map((n) => results[n - 1][key].after[0].sinceRender);
      const range = firsts.length > 1 ? `${ms(Math.min(...firsts))}..${ms(Math.max(...firsts))}` : ms(firsts[0]);
      console.log(`  note (${runsLabel(runs)}): after the tool list (within ${WIRE_GRACE_MS} ms): ${labels}; the first started ${range} ms after the render`);
    }
    const own = [];
    for (const [i, r] of results.entries()) for (const v of r[key].violations) own.push(`run ${i + 1}: ${v}`);
    if (own.length) {
      console.log(`${title}: WIRE CHECK FAILED`);
      for (const v of own) console.log(`  VIOLATION ${v}`);
      violations.push(...own.map((v) => `${name}: ${v}`));
    } else {
      const shapes = groupBy((r) => r[key].shape ?? `${r[key].roundTrips} round trips (order as expected, but not in dependent steps: see the sequence above)`);
      for (const [shape, runs] of shapes) console.log(`${title}${shapes.size > 1 ? ` (${runsLabel(runs)})` : ''}: ${shape}`);
    }
    const breakdowns = results.map((r) => r[key].breakdown).filter(Boolean);
    let breakdown = null;
    if (breakdowns.length) {
      const keys = Object.keys(breakdowns[0]).filter((k) => breakdowns.every((b) => k in b));
      const med = (k) => ms(median(breakdowns.map((b) => b[k])));
      const probeEverywhere = keys.includes('discover');
      const probeNowhere = breakdowns.every((b) => !('discover' in b));
      const first = probeEverywhere ? 'server/discover' : probeNowhere ? 'initialize' : 'first request';
      console.log(
        `${name} breakdown (median ms): click -> ${first} sent ${med('clickToFirstSent')}` +
          (probeEverywhere ? ` | server/discover (refused) ${med('discover')} (preflight ~${med('discoverPreflight')})` : '') +
          ` | initialize ${med('initialize')} (preflight ~${med('initializePreflight')})` +
          ` | initialized ${med('initialized')} (preflight ~${med('initializedPreflight')})` +
          ` | lists ${med('lists')} | lists answered -> rendered ${med('listsAnsweredToRendered')}`,
      );
      breakdown = Object.fromEntries(keys.map((k) => [k, stats(breakdowns.map((b) => b[k]))]));
    }
    const wireCounts = [...new Set(results.map((r) => r[key].wireRoundTrips))].join('/');
    const preflightSets = [...new Set(results.map((r) => r[key].preflightsBefore.join(', before ')))];
    const pre = preflightSets
      .map((p) => (p ? `preflight before ${p}` : 'no preflights'))
      .join(' | ');
    console.log(`${name} wire round trips incl. CORS preflights: ${wireCounts} (${pre})`);
    return {
      sequences: Object.fromEntries(sequences),
      shape: results.map((r) => r[key].shape),
      discover: results.map((r) => r[key].probe),
      roundTrips: results.map((r) => r[key].roundTrips),
      wireRoundTripsInclPreflights: results.map((r) => r[key].wireRoundTrips),
      preflightsBefore: results[0][key].preflightsBefore,
      listsParallel: results.map((r) => r[key].listsParallel),
      after: results.map((r) => r[key].after),
      ok: own.length === 0,
      breakdown,
    };
  };

  console.log('');
  const connectWire = reportConnectWire('connect', 'first connect', 'wire');

  const disconnectSequences = groupBy((r) => r.disconnectWire.sequence);
  for (const [sequence, runs] of disconnectSequences) console.log(`disconnect wire (${runsLabel(runs)}): ${sequence}`);
  const disconnectViolations = [];
  for (const [i, r] of results.entries()) for (const v of r.disconnectWire.violations) disconnectViolations.push(`run ${i + 1}: ${v}`);
  if (disconnectViolations.length) {
    console.log('disconnect: WIRE CHECK FAILED');
    for (const v of disconnectViolations) console.log(`  VIOLATION ${v}`);
    violations.push(...disconnectViolations.map((v) => `disconnect: ${v}`));
  }

  const reconnectWire = reportConnectWire('reconnect', 'reconnect', 'reconnectWire');
  const echoWires = [...new Set(results.map((r) => r.echoWire))];
  console.log(`echo wire: ${echoWires.join(' | ')}`);
  const { breakdown: _c, ...connectRest } = connectWire;
  const { breakdown: _r, ...reconnectRest } = reconnectWire;
  const wire = {
    ...connectRest,
    disconnect: { sequences: Object.fromEntries(disconnectSequences), ok: disconnectViolations.length === 0 },
    reconnect: {
      ...reconnectRest,
      staleListAtDisconnect: results.map((r) => r.staleEchoAtDisconnect),
      statuses: results.map((r) => r.reconnectStatuses),
    },
    ok: violations.length === 0,
    violations,
    echo: echoWires,
  };
  return { violations, wire, connectBreakdown: connectWire.breakdown, reconnectBreakdown: reconnectWire.breakdown };
}
