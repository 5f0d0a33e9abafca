import axe from 'axe-core';

/**
 * axe-core's violations of what is rendered (the e2e suite runs it on real pages in Chromium too).
 * Colour contrast needs a real layout engine: jsdom has none, so that rule is left to the e2e run.
 */
export async function axeViolations(container: Element): Promise<string[]> {
  const results = await axe.run(container, {
    resultTypes: ['violations'],
    rules: { 'color-contrast': { enabled: false } },
  });
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.html).join(', ')})`);
}
