import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

/**
 * One build produces everything: the Electron main entry and the web-mode entry (both from src-main,
 * sharing the core), the sandboxed preload (CommonJS, as sandboxed preloads must be), and the renderer
 * (minified, split at every dynamic `import()`: what the first paint does not need is its own chunk).
 */
/** `@contract` is the typed IPC contract (tsconfig.base.json's path alias): main, preload and renderer import it. */
const resolveContract = { alias: { '@contract': resolve(__dirname, 'src-preload/contract.ts') } };

export default defineConfig({
  main: {
    resolve: resolveContract,
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/index.ts'),
          web: resolve(__dirname, 'src-main/web/cli.ts'),
        },
      },
    },
  },
  preload: {
    resolve: resolveContract,
    build: {
      outDir: 'out/preload',
      // Sandboxed preloads cannot require npm packages at run time: bundle zod in.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    resolve: resolveContract,
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves the renderer unminified; it is also served to browsers (web mode), and the
      // first paint waits for every byte of the entry chunk.
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
