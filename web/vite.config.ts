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
    // Times on screen are the device's (src/shared/format.ts); the fixtures' fecha and hora are
    // Argentina's. A zone of its own, away from Argentina's, makes the tests read the same on
    // every machine and fail if a screen writes the server's hora instead of the device's.
    env: { TZ: 'UTC' },
    // These timeouts only bound a hang: on a shared two-core machine under load a test can run
    // several times slower than alone, and a slow test is not a failing one.
    testTimeout: 30_000,
  },
});
