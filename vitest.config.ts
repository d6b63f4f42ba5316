import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** Unit and integration tests: the core in Node, the renderer's components in jsdom. */
export default defineConfig({
  test: {
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
