/** Flags of `npm run bench` and the sample plan they produce. */
import { parseArgs } from 'node:util';
import type { PlanSizes } from './report';
import type { Scenario, Task } from './wire';

export const USAGE = `Usage: npm run bench -- [--runs N] [--quick] [--light] [--only LIST] [--host-start launch|add]
                       [--no-build] [--no-quiet-gate] [--profile] [--verbose] [--out FILE]

  --runs N        runs per arm (default 3; --quick: 1)
  --quick         smoke run: at most 10 servers per scenario
  --light         echo.mjs instead of server-everything for the fleets
  --only LIST     comma-separated subset of: ready,ui,quit,big (memory and the start stall come from ready)
  --host-start    launch: startServers() on a host with N enabled configs (default);
                  add: N addServer calls through dispatchCall, as the UI would
  --no-build      use out/main/web.js as it is (default: npx electron-vite build first)
  --no-quiet-gate do not wait (≤ 15 s per sample, 150 s per run) for the shared box's CPUs to be
                  < 25 % busy before each sample
  --profile       write .cpuprofile files of the host-arm workers to bench/results/profiles/
  --verbose       pass the workers' stderr through
  --out FILE      JSON results (default bench/results/latest.json)`;

export interface Options {
  runs: number;
  quick: boolean;
  light: boolean;
  only: Set<Scenario>;
  hostStart: 'launch' | 'add';
  build: boolean;
  quietGate: boolean;
  profile: boolean;
  verbose: boolean;
  out: string;
  sizes: PlanSizes;
}

const SCENARIOS: Scenario[] = ['ready', 'ui', 'quit', 'big'];

export function parseOptions(argv: string[]): Options | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string' },
      quick: { type: 'boolean', default: false },
      light: { type: 'boolean', default: false },
      only: { type: 'string' },
      'host-start': { type: 'string', default: 'launch' },
      'no-build': { type: 'boolean', default: false },
      'no-quiet-gate': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results/latest.json' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const runs = values.runs === undefined ? (values.quick ? 1 : 3) : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
  const only = new Set((values.only?.split(',') ?? SCENARIOS).map((s) => s.trim()) as Scenario[]);
  for (const s of only) if (!SCENARIOS.includes(s)) throw new Error(`--only: unknown scenario "${s}"`);
  const hostStart = values['host-start'];
  if (hostStart !== 'launch' && hostStart !== 'add') throw new Error('--host-start must be launch or add');
  const sizes: PlanSizes = values.quick
    ? { readyNs: [1, 10], memN: 10, stallN: 10, quitN: 10, uiN: 10 }
    : { readyNs: [1, 10, 25, 50], memN: 50, stallN: 25, quitN: 50, uiN: 50 };
  return {
    runs,
    quick: values.quick,
    light: values.light,
    only,
    hostStart,
    build: !values['no-build'],
    quietGate: !values['no-quiet-gate'],
    profile: values.profile,
    verbose: values.verbose,
    out: values.out,
    sizes,
  };
}

/**
 * Every sample, in execution order: run by run, scenario by scenario, and within each the two arms
 * back to back (A then B), so each A/B pair is measured minutes apart at most: ABAB….
 */
export function plan(o: Options): Task[] {
  const tasks: Task[] = [];
  const base = { light: o.light, hostStart: o.hostStart };
  for (let run = 1; run <= o.runs; run++) {
    const per: { scenario: Scenario; n: number }[] = [];
    if (o.only.has('ready')) for (const n of o.sizes.readyNs) per.push({ scenario: 'ready', n });
    if (o.only.has('ui')) per.push({ scenario: 'ui', n: o.sizes.uiN });
    if (o.only.has('quit')) per.push({ scenario: 'quit', n: o.sizes.quitN });
    if (o.only.has('big')) per.push({ scenario: 'big', n: 1 });
    for (const p of per) for (const arm of ['host', 'sdk'] as const) tasks.push({ ...base, ...p, arm, run });
  }
  return tasks;
}
