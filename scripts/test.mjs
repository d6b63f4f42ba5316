/**
 * `npm test`: every check the project has, in order — typecheck, lint, dependency rules, dead code, formatting, unit + integration (vitest),
 * the official MCP conformance suite's client scenarios (one count per scenario), build, end-to-end
 * (Playwright + Debian Chromium against web mode; Electron specs skip without the binary). Every step runs even when an earlier one failed, so one run shows everything; the last line
 * is the total across all suites, `N passed, N failed, N skipped`, and the exit code is 1 on any failure.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function run(label, command, args) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const status = spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: status === 0, seconds };
}

/** A check without test counts of its own (typecheck, lint, build) counts as one test. */
function check(label, command, args) {
  const { ok, seconds } = run(label, command, args);
  totals[ok ? 'passed' : 'failed'] += 1;
  lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds} s)`);
  return ok;
}

/** Runs checks `parallel` at a time; each prints its output in one piece when it ends; results keep the given order. */
async function runAll(checks, parallel = 2) {
  const outcomes = new Array(checks.length);
  let next = 0;
  async function worker() {
    while (next < checks.length) {
      const index = next++;
      const [label, command, args] = checks[index];
      const started = Date.now();
      const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      const status = await new Promise((resolve) => {
        child.on('error', (error) => {
          output.push(Buffer.from(`${error.message}\n`));
          resolve(1);
        });
        child.on('close', (code) => resolve(code));
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`\n=== ${label} ===`);
      process.stdout.write(Buffer.concat(output));
      outcomes[index] = { label, ok: status === 0, seconds };
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker));
  for (const { label, ok, seconds } of outcomes) {
    totals[ok ? 'passed' : 'failed'] += 1;
    lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${seconds} s)`);
  }
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A suite with its own counts; a runner that crashed before writing them counts as one failure.
 * `failures` names the failed tests: the summary repeats them, because CI keeps only the end of a
 * long log and a count alone does not say what to look at.
 */
function suite(label, command, args, reportFile, count, failures) {
  fs.rmSync(reportFile, { force: true });
  const { ok, seconds } = run(label, command, args);
  const report = readJson(reportFile);
  const counts = report ? count(report) : { passed: 0, failed: 1, skipped: 0 };
  if (!ok && counts.failed === 0) counts.failed = 1; // the runner failed outside any test
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  lines.push(`${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds} s)`);
  // Only when the suite counts failures: a conformance scenario expected to fail is not one.
  if (report && counts.failed > 0) for (const name of failures(report)) lines.push(`  failed: ${name}`);
}

/** Vitest's JSON report (Jest's shape): each failed test as `file › title`. */
function vitestFailures(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${path.relative(root, file.name)} › ${test.fullName}`),
  );
}

/** Playwright's JSON report: each test whose outcome was unexpected, as `file › title`. */
function playwrightFailures(report) {
  const names = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) if (test.status === 'unexpected') names.push(`${spec.file}:${spec.line} › ${spec.title}`);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return names;
}

// The static checks need no test counts and little memory: they run two at a time (`runAll`), each
// one's output printed whole when it ends, which saves about a minute of a CI run on two cores.
await runAll([
  ['typecheck', bin('tsc'), ['-b']],
  // The benchmarks are a project of their own (bundled by bench/lib/as-built.ts when run, not by the build): typecheck them too.
  ['typecheck (bench)', bin('tsc'), ['-p', path.join(root, 'bench', 'tsconfig.json')]],
  ['lint', bin('eslint'), ['.']],
  // The architecture's import rules: layers, area ranks, no cycles (.dependency-cruiser.mjs, docs/architecture.md).
  ['dependency rules', bin('depcruise'), ['--config', '.dependency-cruiser.mjs', 'src-main', 'src-preload', 'src-renderer']],
  // Dead code: unused files, exports and dependencies (knip.jsonc says what is left out, and why).
  ['dead code (knip)', bin('knip'), []],
  // Formatting is a machine's job: any file Prettier would change fails the run (`npm run format` fixes it).
  ['format', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
]);
suite(
  'unit + integration (vitest)',
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile=${path.join(results, 'vitest.json')}`],
  path.join(results, 'vitest.json'),
  (r) => ({
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
  }),
  vitestFailures,
);
suite(
  'MCP conformance (client scenarios)',
  process.execPath,
  [path.join(root, 'scripts', 'conformance.mjs')],
  path.join(results, 'conformance', 'summary.json'),
  (r) => ({
    passed: r.passed,
    failed: r.failed,
    skipped: r.skipped ?? 0,
  }),
  (r) =>
    r.error
      ? [r.error]
      : (r.results ?? [])
          .filter((s) => !s.ok && !s.expected && s.claimed !== false)
          .map((s) => `${s.revision ?? ''} ${s.name}: ${s.failedChecks.join('; ')}`),
);
const built = check('build', bin('electron-vite'), ['build']);
if (built) {
  suite(
    'end-to-end (playwright)',
    bin('playwright'),
    ['test'],
    path.join(results, 'playwright.json'),
    (r) => ({
      passed: r.stats.expected + r.stats.flaky,
      failed: r.stats.unexpected,
      skipped: r.stats.skipped,
    }),
    playwrightFailures,
  );
} else {
  totals.failed += 1;
  lines.push('end-to-end (playwright): not run, the build failed');
}

console.log('\n=== summary ===');
for (const line of lines) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
