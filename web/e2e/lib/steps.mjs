// A suite's steps build on each other: once one fails, the later ones are skipped, since they
// would only fail again for the same reason and hide the first failure.
import { it } from 'node:test';

/** A `step(name, fn)` for one suite: a test of up to 3 minutes, skipped after a failed step. */
export function stepsInOrder() {
  let failed = false;
  return (name, fn) =>
    it(name, { timeout: 3 * 60_000 }, async (t) => {
      if (failed) return t.skip('an earlier step failed');
      try {
        await fn();
      } catch (error) {
        failed = true;
        throw error;
      }
    });
}
