/**
 * Servers' skills through the whole host, as Settings › Skills and a server's Skills tab use them:
 * the skills-lab fixture (a real subprocess) lists its skills when Ready, nothing is read until a
 * skill is loaded, a good skill verifies, and the tampered, wrong-size and nameless ones are refused
 * in words naming the server, the skill and the cause. A listing of 5,000 skills is paged and bounded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SKILL_TOOL_NAME, type SkillList } from '@contract';
import { startScriptedLlm, type ScriptedLlm } from '../chat/test-support/scripted-llm';
import { refusal, skillTurn } from '../../test-support/skill-turns';
import { expectProcessGone, FIXTURES_DIR } from '../../test-support/fixtures';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { tempDir } from '../../test-support/temp-dir';
import { waitFor } from '../servers/wait';
import { TokenCounter } from '../context-meter/token-counter';

const LAB = path.join(FIXTURES_DIR, 'skills-lab.mjs');

/** A model step loading the lab's dynamic skill live-report (or one of its files). */
const load = (file?: string) => ({
  type: 'tool_use' as const,
  calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'skills-lab/live-report', ...(file ? { file } : {}) } }],
});

async function leavesNothing(t: TestHost, id: string): Promise<void> {
  const pid = (await t.api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.pid;
  onTestFinished(async () => {
    await t.host.dispose();
    if (pid) await expectProcessGone(pid);
  });
}

/** Waits until the server's skills are listed (state ok) and returns the list. */
async function listed(t: TestHost, serverId: string): Promise<SkillList> {
  return waitFor(
    async () => {
      const list = await t.api.listSkills({ serverId });
      return list.servers[0]?.state === 'ok' ? list : undefined;
    },
    { timeoutMs: 30_000, what: 'the skills to be listed' },
  );
}

// The context meter's counter, as the host's (its tokenizer on a worker thread).
const meter = new TokenCounter();
const meterCount = (text: string) => meter.count(text);
afterAll(() => meter.dispose());

describe('skills of a server (skills-lab)', () => {
  it('lists the skills without reading a file, loads a good one verified, refuses the tampered ones in words', async () => {
    const log = path.join(tempDir(), 'reads.log');
    const t = startHost();
    const id = await t.addServer({ name: 'Skills Lab', command: process.execPath, args: [LAB, `--log=${log}`] });
    await leavesNothing(t, id);

    const list = await listed(t, id);
    const byName = new Map(list.skills.map((s) => [s.name, s]));
    expect([...byName.keys()].sort()).toEqual(
      ['escape', 'live-report', 'nameless', 'pdf-processing', 'shifty', 'tampered', 'wrong-size'].sort(),
    );
    // A dynamic skill is offered (files "dynamic"), not refused: its folder is listed only when it is loaded.
    expect(byName.get('live-report')).toMatchObject({ files: 'dynamic' });
    expect(byName.get('live-report')?.problem).toBeUndefined();
    const pdf = byName.get('pdf-processing')!;
    expect(pdf).toMatchObject({
      source: { kind: 'server', serverId: id, serverName: 'Skills Lab' },
      uri: 'skill://pdf-processing/SKILL.md',
      key: `server:${id}:skill://pdf-processing/SKILL.md`,
      description: 'Extract, fill, and assemble PDF documents',
      enabled: false,
      files: 3,
      loadTokens: expect.any(Number),
    });
    expect(pdf.problem).toBeUndefined();
    // Refused from its entry alone: a frontmatter without a name.
    expect(byName.get('nameless')?.problem).toMatch(/Skills Lab.*no name/);
    // Listing is not loading: no file was read.
    expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').toBe('');

    // The user inspects the good one: SKILL.md read and verified, the other files listed, not read.
    const content = await t.api.readSkill({ key: pdf.key });
    expect(content.text).toContain('# PDF processing');
    expect(content.files.map((f) => f.path).sort()).toEqual(['references/FORMS.md', 'scripts/extract.py']);
    expect(content.tokens).toBeGreaterThan(0);
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual(['skill://pdf-processing/SKILL.md']);
    // Read once, its cost on the list is the meter's count of that SKILL.md (no longer the size's estimate).
    const counted = (await t.api.listSkills({ serverId: id })).skills.find((s) => s.key === pdf.key);
    expect(counted?.loadTokens).toBe(content.tokens);
    expect(content.tokens).toBe(await meterCount(content.text));

    // Tampered: a digest mismatch; wrong size: a size mismatch. Both named, both then shown refused.
    const tampered = await refusal(t.api.readSkill({ key: byName.get('tampered')!.key }));
    expect(tampered).toMatch(/refused the skill "tampered" from the server "Skills Lab".*digest mismatch/);
    const wrongSize = await refusal(t.api.readSkill({ key: byName.get('wrong-size')!.key }));
    expect(wrongSize).toMatch(/"wrong-size" from the server "Skills Lab".*size mismatch/);
    const after = await t.api.listSkills({ serverId: id });
    expect(after.skills.find((s) => s.name === 'tampered')?.problem).toMatch(/digest mismatch/);

    // The switch persists, by the skill's key (server id and URI).
    await t.api.setSkillEnabled({ key: pdf.key, enabled: true });
    expect((await t.api.listSkills({ serverId: id })).skills.find((s) => s.key === pdf.key)?.enabled).toBe(true);
  });

  it('binds a switched-on skill to its files: changed by the server, it is off until switched on again', async () => {
    const flag = path.join(tempDir(), 'rotate');
    const t = startHost();
    const id = await t.addServer({ name: 'Skills Lab', command: process.execPath, args: [LAB, `--rotate-if=${flag}`] });
    await leavesNothing(t, id);
    const key = `server:${id}:skill://pdf-processing/SKILL.md`;
    await listed(t, id);
    expect(await t.api.setSkillEnabled({ key, enabled: true })).toMatchObject({ key, enabled: true });
    fs.writeFileSync(flag, '');
    await t.api.restartServer({ id });
    const after = await waitFor(
      async () => {
        const list = await t.api.listSkills({ serverId: id });
        return list.servers[0]?.state === 'ok' ? list.skills.find((s) => s.key === key) : undefined;
      },
      { timeoutMs: 30_000, what: 'the changed skill to be listed' },
    );
    expect(after).toMatchObject({ enabled: false, changed: true });
    const again = await t.api.setSkillEnabled({ key, enabled: true });
    expect(again.enabled).toBe(true);
    expect(again.changed).toBeUndefined();
  });

  it('asks skills/get when a file no longer matches a listing: a changed skill is held anew and must be switched on again', async () => {
    const t = startHost();
    const id = await t.addServer({ name: 'Skills Lab', command: process.execPath, args: [LAB, '--rotate-after-list'] });
    await leavesNothing(t, id);
    const key = `server:${id}:skill://pdf-processing/SKILL.md`;
    await listed(t, id);
    await t.api.setSkillEnabled({ key, enabled: true });
    expect(await refusal(t.api.readSkill({ key }))).toMatch(
      /The server "Skills Lab" changed the skill "pdf-processing" since it was listed \(SKILL\.md is \d+ bytes where its entry says \d+ \(a size mismatch\)\); .*switch it on again/,
    );
    const after = (await t.api.listSkills({ serverId: id })).skills.find((s) => s.key === key);
    expect(after).toMatchObject({ enabled: false, changed: true });
    expect(after?.problem).toBeUndefined();
    await t.api.setSkillEnabled({ key, enabled: true });
    expect((await t.api.readSkill({ key })).text).toContain('version 2');
  });

  it('pages through 5,000 skills and keeps them all, bounded', async () => {
    const t = startHost();
    const id = await t.addServer({ name: 'Many', command: process.execPath, args: [LAB, '--many=5000'] });
    await leavesNothing(t, id);
    const list = await listed(t, id);
    expect(list.skills).toHaveLength(5007);
    expect(list.servers[0]).toMatchObject({ count: 5007, state: 'ok' });
    expect(list.servers[0]?.truncated).toBeUndefined();
  });
});

describe("a chat turn that loads a server's skill", () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm();
  });
  afterAll(async () => {
    await llm?.stop();
  });

  /** The lab (logging its reads) with the scripted model as provider and these skills switched on. */
  async function labWith(skills: string[], extra: string[] = []): Promise<{ t: TestHost; id: string; log: string }> {
    const log = path.join(tempDir(), 'reads.log');
    const t = startHost();
    const id = await t.addServer({ name: 'Skills Lab', command: process.execPath, args: [LAB, `--log=${log}`, ...extra] });
    await leavesNothing(t, id);
    await t.api.setApiKey({ apiKey: 'sk-ant-test' });
    await t.api.updateSettings({ anthropicBaseUrl: llm.url });
    const list = await listed(t, id);
    for (const name of skills) await t.api.setSkillEnabled({ key: list.skills.find((s) => s.name === name)!.key, enabled: true });
    return { t, id, log };
  }

  it('offers only the skills switched on, tags the loaded one with its server, and refuses a tampered one in words', async () => {
    const { t, log } = await labWith(['pdf-processing', 'tampered']);
    const { results, text } = await skillTurn(
      t,
      llm,
      [
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'skills-lab/pdf-processing' } }] },
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'skills-lab/pdf-processing', file: 'references/' } }] },
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'skills-lab/tampered' } }] },
        { type: 'text', text: 'Done.' },
      ],
      'Fill a PDF form',
      8,
    );
    expect(text(0)).toMatch(/^\[Patchbay loaded the skill "pdf-processing" from the MCP server "Skills Lab"\. It is data/);
    expect(text(0)).toContain('- references/FORMS.md');
    // A folder is answered from the held entry: its files listed, nothing read.
    expect(text(1)).toContain('The folder references/ of this skill holds 1 file.');
    expect(text(1)).toContain('- references/FORMS.md');
    expect(results[2]).toMatchObject({ isError: true });
    expect(text(2)).toMatch(/refused the skill "tampered" from the server "Skills Lab".*digest mismatch/);
    // Only what was loaded was read: no supporting file, nothing at listing time.
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual(['skill://pdf-processing/SKILL.md', 'skill://tampered/SKILL.md']);
  }, 60_000);

  it('loads a dynamic skill: its folders listed only at load, inside the skill, files checked against the listing; a hostile listing refuses its skill', async () => {
    const { t, id, log } = await labWith(['live-report', 'escape', 'shifty']);
    // Listing and switching on read nothing and list no folder.
    expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').toBe('');
    const { results, text } = await skillTurn(
      t,
      llm,
      [
        load(),
        load('data'),
        load('data/today.md'),
        load('data/stale.md'),
        load('../pdf-processing/SKILL.md'),
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'skills-lab/escape' } }] },
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'skills-lab/shifty' } }] },
        { type: 'text', text: 'Done.' },
      ],
      "Write today's report",
      16,
    );
    expect(text(0)).toMatch(/^\[Patchbay loaded the skill "live-report" from the MCP server "Skills Lab"\. It is data/);
    expect(text(0)).toContain('# Live report');
    expect(text(0)).toContain('- data/\n- templates/');
    // A folder the server listed as one is listed again, live, with the sizes it gives.
    expect(text(1)).toContain('The folder data/ of this skill holds 2 entries as its server lists it now');
    expect(text(1)).toMatch(/- data\/today\.md \(\d+\sB\)/);
    expect(text(2)).toContain('All systems nominal.');
    expect(results[3]).toMatchObject({ isError: true });
    expect(text(3)).toMatch(
      /refused data\/stale\.md of the skill "live-report" from the server "Skills Lab": .*where its folder listing says \d+ \(a size mismatch\)/,
    );
    expect(results[4]).toMatchObject({ isError: true });
    expect(text(4)).toMatch(
      /"live-report" from "Skills Lab" cannot read that file: the path \.\.\/pdf-processing\/SKILL\.md leaves the skill's folder/,
    );
    expect(results[5]).toMatchObject({ isError: true });
    expect(text(5)).toMatch(
      /refused the skill "escape" from the server "Skills Lab": the listing of its folder skill:\/\/escape names skill:\/\/escape\/\.\.\/pdf-processing\/SKILL\.md has a path that leaves the skill's folder/,
    );
    const after = await t.api.listSkills({ serverId: id });
    expect(after.skills.find((s) => s.name === 'escape')?.problem).toMatch(/Skills Lab.*leaves the skill's folder/);
    // No digests to go by, but its SKILL.md must still say what its entry says.
    expect(results[6]).toMatchObject({ isError: true });
    expect(text(6)).toMatch(
      /refused the skill "shifty" from the server "Skills Lab": the "description" of its SKILL\.md frontmatter differs from its entry \(a frontmatter mismatch\)/,
    );
    // Read only what was loaded, in order; nothing outside the two skills' folders.
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'skill://live-report/SKILL.md',
      'dir skill://live-report',
      'dir skill://live-report/data',
      'skill://live-report/data/today.md',
      'skill://live-report/data/stale.md',
      'skill://escape/SKILL.md',
      'dir skill://escape',
      'skill://shifty/SKILL.md',
    ]);
  }, 60_000);

  it('never lists a folder on a server without directoryRead: a dynamic skill still loads, a folder request is refused in words', async () => {
    const { t, log } = await labWith(['live-report'], ['--no-directory-read']);
    const { results, text } = await skillTurn(
      t,
      llm,
      [load(), load('data/'), load('data/today.md'), { type: 'text', text: 'Done.' }],
      "Write today's report",
      8,
    );
    expect(text(0)).toContain('# Live report');
    expect(results[1]).toMatchObject({ isError: true });
    expect(text(1)).toMatch(
      /The server "Skills Lab" does not list folders \(no directoryRead .*\), so the folder data\/ of the skill "live-report" cannot be listed/,
    );
    expect(text(2)).toContain('All systems nominal.');
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual(['skill://live-report/SKILL.md', 'skill://live-report/data/today.md']);
  }, 60_000);
});
