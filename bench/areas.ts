/**
 * The per-area benchmarks of `npm run bench` (after the fleet scenarios of run.ts): tool-call routing
 * against the bare SDK on the same echo server, the 10 MB result's capped preview, persisting a
 * streamed chat message against a bare insert, appending 100,000 log entries, and the chat UI in web
 * mode (opening a 100,000-message conversation, long tasks while scrolling 10,000; scenarios/chat-ui.ts;
 * --quick: 20,000 and 2,000), the Resources tab (10,000 resources listed to a painted page, a 10 MB
 * read to a painted preview, long tasks while scrolling; scenarios/resources-ui.ts), a remote server
 * over Streamable HTTP (scenarios/remote.ts), a server flooding notifications for 10 s against the
 * same call without the flood (scenarios/flood.ts), and a streamed answer from an OpenAI-compatible
 * endpoint through the core and the renderer against the bare `openai` SDK (scenarios/openai-stream.ts), and tool search
 * (tool definitions in the first request with search on and off, the index, a search round; scenarios/tool-search.ts), and the
 * host thread's worst stall during the context meter's first count (tokenizer worker vs in-process encoder), and the content
 * scanner (MB/s over 10 MB, the event loop meanwhile, what a scan adds to a call; scenarios/scanner.ts), and skills (a turn
 * loading one against the same turn with it inlined, listing 5,000; scenarios/skills.ts). Arms alternate
 * (A B A B …) and each metric prints both absolute values, the ratio, its target and PASS/MISS.
 */
import './lib/as-built-entry';
import path from 'node:path';
import { measureMessagePersistence } from './lib/chat-persistence';
import { benchLogAppend } from './lib/log-append';
import { countingListenerWarnings } from './lib/listener-warnings';
import { hostToolArm, measureBigPreview, measureCalls, sdkToolArm, type CallStats } from './lib/tool-arms';
import { REPO } from './lib/servers';
import { measureFirstCountStall } from './lib/tokenizer-stall';
import { benchRuleEvaluation } from './lib/rule-evaluation';
import { runChatUi, SCROLL_TOLERANCE } from './scenarios/chat-ui';
import { runFirstPaint } from './scenarios/first-paint';
import { percentile, runFlood } from './scenarios/flood';
import { FIRST_TOKEN_MS, runOpenAiStream, TOKEN_MS } from './scenarios/openai-stream';
import { runRemote } from './scenarios/remote';
import { runResourcesUi } from './scenarios/resources-ui';
import { runToolSearch } from './scenarios/tool-search';
import { runSkills } from './scenarios/skills';
import { runScanner } from './scenarios/scanner';
import { runSandbox } from './scenarios/sandbox';
import { runToolListsUi, TOOL_LIST_METRICS } from './scenarios/tool-lists-ui';

const quick = process.argv.includes('--quick');
const rounds = quick ? 1 : 3;
const fixture = (name: string) => ({ command: process.execPath, args: [path.join(REPO, 'e2e', 'fixtures', name)] });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows: string[][] = [];

function report(metric: string, host: number, base: number, unit: string, target: string, pass: boolean) {
  rows.push([
    metric,
    `${host.toFixed(3)} ${unit}`,
    `${base.toFixed(3)} ${unit}`,
    `${(host / base).toFixed(2)}×`,
    target,
    pass ? 'PASS' : 'MISS',
  ]);
}

async function toolRouting() {
  const host: CallStats[] = [];
  const sdk: CallStats[] = [];
  const warnings = { host: 0, sdk: 0 };
  const calls = quick ? 500 : 2000;
  const warmup = quick ? 1000 : 5000;
  // Throughput over ≈ 1 s per arm rather than the 60–100 ms of 2,000 calls (see measureCalls).
  const concurrentCalls = quick ? 2000 : 20_000;
  for (let round = 0; round < rounds; round++) {
    const hostArm = await hostToolArm(fixture('echo.mjs'), ['echo']);
    const hostRun = await countingListenerWarnings(() =>
      measureCalls(() => hostArm.call('echo', { message: 'hi' }), { calls, warmup, concurrentCalls }),
    );
    host.push(hostRun.value);
    warnings.host += hostRun.warnings;
    await hostArm.dispose();
    const sdkArm = await sdkToolArm(fixture('echo.mjs'));
    const sdkRun = await countingListenerWarnings(() =>
      measureCalls(() => sdkArm.call('echo', { message: 'hi' }), { calls, warmup, concurrentCalls }),
    );
    sdk.push(sdkRun.value);
    warnings.sdk += sdkRun.warnings;
    await sdkArm.dispose();
  }
  const m = (list: CallStats[], key: keyof CallStats) => median(list.map((s) => s[key] as number));
  report('tool call p50', m(host, 'p50Ms'), m(sdk, 'p50Ms'), 'ms', '≤ 1.25×', m(host, 'p50Ms') <= 1.25 * m(sdk, 'p50Ms'));
  toolCallP50Ms = m(host, 'p50Ms');
  report('tool call p95', m(host, 'p95Ms'), m(sdk, 'p95Ms'), 'ms', '≤ 1.5×', m(host, 'p95Ms') <= 1.5 * m(sdk, 'p95Ms'));
  report(
    'host CPU per call',
    m(host, 'cpuUsPerCall'),
    m(sdk, 'cpuUsPerCall'),
    'µs',
    '≤ 1.5×',
    m(host, 'cpuUsPerCall') <= 1.5 * m(sdk, 'cpuUsPerCall'),
  );
  report(
    'throughput, 32 in flight',
    m(host, 'throughput'),
    m(sdk, 'throughput'),
    'calls/s',
    '≥ 0.8×',
    m(host, 'throughput') >= 0.8 * m(sdk, 'throughput'),
  );
  // The first round's warm-up: a fresh process, its code compiled as it runs (not a per-call cost).
  const first = (list: CallStats[]) => list[0].warmup;
  report(`  first ${warmup} calls in the process: p50`, first(host).p50Ms, first(sdk).p50Ms, 'ms', 'info', true);
  rows[rows.length - 1][5] = 'info';
  report(`  first ${warmup} calls in the process: CPU per call`, first(host).cpuUsPerCall, first(sdk).cpuUsPerCall, 'µs', 'info', true);
  rows[rows.length - 1][5] = 'info';
  listenerWarningsRow('  abort-listener warnings', warnings);
}

async function bigResultPreview() {
  const host: number[] = [];
  const sdk: number[] = [];
  let frameBytes = 0;
  for (let round = 0; round < rounds; round++) {
    const hostArm = await hostToolArm(fixture('big-result.mjs'), []);
    const measured = await measureBigPreview(() => hostArm.runTool('big', {}));
    host.push(measured.ms);
    frameBytes = measured.frameBytes;
    await hostArm.dispose();
    const sdkArm = await sdkToolArm(fixture('big-result.mjs'));
    sdk.push((await measureBigPreview(() => sdkArm.call('big', {}))).ms);
    await sdkArm.dispose();
  }
  report('10 MB result → renderer preview', median(host), median(sdk), 'ms', '≤ 1.5×', median(host) <= 1.5 * median(sdk));
  rows.push([
    '  preview frame over the bridge',
    `${(frameBytes / 1024).toFixed(0)} KB`,
    '10 MB result',
    '',
    '≈ 100 KB, never 10 MB',
    frameBytes < 200_000 ? 'PASS' : 'MISS',
  ]);
}

async function chatPersistence() {
  // A fresh temp dir of its own (removed afterwards): a shared `/tmp/app` may hold another build's schema.
  const result = await measureMessagePersistence({ samples: quick ? 10 : 30 });
  report('persist a streamed message', result.streamedMessageMs, result.bareInsertMs, 'ms', '≤ 3× bare insert', result.ratio <= 3);
  rows.push([
    '  longest single write',
    `${result.worstBlockMs.toFixed(2)} ms`,
    '',
    '',
    '≤ 5 ms',
    result.worstBlockMs <= 5 ? 'PASS' : 'MISS',
  ]);
}

async function logAppend() {
  const result = await benchLogAppend(100_000);
  rows.push([
    'append 100,000 log entries',
    `${result.appendMs.toFixed(0)} ms`,
    '',
    '',
    `${result.perEntryUs.toFixed(2)} µs/entry; ${result.persistedRows.toLocaleString('en-US')} rows saved in ${result.persistMs.toFixed(0)} ms (a flood's excess is counted)`,
    'info',
  ]);
}

async function chatUi() {
  const openMessages = quick ? 20_000 : 100_000;
  const scrollMessages = quick ? 2_000 : 10_000;
  const fmt = (n: number) => n.toLocaleString('en-US');
  let result: Awaited<ReturnType<typeof runChatUi>>;
  try {
    result = await runChatUi({ rounds, openMessages, scrollMessages });
  } catch (error) {
    notMeasured('chat UI (web mode, Chromium)', error);
    return;
  }
  const openLarge = median(result.open.large.map((s) => s.ms));
  const openBase = median(result.open.baseline.map((s) => s.ms));
  const shown = [...result.open.large, ...result.open.baseline].every((s) => s.newestShown);
  report(`open ${fmt(openMessages)}-msg chat → painted`, openLarge, openBase, 'ms', '≤ 100 ms (vs 100 msgs)', openLarge <= 100 && shown);
  if (!shown) rows.push(['  newest message on screen at the mark', 'no', '', '', 'yes', 'MISS']);
  const tasksLarge = median(result.scroll.large.map((s) => s.longTasks));
  const tasksBase = median(result.scroll.baseline.map((s) => s.longTasks));
  const px = (list: { scrolledPx: number }[]) => median(list.map((s) => s.scrolledPx));
  rows.push([
    `long tasks, scrolling ${fmt(scrollMessages)} msgs`,
    `${tasksLarge} (${median(result.scroll.large.map((s) => s.longTaskMs)).toFixed(0)} ms, ${px(result.scroll.large)} px)`,
    `${tasksBase} (${median(result.scroll.baseline.map((s) => s.longTaskMs)).toFixed(0)} ms, ${px(result.scroll.baseline)} px)`,
    '',
    `≤ 100 msgs + ${SCROLL_TOLERANCE}`,
    tasksLarge <= tasksBase + SCROLL_TOLERANCE ? 'PASS' : 'MISS',
  ]);
  if (result.leftovers > 0) rows.push(['  web host processes killed by force', String(result.leftovers), '', '', '0', 'MISS']);
}

async function resourcesUi() {
  let result: Awaited<ReturnType<typeof runResourcesUi>>;
  try {
    result = await runResourcesUi({ rounds });
  } catch (error) {
    notMeasured('resources UI (web mode, Chromium)', error);
    return;
  }
  const { listMs, readMs, scroll } = result;
  report(
    'list 10,000 resources → painted page',
    median(listMs.host),
    median(listMs.sdk),
    'ms',
    '≤ 1.5× SDK list loop',
    median(listMs.host) <= 1.5 * median(listMs.sdk),
  );
  report(
    'read 10 MB text → painted preview',
    median(readMs.host),
    median(readMs.sdk),
    'ms',
    '≤ 1.5× SDK readResource',
    median(readMs.host) <= 1.5 * median(readMs.sdk),
  );
  const worst = Math.max(...scroll.map((s) => s.worstTaskMs));
  rows.push([
    'worst long task, scrolling 10,000 resources',
    `${worst.toFixed(0)} ms (${median(scroll.map((s) => s.longTasks))} long tasks, ${median(scroll.map((s) => s.scrolledPx))} px)`,
    '',
    '',
    '< 100 ms',
    worst < 100 ? 'PASS' : 'MISS',
  ]);
  if (result.leftovers > 0) rows.push(['  web host processes killed by force', String(result.leftovers), '', '', '0', 'MISS']);
}

async function remoteServer() {
  const warmup = quick ? 100 : 500;
  const result = await runRemote({ rounds, connects: quick ? 5 : 15, calls: quick ? 300 : 1000, warmup });
  report(
    'remote: start → ready (HTTP, warm)',
    median(result.connectMs.host),
    median(result.connectMs.sdk),
    'ms',
    '≤ 1.5×',
    median(result.connectMs.host) <= 1.5 * median(result.connectMs.sdk),
  );
  rows.push(['  first connect in a fresh host', `${median(result.firstMs).toFixed(1)} ms`, '', '', 'cold code, version probe', 'info']);
  const m = (list: CallStats[], key: keyof CallStats) => median(list.map((s) => s[key] as number));
  const { host, sdk } = result.calls;
  report('remote: tool call p50 (HTTP)', m(host, 'p50Ms'), m(sdk, 'p50Ms'), 'ms', '≤ 1.25×', m(host, 'p50Ms') <= 1.25 * m(sdk, 'p50Ms'));
  report(
    'remote: throughput, 16 in flight',
    m(host, 'throughput'),
    m(sdk, 'throughput'),
    'calls/s',
    '≥ 0.8×',
    m(host, 'throughput') >= 0.8 * m(sdk, 'throughput'),
  );
  report(`  first ${warmup} calls on the connection: p50`, host[0].warmup.p50Ms, sdk[0].warmup.p50Ms, 'ms', 'info', true);
  rows[rows.length - 1][5] = 'info';
  listenerWarningsRow('remote: abort-listener warnings', result.listenerWarnings);
}

/** Node's listener-leak warnings while each arm's calls ran (counted, not printed: see listener-warnings.ts). */
function listenerWarningsRow(metric: string, counts: { host: number; sdk: number }) {
  rows.push([metric, String(counts.host), `${counts.sdk} (bare SDK)`, '', 'host = 0', counts.host === 0 ? 'PASS' : 'MISS']);
}

async function notificationFlood() {
  const seconds = quick ? 3 : 10;
  const result = runFlood({ rounds, seconds });
  const m = (arm: 'flood' | 'quiet', pick: (s: (typeof result)['flood'][number]) => number) => median(result[arm].map(pick));
  const rss = (arm: 'flood' | 'quiet') => m(arm, (s) => s.rssGrowthMB);
  report(`flood ${seconds} s: host RSS growth`, rss('flood'), rss('quiet'), 'MB', '< 50 MB', rss('flood') < 50);
  const delay = (arm: 'flood' | 'quiet') => m(arm, (s) => s.responseDelayMs);
  report('flood: its response after the flood', delay('flood'), delay('quiet'), 'ms', '< 1000 ms', delay('flood') < 1000);
  const p50 = (arm: 'flood' | 'quiet') => m(arm, (s) => percentile(s.echoMs, 0.5));
  const p95 = (arm: 'flood' | 'quiet') => m(arm, (s) => percentile(s.echoMs, 0.95));
  report('flood: other server call p50', p50('flood'), p50('quiet'), 'ms', '≤ 3× (CPU shared)', p50('flood') <= 3 * p50('quiet'));
  report('flood: other server call p95', p95('flood'), p95('quiet'), 'ms', 'info', true);
  rows[rows.length - 1][5] = 'info';
  const sent = m('flood', (s) => s.sent);
  rows.push([
    '  notifications sent by the flood',
    `${Math.round(sent / seconds).toLocaleString('en-US')}/s`,
    '',
    '',
    `heap kept after GC ${m('flood', (s) => s.heapKeptMB).toFixed(1)} MB; drop entries ${m('flood', (s) => s.dropEntries.length)}`,
    'info',
  ]);
}

async function openAiStream() {
  let result: Awaited<ReturnType<typeof runOpenAiStream>>;
  try {
    result = await runOpenAiStream({ rounds, tokens: quick ? 100 : 200 });
  } catch (error) {
    notMeasured('OpenAI-compatible stream', error);
    return;
  }
  const m = (
    list: { firstTokenMs: number; perTokenMs: number; cpuUsPerToken?: number }[],
    key: 'firstTokenMs' | 'perTokenMs' | 'cpuUsPerToken',
  ) => median(list.map((s) => s[key] ?? 0));
  const { bare, host, renderer } = result;
  rows.push(['OpenAI-compatible stream', '', '', '', `server: ${FIRST_TOKEN_MS} ms, then ${TOKEN_MS} ms/token × ${result.tokens}`, 'info']);
  report(
    '  time to first token (core)',
    m(host, 'firstTokenMs'),
    m(bare, 'firstTokenMs'),
    'ms',
    '≤ 1.1×',
    m(host, 'firstTokenMs') <= 1.1 * m(bare, 'firstTokenMs'),
  );
  report(
    '  per token (core)',
    m(host, 'perTokenMs'),
    m(bare, 'perTokenMs'),
    'ms',
    '≤ 1.1×',
    m(host, 'perTokenMs') <= 1.1 * m(bare, 'perTokenMs'),
  );
  report('  CPU per token (core)', m(host, 'cpuUsPerToken'), m(bare, 'cpuUsPerToken'), 'µs', 'info', true);
  rows[rows.length - 1][5] = 'info';
  if (renderer.length > 0) {
    report(
      '  first token painted (renderer)',
      m(renderer, 'firstTokenMs'),
      m(bare, 'firstTokenMs'),
      'ms',
      '≤ 1.1×',
      m(renderer, 'firstTokenMs') <= 1.1 * m(bare, 'firstTokenMs'),
    );
    report(
      '  per token painted (renderer)',
      m(renderer, 'perTokenMs'),
      m(bare, 'perTokenMs'),
      'ms',
      '≤ 1.1×',
      m(renderer, 'perTokenMs') <= 1.1 * m(bare, 'perTokenMs'),
    );
  } else rows.push(['  painted (renderer)', 'not measured', '', '', result.rendererError ?? '', 'MISS']);
}

/** The renderer's first paint: the bytes it waits for (from the build and in the browser) and its time. */
async function firstPaint() {
  let result: Awaited<ReturnType<typeof runFirstPaint>>;
  try {
    result = await runFirstPaint({ rounds });
  } catch (error) {
    notMeasured('renderer first paint (web mode)', error);
    return;
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const { samples } = result;
  rows.push([
    'first-paint bundle (JS + CSS)',
    kb(result.initialBytes),
    `${kb(result.totalBytes)} all chunks`,
    `${(result.initialBytes / result.totalBytes).toFixed(2)}×`,
    '≤ 1 MB (one bundle: ~2.2 MB)',
    result.initialBytes <= 1024 * 1024 ? 'PASS' : 'MISS',
  ]);
  rows.push(['  fetched before first paint', kb(median(samples.map((s) => s.bytesBeforePaint))), '', '', 'browser, cold cache', 'info']);
  rows.push(['  first contentful paint', `${median(samples.map((s) => s.fcpMs)).toFixed(0)} ms`, '', '', 'from navigation start', 'info']);
  rows.push([
    '  shell navigation in the DOM',
    `${median(samples.map((s) => s.shellMs)).toFixed(0)} ms`,
    '',
    '',
    'from navigation start',
    'info',
  ]);
  if (result.leftovers > 0) rows.push(['  web host processes killed by force', String(result.leftovers), '', '', '0', 'MISS']);
}

/** Tool search: tool definitions in the first request, search On against Off; the index; a search round's cost. */
async function toolSearch() {
  let result: Awaited<ReturnType<typeof runToolSearch>>;
  try {
    result = await runToolSearch({ rounds, quick });
  } catch (error) {
    notMeasured('tool search', error);
    return;
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const fleet of result.fleets) {
    const { off, on } = fleet;
    rows.push([
      `tool search: ${fleet.label}, first request's tools`,
      `${kb(on.bytes)}, ≈ ${on.tokens.toLocaleString('en-US')} tokens (${on.tools} tools)`,
      `off: ${kb(off.bytes)}, ≈ ${off.tokens.toLocaleString('en-US')} tokens (${off.tools} tools)`,
      `${(on.bytes / off.bytes).toFixed(3)}×`,
      '≤ 8 KB with search on',
      on.bytes <= 8 * 1024 ? 'PASS' : 'MISS',
    ]);
    const all = on.bytes + on.systemBytes;
    if (fleet.instructionsOn) {
      // Issue #38 item 6: "hello" goes out with ≤ 6 KB of system prompt and tool definitions together (before: ≈ 21 KB).
      const lit = fleet.instructionsOn;
      rows.push([
        `  "hello", ${fleet.label}: system prompt + tools`,
        `${kb(all)} (system ${kb(on.systemBytes)})`,
        `instructions all on: ${kb(lit.on.bytes + lit.on.systemBytes)}; and search off: system ${kb(lit.off.systemBytes)}`,
        '',
        '≤ 6 KB',
        all <= 6 * 1024 ? 'PASS' : 'MISS',
      ]);
    }
  }
  const build = median(result.buildMs);
  const buildCpu = median(result.buildCpuMs);
  rows.push([
    `  index build, ${result.indexTools} tools`,
    `${build.toFixed(1)} ms`,
    `CPU ${buildCpu.toFixed(1)} ms`,
    '',
    '≤ 50 ms',
    build <= 50 ? 'PASS' : 'MISS',
  ]);
  rows.push([
    '  search latency p95',
    `${result.searchP95Ms.toFixed(2)} ms`,
    `CPU ${result.searchCpuP95Ms.toFixed(2)} ms`,
    '',
    '≤ 5 ms',
    result.searchP95Ms <= 5 ? 'PASS' : 'MISS',
  ]);
  rows.push(['  index heap per 1,000 tools', `${result.heapPer1000ToolsKB.toFixed(0)} KB`, '', '', 'after GC', 'info']);
  const upFront = median(result.upFrontMs);
  const searched = median(result.searchedMs);
  rows.push([
    '  turn with a search round (12× everything)',
    `${searched.toFixed(1)} ms`,
    `up front: ${upFront.toFixed(1)} ms`,
    `${searched >= upFront ? '+' : '−'}${Math.abs(searched - upFront).toFixed(1)} ms`,
    'one more model round (local scripted endpoint)',
    'info',
  ]);
}

/** The context meter's first count: the host thread's worst stall, tokenizer worker vs the encoder built on that thread. */
async function tokenizerFirstCount() {
  const { worker, inProcess, idleStallMs } = await measureFirstCountStall();
  const target = inProcess.stallMs / 4;
  report('context meter first count: main-thread stall', worker.stallMs, inProcess.stallMs, 'ms', '≤ 0.25×', worker.stallMs <= target);
  rows.push(['  same window, idle (machine load)', `${idleStallMs.toFixed(3)} ms`, '', '', 'info', 'info']);
  report('  first count done', worker.countMs, inProcess.countMs, 'ms', 'info', true);
  rows[rows.length - 1][5] = 'info';
}

/** A server in its bubblewrap sandbox against the same server without one (issue #31). */
async function sandboxedServer() {
  let result: Awaited<ReturnType<typeof runSandbox>>;
  try {
    result = await runSandbox({ rounds: quick ? 1 : 3 });
  } catch (error) {
    notMeasured('sandboxed server (bubblewrap)', error);
    return;
  }
  const m = (arm: 'sandboxed' | 'proxied' | 'plain', key: 'startMs' | 'callP50Ms' | 'groupRssKb' | 'groupPssKb') =>
    median(result[arm].map((s) => s[key]));
  for (const [arm, title, note] of [
    ['sandboxed', 'Sandboxed server vs the same unsandboxed', 'server-everything, network blocked'],
    ['proxied', 'Sandboxed, network allowed through the proxy, vs unsandboxed', 'server-everything, own network + relay'],
  ] as const) {
    rows.push([title, '', '', '', note, 'info']);
    report('  start → ready', m(arm, 'startMs'), m('plain', 'startMs'), 'ms', '≤ 1.3×', m(arm, 'startMs') <= 1.3 * m('plain', 'startMs'));
    report(
      '  tool-call p50',
      m(arm, 'callP50Ms'),
      m('plain', 'callP50Ms'),
      'ms',
      '≤ 1.1×',
      m(arm, 'callP50Ms') <= 1.1 * m('plain', 'callP50Ms'),
    );
    const added = (key: 'groupRssKb' | 'groupPssKb') => ((m(arm, key) - m('plain', key)) / 1024).toFixed(1);
    rows.push([
      '  memory added per server (process group RSS · PSS)',
      `${added('groupRssKb')} · ${added('groupPssKb')} MB`,
      '',
      '',
      arm === 'proxied' ? 'bubblewrap + its init + the relay' : 'bubblewrap + its init',
      'info',
    ]);
  }
}

/** The guard's rules: `judge` per call with 100 rules, against the same guard without rules (issue #38). */
async function ruleEvaluation() {
  const result = await benchRuleEvaluation({ quick });
  report(`rule evaluation per call, ${result.rules} rules: p50`, result.p50Ms, result.baselineP50Ms, 'ms', '≤ 0.2 ms', result.p50Ms <= 0.2);
  report('  p95', result.p95Ms, result.baselineP95Ms, 'ms', 'info', true);
  rows[rows.length - 1][5] = 'info';
}

/** The host's tool call p50 of this run (the `tools` area), the base the scanner's cost is put against. */
let toolCallP50Ms: number | undefined;

/** The content scanner: throughput over 10 MB, the event loop meanwhile, and what a scan adds to a call's p50. */
async function contentScanner() {
  let result: Awaited<ReturnType<typeof runScanner>>;
  try {
    result = await runScanner({ rounds });
  } catch (error) {
    notMeasured('content scanner', error);
    return;
  }
  const mbs = median(result.mbPerSecond);
  rows.push(['content scanner: 10 MB result', `${mbs.toFixed(1)} MB/s`, '', '', '≥ 10 MB/s', mbs >= 10 ? 'PASS' : 'MISS']);
  const stall = median(result.longestStallMs);
  rows.push(['  longest event-loop wait while scanning', `${stall.toFixed(1)} ms`, '', '', '≤ 50 ms', stall <= 50 ? 'PASS' : 'MISS']);
  const base = toolCallP50Ms;
  const share = (ms: number) => (base ? `${((ms / base) * 100).toFixed(1)}% of the call p50 (${base.toFixed(2)} ms)` : '');
  rows.push([
    '  added to a tool call p50 (small result)',
    `${result.smallP50Ms.toFixed(3)} ms`,
    share(result.smallP50Ms),
    '',
    '≤ 5% of a call',
    !base || result.smallP50Ms <= 0.05 * base ? 'PASS' : 'MISS',
  ]);
  rows.push([
    '  added to a tool call p50 (50 KB result)',
    `${result.mediumP50Ms.toFixed(2)} ms`,
    share(result.mediumP50Ms),
    '',
    'info',
    'info',
  ]);
}

/** Issue 41's screens at 30 servers / 2,010 tools, against one server of 40 tools in the same run. */
async function toolListsUi() {
  let result: Awaited<ReturnType<typeof runToolListsUi>>;
  try {
    result = await runToolListsUi({ rounds });
  } catch (error) {
    notMeasured('tool lists UI (web mode, Chromium)', error);
    return;
  }
  const labels: Record<(typeof TOOL_LIST_METRICS)[number], [string, number | undefined]> = {
    servers: ['Servers page painted, 30 servers', undefined],
    filter: ['Search servers keystroke → painted', 50],
    toolsTab: ['Tools tab painted (67 tools of 2,010)', undefined],
    picker: ['chat tool picker opened, 2,010 tools', undefined],
    toolSearch: ['Search tools keystroke → painted (picker)', 50],
  };
  for (const key of TOOL_LIST_METRICS) {
    const [label, absolute] = labels[key];
    const large = median(result.large[key]);
    const base = median(result.baseline[key]);
    // With a target in the issue, that target; else within 3× of one server's 40 tools (the list is virtualised).
    report(label, large, base, 'ms', absolute ? `≤ ${absolute} ms` : '≤ 3× one server', absolute ? large <= absolute : large <= 3 * base);
  }
  rows.push(['  processes left (tool lists)', String(result.leftovers), '', '', '0', result.leftovers === 0 ? 'PASS' : 'MISS']);
}

/** Skills: a turn that loads one (one more model round) against the same turn with it inlined; 5,000 listed. */
async function skills() {
  let result: Awaited<ReturnType<typeof runSkills>>;
  try {
    result = await runSkills({ rounds });
  } catch (error) {
    notMeasured('skills', error);
    return;
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const loadedBytes = median(result.loaded.map((t) => t.requestBytes));
  const inlinedBytes = median(result.inlined.map((t) => t.requestBytes));
  rows.push([
    `skills: a turn loading a ${kb(result.skillBytes)} skill · its requests' bytes`,
    `${kb(loadedBytes)} in ${median(result.loaded.map((t) => t.rounds))} rounds`,
    `inlined: ${kb(inlinedBytes)} in ${median(result.inlined.map((t) => t.rounds))} round`,
    `${(loadedBytes / inlinedBytes).toFixed(2)}×`,
    'one added round',
    'info',
  ]);
  const loadedMs = median(result.loaded.map((t) => t.ms));
  const inlinedMs = median(result.inlined.map((t) => t.ms));
  rows.push([
    '  the same turn, send → idle',
    `${loadedMs.toFixed(1)} ms`,
    `${inlinedMs.toFixed(1)} ms`,
    `${(loadedMs / inlinedMs).toFixed(2)}×`,
    '',
    'info',
  ]);
  const listMs = median(result.listMs);
  rows.push([
    '  5,000 skills of one server: added → listed',
    `${(listMs / 1000).toFixed(2)} s`,
    '',
    '',
    '≤ 10 s',
    listMs <= 10_000 ? 'PASS' : 'MISS',
  ]);
  const heap = median(result.heapKB);
  rows.push([
    '  heap kept for 5,000 listed skills',
    `${(heap / 1024).toFixed(1)} MB`,
    "over the fixture's own",
    '',
    '≤ 20 MB',
    heap <= 20 * 1024 ? 'PASS' : 'MISS',
  ]);
}

/** A scenario that could not run: a MISS row with the first line of the reason. */
function notMeasured(label: string, error: unknown): void {
  rows.push([label, 'not measured', '', '', (error as Error).message.split('\n')[0].slice(0, 120), 'MISS']);
}

const areas: Record<string, () => unknown> = {
  'tool-search': toolSearch,
  'first-paint': firstPaint,
  tools: toolRouting,
  scanner: contentScanner,
  big: bigResultPreview,
  persistence: chatPersistence,
  logs: logAppend,
  'chat-ui': chatUi,
  resources: resourcesUi,
  'tool-lists': toolListsUi,
  remote: remoteServer,
  flood: notificationFlood,
  openai: openAiStream,
  tokenizer: tokenizerFirstCount,
  sandbox: sandboxedServer,
  rules: ruleEvaluation,
  skills,
};
// `--area NAME` (repeatable) runs only those: `npx tsx bench/areas.ts --area flood`.
const chosen = process.argv.flatMap((arg, i) => (process.argv[i - 1] === '--area' ? [arg] : []));
for (const name of chosen) if (!areas[name]) throw new Error(`unknown area ${name}; one of ${Object.keys(areas).join(', ')}`);
for (const [name, run] of Object.entries(areas)) if (chosen.length === 0 || chosen.includes(name)) await run();

const header = ['metric', 'host', 'baseline', 'ratio', 'target', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(`\nPer-area benchmarks (${rounds} alternating round${rounds > 1 ? 's' : ''} per arm; medians)`);
console.log(line(header));
for (const row of rows) console.log(line(row));
