// Prints the gzipped size of the initial JavaScript — the entry chunk plus every chunk it imports
// statically, as Vite's manifest lists them — and fails the build above the budget.
// Lazy chunks (the admin screen) are not counted: players never download them up front.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (entries.length === 0) throw new Error('bundle-size: the manifest has no entry chunk');

const seen = new Set();
const visit = (key) => {
  if (seen.has(key)) return;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) visit(imported);
};
entries.forEach(visit);

let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  const gz = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += gz;
  console.log(`  ${file}  ${(gz / 1024).toFixed(1)} KB gzip`);
}
const kb = (total / 1024).toFixed(1);
console.log(`Initial JavaScript: ${kb} KB gzip (budget ${BUDGET_BYTES / 1024} KB)`);
if (total > BUDGET_BYTES) {
  console.error(`bundle-size: ${kb} KB gzip is over the ${BUDGET_BYTES / 1024} KB budget`);
  process.exit(1);
}
