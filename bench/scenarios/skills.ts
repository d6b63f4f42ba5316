/**
 * `skills`: what a skill costs, on a real host (`createHost`, the skills-lab fixture as a subprocess)
 * asking the scripted Messages API on 127.0.0.1:
 *
 * - a turn whose model loads one local skill (`load_skill`, then answers) against the same turn with the
 *   skill's text inlined in the system prompt (the model answers at once): bytes of all model requests of
 *   the turn, model rounds, send → idle;
 * - listing 5,000 skills of one server (`--many=5000`, 100 a page): server added → `listSkills` has them
 *   all, and the host's heap kept for them (after GC), against the same server with only its own few skills.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SKILL_TOOL_NAME, type HostApi } from '@contract';
import { createHost, type Host } from '../../src-main/core/host';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { waitFor } from '../../src-main/core/servers/wait';
import { REPO } from '../lib/servers';
import { gc, startScriptedLlm, turn, type ScriptedLlm } from './tool-search';

export interface SkillTurn {
  requestBytes: number;
  rounds: number;
  ms: number;
}

export interface SkillsResult {
  loaded: SkillTurn[];
  inlined: SkillTurn[];
  /** Bytes of the skill's SKILL.md. */
  skillBytes: number;
  listMs: number[];
  /** Heap kept for 5,000 listed skills, over the same server with 4 (KB, after GC). */
  heapKB: number[];
}

const LAB = path.join(REPO, 'e2e/fixtures/skills-lab.mjs');

/** A skill of about 8 KB of instructions (a realistic SKILL.md). */
function skillText(): string {
  const steps = Array.from({ length: 120 }, (_, i) => `${i + 1}. Check the ledger entry and note any refund over the limit.`).join('\n');
  return `---\nname: refunds\ndescription: Process customer refund requests per company policy\n---\n\n# Refunds\n\n${steps}\n`;
}

function newHost(llm: ScriptedLlm) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-skills-'));
  const host = createHost({ mode: 'web', sandboxByDefault: false, appVersion: 'bench', dataDir });
  const api = inProcessApi(host.handlers);
  return { host, api, dataDir, llm };
}

async function stop(host: Host, dataDir: string) {
  await host.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function requestBytes(llm: ScriptedLlm): Promise<{ bytes: number; rounds: number }> {
  const requests = await llm.messageRequests();
  return { bytes: requests.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r.body)), 0), rounds: requests.length };
}

async function skillTurn(llm: ScriptedLlm, inline: boolean): Promise<SkillTurn> {
  const { host, api, dataDir } = newHost(llm);
  try {
    const folder = path.join(dataDir, 'skills');
    fs.mkdirSync(path.join(folder, 'refunds'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'refunds', 'SKILL.md'), skillText());
    await api.setApiKey({ apiKey: 'sk-ant-bench' });
    await api.updateSettings(
      inline ? { anthropicBaseUrl: llm.url, systemPrompt: skillText() } : { anthropicBaseUrl: llm.url, skillsFolder: folder },
    );
    await api.listSkills();
    await llm.reset();
    await llm.script(
      inline
        ? [{ type: 'text', text: 'Refund approved.' }]
        : [
            { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'local/refunds' } }] },
            { type: 'text', text: 'Refund approved.' },
          ],
    );
    const ms = await turn(host, api, 'Refund order 1234 for 80 EUR');
    const { bytes, rounds } = await requestBytes(llm);
    return { requestBytes: bytes, rounds, ms };
  } finally {
    await stop(host, dataDir);
  }
}

/**
 * Adds skills-lab with `--many` and waits until its listing is done (state `ok`, every generated skill
 * in; the fixture's own handful come on top, however many it has); ms from add to listed.
 */
async function listed(api: HostApi, many: number): Promise<number> {
  const start = performance.now();
  const added = await api.addServer({ name: 'skills', command: process.execPath, args: [LAB, `--many=${many}`] });
  await waitFor(
    async () => {
      const list = await api.listSkills({ serverId: added.config.id });
      return list.servers[0]?.state === 'ok' && list.skills.length > many;
    },
    { timeoutMs: 120_000, intervalMs: 20, what: `more than ${many} skills to be listed` },
  );
  return performance.now() - start;
}

async function listing(llm: ScriptedLlm, many: number): Promise<{ ms: number; heap: number }> {
  const { host, api, dataDir } = newHost(llm);
  try {
    const ms = await listed(api, many);
    gc();
    return { ms, heap: process.memoryUsage().heapUsed };
  } finally {
    await stop(host, dataDir);
  }
}

export async function runSkills({ rounds }: { rounds: number }): Promise<SkillsResult> {
  const llm = await startScriptedLlm();
  const result: SkillsResult = { loaded: [], inlined: [], skillBytes: Buffer.byteLength(skillText()), listMs: [], heapKB: [] };
  try {
    for (let i = 0; i < rounds; i++) {
      result.loaded.push(await skillTurn(llm, false));
      result.inlined.push(await skillTurn(llm, true));
      const few = await listing(llm, 0);
      const many = await listing(llm, 5_000);
      result.listMs.push(many.ms);
      result.heapKB.push((many.heap - few.heap) / 1024);
    }
  } finally {
    await llm.stop();
  }
  return result;
}
