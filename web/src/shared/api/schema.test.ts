import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The web app's types come from the backend's contract: when openapi.yaml changes, `npm run gen:api`
// must be run and its output committed, or this test fails.
describe('schema.d.ts', () => {
  it('is what `npm run gen:api` generates from the current openapi.yaml', () => {
    const web = resolve(__dirname, '../../..');
    const out = join(mkdtempSync(join(tmpdir(), 'prode-schema-')), 'schema.d.ts');
    execFileSync(
      process.execPath,
      [join(web, 'node_modules/openapi-typescript/bin/cli.js'), '../services/platform/contract/openapi.yaml', '-o', out],
      { cwd: web, stdio: 'pipe' },
    );
    const committed = readFileSync(join(web, 'src/shared/api/schema.d.ts'), 'utf8');
    expect(readFileSync(out, 'utf8')).toBe(committed);
  }, 30_000);
});
