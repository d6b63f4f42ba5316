import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Unit and integration tests: the core in Node, the renderer's components in jsdom. */
export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time (cores − 1), and most core files wait on
    // real server processes rather than compute: two at a time roughly halves the suite's wall time.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'core',
          environment: 'node',
          include: ['src-main/**/*.test.ts', 'src-preload/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src-renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['src-renderer/test-support/jsdom-gaps.ts'],
        },
      },
    ],
  },
});
