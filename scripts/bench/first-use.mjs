// The first use of a part of mcp-lens that is not in the page before it is used (issue 28: "first
// use of anything else ... at most 300 ms from the click to the thing shown when the person
// clicks 2 s or more after the tool list appeared, at most 1 s when clicked at once"), on the
// slow profile. Each case is a fresh throttled page of the full app: Connect clicked by the page
// the moment it is usable, then, once the tool list is shown, the part's control clicked either
// at once (by the page probe, in the same task that saw the list) or 2 s later (by Playwright);
// timed from the click's input event to the next frame after the DOM showed the part. The files
// the page requested in between say what the first use fetched (nothing: its code was already
// here, in a chunk an earlier step brought).
//
// LAZY_PARTS lists the parts. Today (src/ui/lazy.rs) the import and export dialogs are the
// import chunk, fetched on first use; the share dialog and a tool's form are in the session
// chunk, which Connect brings; they are measured too, as the baseline that a split must keep.
// A part added to lazy.rs is one more line here: the control to click and what shows it.

import { sleep } from './lib.mjs';
import { ECHO, LENS_FATAL, LENS_READY, describeLens } from './lens.mjs';
import { readProbe, watch } from './probe.mjs';
import { throttledPage } from './throttle.mjs';
import { requestedBetween } from './timeline.mjs';

export const LAZY_PARTS = [
  { name: 'import dialog', trigger: '#import-servers', shown: '#import-export' },
  { name: 'export dialog', trigger: '#export-servers', shown: '#export-text' },
  { name: 'share dialog', trigger: '#share', shown: '#share-dialog' },
  { name: "a tool's form (echo)", trigger: ECHO, shown: '#tool-panel input[data-path="/message"]' },
];
// "Clicked 2 s or more after the tool list appeared".
export const LATER_MS = 2000;

/** The watches of the full app connecting at once: `load` clicks Connect, `tools` is the list. */
export const lensAtOnceWatches = () => ({
  load: { ...LENS_READY, act: 'click' },
  tools: { clickOn: { selector: '#connect' }, selector: ECHO },
});

/**
 * One first use of `part` in a fresh throttled page, `atOnce` or 2 s after the list: the click ->
 * shown time (ms), how long after the list was in the DOM the click came, and the files fetched
 * in between.
 */
export async function firstUse(browser, { appUrl, serverUrl, part, atOnce }) {
  const watches = lensAtOnceWatches();
  if (atOnce) {
    watches.use = { after: 'tools', selector: part.trigger, act: 'click' };
    watches.shown = { clickOn: { selector: part.trigger }, selector: part.shown, fresh: true };
  }
  const opened = await throttledPage(browser, {
    url: `${appUrl}?url=${encodeURIComponent(serverUrl)}`,
    appUrl,
    serverUrl,
    initialWatches: watches,
    describe: describeLens,
    fatal: LENS_FATAL,
  });
  const { page, waitStep, timeline, problems } = opened;
  const what = `${part.shown} after a click on ${part.trigger} ${atOnce ? 'at once' : `${LATER_MS / 1000} s`} after the list (throttled)`;
  try {
    await waitStep('tools', `${ECHO} after Connect clicked at once (throttled)`);
    if (!atOnce) {
      await sleep(LATER_MS);
      await watch(page, 'shown', { clickOn: { selector: part.trigger }, selector: part.shown, fresh: true });
      await page.locator(part.trigger).click();
    }
    await waitStep('shown', what);
    const probe = await readProbe(page);
    if (problems.length) throw new Error(problems.join('\n'));
    const { shown, tools } = probe.watches;
    const epoch = (t) => probe.timeOrigin + t;
    return {
      ms: shown.frame - shown.start,
      // From the moment the DOM showed the list (a click at once comes before its frame).
      afterList: shown.start - tools.dom,
      fetched: requestedBetween(timeline, new URL(appUrl).origin, epoch(shown.start), epoch(shown.dom)),
    };
  } finally {
    await opened.close();
  }
}
