// What every screen must pass at both sizes: a screenshot for people to look at, nothing wider
// than the viewport, no clipped text, and no serious or critical axe-core violation.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/**
 * The tallest part of a page a screenshot keeps. A fullPage capture of /jugadas at 390 px wide
 * (22,132 px tall in the next run, taller than Chromium's 16,384 px texture limit, which may be
 * why) once hung past its 30 s timeout in CI; the layout and accessibility checks still read
 * the whole page.
 */
const SCREENSHOT_MAX_HEIGHT = 12_000;

export const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Waits until the screen has settled: no request in flight and no "Cargando…" left. */
export async function settle(page) {
  await page.waitForLoadState('networkidle');
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready);
}

/** Elements sticking out of the viewport on the right or left, and text cut by its box. */
async function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw + 1) {
      problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth}px > ${vw}px)`);
    }
    const describe = (el) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.textContent || '').trim().slice(0, 40)}"`;
    // Inside a sideways scroller (the standings table on a narrow phone) sticking out is by design.
    const inScroller = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll') return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('.visually-hidden, .skip-link')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if ((r.right > vw + 1 || r.left < -1) && !inScroller(el)) {
        problems.push(`outside the viewport: ${describe(el)} (${Math.round(r.left)}..${Math.round(r.right)} of ${vw})`);
      }
      const style = getComputedStyle(el);
      const clips = (o) => o === 'hidden' || o === 'clip';
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== '');
      if (hasText && clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`text clipped sideways: ${describe(el)}`);
      }
      if (hasText && clips(style.overflowY) && el.scrollHeight > el.clientHeight + 1) {
        problems.push(`text clipped vertically: ${describe(el)}`);
      }
    }
    return problems;
  });
}

/** Serious and critical axe-core violations of the page as it is now. */
async function accessibilityProblems(page) {
  // Evaluated through the DevTools protocol, so the page's CSP neither blocks it nor reports it.
  const hasAxe = await page.evaluate(() => typeof window.axe !== 'undefined');
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `axe ${v.impact} ${v.id}: ${v.help} at ${v.nodes.join(', ')}`);
}

/**
 * Screenshots the current screen at 1280x800 and 390x844 into test-results/screenshots/ and
 * fails on horizontal overflow, clipped text or a serious/critical accessibility violation.
 */
export async function checkScreen(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const problems = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await settle(page);
    const size = `${viewport.width}x${viewport.height}`;
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const clip = height > SCREENSHOT_MAX_HEIGHT ? { x: 0, y: 0, width: viewport.width, height: SCREENSHOT_MAX_HEIGHT } : undefined;
    await page.screenshot({ path: `${SCREENSHOTS}${name}-${size}.png`, fullPage: true, clip, timeout: 60_000 });
    for (const p of await layoutProblems(page)) problems.push(`${name} ${size}: ${p}`);
    for (const p of await accessibilityProblems(page)) problems.push(`${name} ${size}: ${p}`);
  }
  await page.setViewportSize(VIEWPORTS[0]);
  assert.deepEqual(problems, [], `problems on screen "${name}":\n${problems.join('\n')}`);
}
