/**
 * `npm run deps` (and the "dependency rules" step of `npm test`): the architecture's import rules,
 * checked by dependency-cruiser over src-main, src-preload and src-renderer. Type-only imports count.
 * docs/architecture.md explains the layers and the ranks; keep the two in step.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The host core's areas (folders of src-main/core/) by rank, top first. An area imports only areas of
 * a lower rank: never one of its own rank, never one above. "shared" is the core's loose files
 * (clock.ts, events.ts, bounded-ring.ts…); "host" is the composition root
 * (host.ts, the foundation it stands on, the area shape it lists, and its ports.ts). Derived from the imports (each area one above the highest it imports).
 */
const RANKS = [
  ['host'],
  ['chat', 'mcp-apps', 'prompts'],
  ['resources'],
  ['tools'],
  ['consent', 'guard'],
  ['app', 'audit', 'bundles', 'registry', 'sampling', 'skills'],
  ['context-meter', 'elicitation', 'install', 'logs', 'roots', 'tasks', 'telemetry', 'tool-offers', 'tool-search'],
  ['backup', 'completion', 'llm', 'oauth', 'sandbox', 'server-fleet', 'server-instructions'],
  ['questions', 'server-config', 'servers', 'settings', 'uploads'],
  ['rpc', 'secrets', 'store', 'tool-definition', 'shared'],
];

/** Same-rank imports that are allowed anyway, each with its reason: `[from, to, why]`. None today. */
const SAME_RANK_EXCEPTIONS = [];

const HOST_FILES = ['host.ts', 'host-foundation.ts', 'area.ts', 'ports.ts'];
const core = path.join(import.meta.dirname, 'src-main', 'core');
const ranked = new Set(RANKS.flat());
const unranked = fs
  .readdirSync(core, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !ranked.has(entry.name) && entry.name !== 'test-support')
  .map((entry) => entry.name);
if (unranked.length > 0) {
  throw new Error(
    `src-main/core/${unranked.join(', src-main/core/')} has no rank: add it to RANKS in .dependency-cruiser.mjs (and to the table in docs/architecture.md).`,
  );
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The path pattern of an area's files. */
const areaPath = (area) =>
  area === 'host'
    ? `^src-main/core/(${HOST_FILES.map(escape).join('|')})$`
    : area === 'shared'
      ? `^src-main/core/(?!(${HOST_FILES.map(escape).join('|')})$)[^/]+$`
      : `^src-main/core/${escape(area)}/`;
const either = (patterns) => patterns.map((pattern) => `(${pattern})`).join('|');
const TESTS = '(\\.test\\.tsx?$)|(/test-support/)';

const rankRules = RANKS.flatMap((areas, index) =>
  areas.map((area) => {
    const excepted = new Set(SAME_RANK_EXCEPTIONS.filter(([from]) => from === area).map(([, to]) => to));
    const notBelow = RANKS.slice(0, index + 1)
      .flat()
      .filter((other) => other !== area && !excepted.has(other));
    return {
      name: `rank-${area}`,
      comment: `${area} (rank ${RANKS.length - 1 - index}) imports only areas of a lower rank (docs/architecture.md, "Area ranks")`,
      severity: 'error',
      from: { path: areaPath(area), pathNot: TESTS },
      to: { path: either(notBelow.map(areaPath)) },
    };
  }),
).filter((rule) => rule.to.path !== '');

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included: move the shared piece where both sides can import it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'renderer-through-contract',
      comment: 'The renderer reaches the host through the contract only (src-preload/contract.ts and contract/).',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: { path: '^(src-main/|src-preload/index\\.ts$)' },
    },
    {
      name: 'preload-through-contract',
      comment: 'The preload bridge knows the contract only.',
      severity: 'error',
      from: { path: '^src-preload/index\\.ts$' },
      to: { path: '^(src-main|src-renderer)/' },
    },
    {
      name: 'contract-stands-alone',
      comment: 'The contract imports only itself and packages (no Node: it runs in the renderer too).',
      severity: 'error',
      from: { path: '^src-preload/contract(\\.ts$|/)' },
      to: { path: '^(src-main|src-renderer)/|^src-preload/index\\.ts$' },
    },
    {
      name: 'contract-no-node',
      severity: 'error',
      from: { path: '^src-preload/contract(\\.ts$|/)' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-not-above',
      comment: 'The core sees neither web mode, the desktop logic nor the Electron glue (they sit above it).',
      severity: 'error',
      from: { path: '^src-main/core/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src-main/(web|electron|desktop)/|^src-main/index\\.ts$|^src-renderer/' },
    },
    {
      name: 'web-not-electron',
      comment: 'Web mode stands on the core alone.',
      severity: 'error',
      from: { path: '^src-main/web/' },
      to: { path: '^src-main/(electron|desktop)/|^src-main/index\\.ts$' },
    },
    {
      name: 'host-is-the-top',
      comment: 'core/host.ts is the composition root: nothing in the core imports it but tests.',
      severity: 'error',
      from: { path: '^src-main/core/', pathNot: TESTS },
      to: { path: '^src-main/core/host\\.ts$' },
    },
    {
      name: 'electron-only-in-glue',
      comment: "Only src-main/electron/, src-main/index.ts and the preload bridge import 'electron'.",
      severity: 'error',
      from: { pathNot: '^(src-main/(electron/|index\\.ts$)|src-preload/index\\.ts$)' },
      to: { path: '(^|/)node_modules/electron/' },
    },
    {
      name: 'no-test-support-in-app-code',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { path: '/test-support/' },
    },
    ...rankRules,
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|\\.tsbuild)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
