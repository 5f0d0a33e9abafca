import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    // The manifest lets scripts/bundle-size.mjs measure the entry chunk and its static imports.
    manifest: true,
    // Flags and the logo stay separate files: inlined as data: URLs they would weigh on the
    // initial JavaScript, and only a handful of flags show on any screen.
    assetsInlineLimit: 0,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
