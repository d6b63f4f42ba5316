import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * Lint, including the dependency rule of ARCHITECTURE.md: the core and web mode never import
 * 'electron'; the renderer never imports Node. (src-main/boundaries.test.ts checks the same by reading
 * the files, so the rule holds even where lint is skipped.)
 */
export default tseslint.config(
  {
    ignores: [
      'out/**',
      '.tsbuild/**',
      '.tmp/**',
      '.cache/**',
      '**/.scratch/**',
      'bench/results/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.electron-native/**',
      'release/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: [
      'src-main/core/**/*.ts',
      'src-main/desktop/**/*.ts',
      'src-main/web/**/*.ts',
      'src-preload/contract.ts',
      'src-preload/contract/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only src-main/electron/ and src-main/index.ts may import electron.' }] },
      ],
    },
  },
  {
    // The composition root makes each area from what the areas made before it give: a closure that
    // names an area made later would be a forward reference (see src-main/core/area.ts).
    files: ['src-main/core/host.ts'],
    rules: { '@typescript-eslint/no-use-before-define': ['error', { functions: false, classes: true, variables: true }] },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The renderer and the contract (compiled into the renderer too) run without Node or electron.
    files: ['src-renderer/**/*.{ts,tsx}', 'src-preload/contract.ts', 'src-preload/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer reaches the host through the contract only.' },
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer runs without Node.' })),
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'scripts/**/*.js', 'e2e/fixtures/**'],
    languageOptions: { globals: globals.node },
  },
);
