import { readdirSync } from 'node:fs';
import { defineConfig, globalIgnores } from 'eslint/config';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// Who is signed in and which tournament is shown: every screen needs them, so any feature may use
// these two through their entry. The other features are screens and never import each other.
const foundations = ['session', 'tournaments'];
const screens = features.filter((name) => !foundations.includes(name));
const folder = (name) => `./src/features/${name}`;
const others = (name, among) => among.filter((other) => other !== name).map(folder);

/** Which folder may import which (paths from this file's folder). */
const boundaries = [
  {
    target: ['./src/shared', './src/test'],
    from: ['./src/features', './src/app'],
    message: 'shared/ and test/ are below every feature: move what both need down, or compose in src/app/.',
  },
  {
    target: './src/features',
    from: './src/app',
    message: 'A feature never imports src/app/: the app composes features, not the other way round.',
  },
  ...features.map((name) => ({
    target: ['./src/app', ...others(name, features)],
    from: folder(name),
    except: ['./index.ts'],
    message: `Import the ${name} feature through its entry, src/features/${name}/index.ts.`,
  })),
  ...screens.map((name) => ({
    target: folder(name),
    from: others(name, screens),
    message: 'A screen feature never imports another: compose them in src/app/.',
  })),
  ...foundations.map((name) => ({
    target: folder(name),
    from: screens.map(folder),
    message: `${name} is used by the screens, so it imports none of them.`,
  })),
];

export default defineConfig([
  globalIgnores(['dist/', 'test-results/', 'src/shared/api/schema.d.ts']),
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  // `const { a, ...rest } = x` is how a copy without `a` is made: `a` is meant to go unused.
  {
    files: ['**/*.{js,mjs}'],
    rules: { 'no-unused-vars': ['error', { ignoreRestSiblings: true }] },
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without a resolver that knows .ts and .tsx, imports go unresolved and unchecked.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaries }],
    },
  },
  {
    files: ['*.{js,ts}', 'scripts/**', 'e2e/**'],
    languageOptions: { globals: globals.node },
  },
  {
    // Callbacks given to page.evaluate run in the browser.
    files: ['e2e/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
]);
