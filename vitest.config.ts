import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `@contract` is the typed IPC contract (tsconfig.base.json's path alias), in both projects. */
const resolve = { alias: { '@contract': fileURLToPath(new URL('./src-preload/contract.ts', import.meta.url)) } };

/** Unit and integration tests: the core in Node, the renderer's components in jsdom. */
export default defineConfig({
  test: {
    // Vitest's default on two cores is one file at a time (cores − 1), and most core files wait on
    // real server processes rather than compute: two at a time roughly halves the suite's wall time.
    maxWorkers: 2,
    projects: [
      {
        resolve,
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
        resolve,
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src-renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['src-renderer/test-support/jsdom-gaps.ts', 'src-renderer/test-support/wait-time.ts'],
          // Components wait on conditions (findBy…); on a busy two-core box a Radix list can take over 5 s to render.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
