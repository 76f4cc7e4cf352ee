// The four phases every comparison run measures, the same way for both apps, from the probe's
// watches of the same names (see probe.mjs) and the page's requests to its own origin.

import { sumFetched } from './bytes.mjs';
import { step } from './probe.mjs';

export const PHASES = ['load', 'connect', 'echo', 'reconnect'];

/**
 * Per phase: the time from its start to the next frame after the DOM showed the outcome, and the
 * longest task in that window; the bytes fetched from the app's origin before the Connect button
 * was usable (its DOM time), and in the whole run. `spans` maps a phase that is a chain of
 * watches to [first watch, last watch] (from the first's start to the last's frame).
 */
export function phaseMetrics(probe, pageBytes, gzip, spans = {}) {
  const times = {};
  const longest = {};
  for (const phase of PHASES) {
    const s = step(probe, ...(spans[phase] ?? [phase]));
    if (!s) throw new Error(`the ${phase} phase was not seen in the page (its click or its outcome)`);
    times[phase] = s.ms;
    longest[phase] = s.longest;
  }
  const readyWall = probe.timeOrigin + probe.watches.load.dom;
  return {
    times,
    longest,
    longtaskSupported: probe.longtaskSupported,
    beforeReady: sumFetched(pageBytes, gzip, readyWall),
    wholeRun: sumFetched(pageBytes, gzip),
  };
}
