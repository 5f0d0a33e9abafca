// First load of the web app in headless Chromium, for `make bench`: each run opens the page in
// a fresh context (empty cache, no cookies) and reads the browser's own timings. Prints one JSON
// line: {"runs":[{"fcp_ms":..,"dcl_ms":..,"load_ms":..,"script_bytes":..,"requests":..}, ...]}.
// Usage: node scripts/first-load.mjs URL [RUNS]
import { launchBrowser } from '../e2e/lib/browser.mjs';

const url = process.argv[2];
const runs = Number(process.argv[3] || 5);
if (!url) throw new Error('usage: node scripts/first-load.mjs URL [RUNS]');

const browser = await launchBrowser();
const out = [];
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ locale: 'es-AR' });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    // First contentful paint can land just after 'load': wait for it to be recorded.
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 10000 });
    out.push(await page.evaluate(() => {
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
    }));
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify({ runs: out }));
