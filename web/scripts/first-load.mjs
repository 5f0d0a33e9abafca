// First load of the web app in headless Chromium, for `make bench`: each run opens the page in
// a fresh context (empty cache, no cookies) and reads the browser's own timings. Prints one JSON
// line: {"runs":[{"fcp_ms":..,"dcl_ms":..,"load_ms":..,"script_bytes":..,"requests":..}, ...]}.
// Usage: node scripts/first-load.mjs URL [RUNS]
import { launchBrowser } from '../e2e/lib/browser.mjs';

const url = process.argv[2];
const runs = Number(process.argv[3] || 5);
if (!url) throw new Error('usage: node scripts/first-load.mjs URL [RUNS]');

// A run that has not finished in this long is abandoned and tried again in a fresh context (once
// headless Chromium left a run hanging, with no error, and the whole bench with it).
const RUN_TIMEOUT_MS = 30_000;
const TRIES = 3;

const browser = await launchBrowser();
const out = [];
try {
  for (let i = 0; i < runs; i++) {
    for (let attempt = 1; ; attempt++) {
      const context = await browser.newContext({ locale: 'es-AR' });
      let step = 'start';
      try {
        out.push(await withTimeout(measure(context, (s) => (step = s)), RUN_TIMEOUT_MS, () => `run ${i + 1} stuck at: ${step}`));
        break;
      } catch (error) {
        if (attempt >= TRIES) throw error;
        console.error(`first-load: ${error.message}; trying again`);
      } finally {
        await withTimeout(context.close(), 10_000, () => 'closing the context').catch((e) => console.error(`first-load: ${e.message}`));
      }
    }
  }
} finally {
  await withTimeout(browser.close(), 10_000, () => 'closing the browser').catch((e) => console.error(`first-load: ${e.message}`));
}
console.log(JSON.stringify({ runs: out }));

/** One first load in a fresh context, with the browser's own timings. */
async function measure(context, at) {
  // The landing tries the sign-in popup once on its own; the popup blocker should stop it, but
  // if one opens it is no part of the first load.
  at('new page');
  const page = await context.newPage();
  context.on('page', (popup) => {
    if (popup !== page) void popup.close().catch(() => {});
  });
  at('goto');
  await page.goto(url, { waitUntil: 'load' });
  // First contentful paint can land just after 'load': wait for it to be recorded.
  at('first contentful paint');
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 10000 });
  at('reading the timings');
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    return {
      fcp_ms: performance.getEntriesByName('first-contentful-paint')[0].startTime,
      dcl_ms: nav.domContentLoadedEventEnd,
      load_ms: nav.loadEventEnd,
      script_bytes: resources.filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'))
        .reduce((sum, r) => sum + r.encodedBodySize, 0),
      requests: resources.length + 1,
    };
  });
}

/** promise, or an error saying what() after ms. */
function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
