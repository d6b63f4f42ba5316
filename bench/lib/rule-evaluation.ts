/**
 * For `npm run bench` (bench/areas.ts calls this): what the guard's rules cost a tool call. The
 * guard area is made as the host makes it (its own database in a temp directory), with 100 rules of
 * every kind — shared folders, hosts, limits, patterns; per tool, per server and for all — and
 * `judge` is timed call by call over varied calls (some denied, some asked, most covered by none),
 * against the same guard with no rules, in the same run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Tool } from '@modelcontextprotocol/client';
import { HostEventBus } from '../../src-main/core/events';
import { systemClock } from '../../src-main/core/clock';
import { createGuardArea } from '../../src-main/core/guard/guard-area';
import { createOrganisationArea } from '../../src-main/core/guard/policy/organisation-area';
import { createQuestionsArea } from '../../src-main/core/questions/question-handlers';
import type { GuardCall } from '../../src-main/core/guard/call-guard';
import type { StoredServer } from '../../src-main/core/server-config/server-config-repository';
import { openDatabase } from '../../src-main/core/store/database';

export interface RuleEvaluationBench {
  rules: number;
  p50Ms: number;
  p95Ms: number;
  baselineP50Ms: number;
  baselineP95Ms: number;
}

const SHARED = path.join(os.tmpdir(), 'bench-shared');

/** 100 rules over 25 tools of 5 servers: every kind of condition, every scope. */
function hundredRules(): string {
  const lines: string[] = [];
  for (let i = 0; i < 100; i++) {
    const tool = `tool_${i % 25}`;
    const server = `server_${i % 5}`;
    const kind = i % 5;
    if (kind === 0) lines.push(`deny tool ${tool} if path outside shared folders`);
    else if (kind === 1) lines.push(`ask server ${server} if url host not in [example.com, "*.github.com", docs.python.org]`);
    else if (kind === 2) lines.push(`deny tool ${tool} on ${server} if limit > ${100 + i}`);
    else if (kind === 3) lines.push(`ask tool ${tool} if query matches /(password|secret|token)_${i}/i`);
    else
      lines.push(i % 10 === 4 ? `deny any tool if sql matches /drop\\s+table_${i}/i` : `allow tool ${tool} if path inside shared folders`);
  }
  return lines.join('\n');
}

function calls(): GuardCall[] {
  const out: GuardCall[] = [];
  for (let i = 0; i < 200; i++) {
    const tool: Tool = { name: `tool_${i % 30}`, inputSchema: { type: 'object' } };
    const args: Record<string, unknown> = {
      path: i % 3 === 0 ? path.join(SHARED, `f${i}.txt`) : `/etc/f${i}`,
      url: i % 2 === 0 ? 'https://api.github.com/x' : `https://host${i}.example/`,
      limit: i * 3,
      query: `look for password_${i % 100}`,
    };
    out.push({ serverId: `s${i % 6}`, serverName: `server_${i % 6}`, tool, args, origin: 'model', conversationId: `c${i % 4}` });
  }
  return out;
}

async function timeJudge(text: string, rounds: number): Promise<number[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-rules-'));
  const { db } = openDatabase(dataDir);
  try {
    const servers = Array.from(
      { length: 6 },
      (_, i) =>
        ({
          id: `s${i}`,
          name: `server_${i}`,
          transport: 'stdio',
          sandbox: { enabled: true, network: 'blocked', hosts: [] },
        }) as unknown as StoredServer,
    );
    const organisation = createOrganisationArea({ file: path.join(dataDir, 'no-managed-settings.json') });
    const events = new HostEventBus();
    const guard = createGuardArea({
      db,
      events,
      clock: systemClock,
      servers: { get: (id) => servers.find((s) => s.id === id), list: () => servers },
      tools: () => undefined,
      // What the host's roots area answers (there: one stat per shared folder, not part of the rules).
      sharedFolders: async () => [SHARED],
      organisation,
      // The scanner's side (not timed here): what the host gives it.
      questions: createQuestionsArea({ events, clock: systemClock }).queue,
      flaggedContent: () => 'ask',
    });
    await guard.handlers.setRules({ text });
    const samples: number[] = [];
    const list = calls();
    for (let round = 0; round < rounds; round++) {
      for (const call of list) {
        const t = performance.now();
        await guard.guard.judge(call);
        samples.push(performance.now() - t);
      }
    }
    organisation.dispose();
    return samples.sort((a, b) => a - b);
  } finally {
    db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

export async function benchRuleEvaluation({ quick }: { quick: boolean }): Promise<RuleEvaluationBench> {
  const rounds = quick ? 25 : 100;
  // Warm both paths first (the code is compiled as it runs).
  await timeJudge(hundredRules(), 5);
  await timeJudge('', 5);
  const ruled = await timeJudge(hundredRules(), rounds);
  const bare = await timeJudge('', rounds);
  return { rules: 100, p50Ms: at(ruled, 0.5), p95Ms: at(ruled, 0.95), baselineP50Ms: at(bare, 0.5), baselineP95Ms: at(bare, 0.95) };
}
