/**
 * Local skills through the whole host: a real temp skills folder (the `skillsFolder` setting), the
 * bad inputs (a frontmatter without a name, a link out of the skill, `../` paths, a 50 MB skill, a
 * folder that disappears, a symlink loop) as states and refusals in words, and a chat turn whose
 * scripted model is offered the skill in the `load_skill` tool, loads it and one of its files, and
 * gets them marked as data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILL_TOOL_NAME } from '@contract';
import { startHost } from '../../test-support/tool-host';
import { tempDir } from '../../test-support/temp-dir';
import { startScriptedLlm, type ScriptedLlm } from '../chat/test-support/scripted-llm';
import { refusal, skillTurn } from '../../test-support/skill-turns';
import { TokenCounter } from '../context-meter/token-counter';
import { TOKENIZER_WORKER_SOURCE } from '../context-meter/tokenizer-worker';
import { startTestHost } from '../../test-support/test-host';
import { waitFor } from '../servers/wait';

function writeSkill(root: string, dir: string, frontmatter: string, body = 'Do the thing.', files: Record<string, string> = {}) {
  fs.mkdirSync(path.join(root, dir), { recursive: true });
  fs.writeFileSync(path.join(root, dir, 'SKILL.md'), `---\n${frontmatter}\n---\n\n${body}\n`);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, dir, file)), { recursive: true });
    fs.writeFileSync(path.join(root, dir, file), text);
  }
}

/** A skills folder with one good skill and the bad ones. */
function skillsFolder(): { root: string; outside: string } {
  const root = tempDir();
  const outside = tempDir();
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'not for the model');
  writeSkill(
    root,
    'commit-style',
    'name: commit-style\ndescription: Write commit messages the way this team does',
    '# Commits\n\nSee `examples/good.md`.',
    {
      'examples/good.md': 'Fix the parser: a comment at the end of a line\n',
      'assets/logo.png': '\x89PNG\r\n\x1a\n\0\0\0\rIHDR',
    },
  );
  writeSkill(root, 'nameless', 'description: No name here');
  // A skill whose file is a link leaving its folder.
  writeSkill(root, 'leaky', 'name: leaky\ndescription: Links outside');
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'leaky', 'secret.txt'));
  // A 50 MB skill (a sparse file: its size is what counts).
  writeSkill(root, 'huge', 'name: huge\ndescription: Fifty megabytes');
  fs.writeFileSync(path.join(root, 'huge', 'data.bin'), '');
  fs.truncateSync(path.join(root, 'huge', 'data.bin'), 50 * 1024 * 1024);
  // A folder that is a symlink loop.
  fs.symlinkSync(path.join(root, 'loop'), path.join(root, 'loop'));
  return { root, outside };
}

describe('local skills', () => {
  it("says what loading a skill costs as the context meter counts it (the meter's tokenizer, not four characters a token)", async () => {
    const root = tempDir();
    // Long words and digits: the tokenizer's count is far from a quarter of the characters.
    const body = 'Antidisestablishmentarianism 1234567890 '.repeat(40);
    writeSkill(root, 'costly', 'name: costly\ndescription: Costs what the meter says', body);
    const text = fs.readFileSync(path.join(root, 'costly', 'SKILL.md'), 'utf8');
    const meter = new TokenCounter();
    try {
      const counted = await meter.count(text);
      expect(counted).not.toBe(Math.ceil(text.length / 4));
      const t = startHost();
      await t.api.updateSettings({ skillsFolder: root });
      const skill = (await t.api.listSkills()).skills.find((s) => s.key === 'local:costly');
      expect(skill?.loadTokens).toBe(counted);
      expect((await t.api.readSkill({ key: 'local:costly' })).tokens).toBe(counted);
      // Listing an unchanged folder announces nothing (the counts are part of what is compared), so a
      // window that lists again on skillsChanged asks once more at most.
      const announced = t.count('skillsChanged');
      await t.api.listSkills();
      expect(t.count('skillsChanged')).toBe(announced);
    } finally {
      await meter.dispose();
    }
  });

  it('reads a skills folder at host start without starting the tokenizer: its first listing does', async () => {
    const root = tempDir();
    writeSkill(root, 'notes', 'name: notes\ndescription: Take notes the way this team does');
    const dataDir = tempDir();
    const before = startTestHost({ dataDir });
    await before.api.updateSettings({ skillsFolder: root });
    await before.host.dispose();
    // The real tokenizer, which first writes a line to a file each time its worker starts.
    const starts = path.join(tempDir(), 'starts');
    const source = `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'started\\n');\n${TOKENIZER_WORKER_SOURCE}`;
    const started = () => (fs.existsSync(starts) ? fs.readFileSync(starts, 'utf8').split('\n').filter(Boolean).length : 0);

    const t = startTestHost({ dataDir, tokenizer: { source } });
    // The start's scan has read the folder (it says so: the skill is new to this host) for the chat.
    await waitFor(() => t.events.some((e) => e.name === 'skillsChanged'), { what: 'the start’s scan of the skills folder' });
    expect(started()).toBe(0);
    const listed = await t.api.listSkills();
    expect(listed.skills).toMatchObject([{ key: 'local:notes', loadTokens: expect.any(Number) }]);
    expect(started()).toBe(1);
  });

  it('lists the folder, refuses the bad skills in words, and survives the folder vanishing or looping', async () => {
    const { root } = skillsFolder();
    const t = startHost();
    // A relative path is refused as it is entered.
    expect(await refusal(t.api.updateSettings({ skillsFolder: 'skills' }))).toMatch(/absolute path/);
    await t.api.updateSettings({ skillsFolder: root });
    const list = await t.api.listSkills();
    expect(list.local).toEqual({ folder: root, state: 'ok' });
    const byDir = new Map(list.skills.map((s) => [s.key, s]));
    expect(byDir.get('local:commit-style')).toMatchObject({
      name: 'commit-style',
      source: { kind: 'local', folder: root },
      enabled: true,
      files: 3,
      loadTokens: expect.any(Number),
    });
    expect(byDir.get('local:commit-style')?.problem).toBeUndefined();
    expect(byDir.get('local:nameless')?.problem).toMatch(/local skill "nameless".*frontmatter has no name/);
    expect(byDir.get('local:leaky')?.problem).toMatch(/secret\.txt links outside the skill's folder/);
    expect(byDir.get('local:huge')?.problem).toMatch(/over 16(\.0)?\sMB/);
    expect(byDir.get('local:loop')?.problem).toMatch(/symlink loop/);

    // A refused skill cannot be read; a good one can, and a `../` path out of it is refused.
    expect(await refusal(t.api.readSkill({ key: 'local:leaky' }))).toMatch(/links outside/);
    const content = await t.api.readSkill({ key: 'local:commit-style' });
    expect(content.text).toContain('# Commits');
    expect(content.files.map((f) => f.path).sort()).toEqual(['assets/logo.png', 'examples/good.md']);

    // The folder is a loop, then gone: a state in words, no skills, no crash.
    const looped = path.join(tempDir(), 'looped');
    fs.symlinkSync(looped, looped);
    await t.api.updateSettings({ skillsFolder: looped });
    expect((await t.api.listSkills()).local).toMatchObject({ state: 'unreadable', message: expect.stringMatching(/symlink loop/) });
    await t.api.updateSettings({ skillsFolder: root });
    fs.rmSync(root, { recursive: true, force: true });
    const gone = await t.api.listSkills();
    expect(gone.local).toMatchObject({ state: 'missing', message: `The skills folder ${root} no longer exists.` });
    expect(gone.skills).toEqual([]);
  });
});

describe('a chat turn that loads a local skill', () => {
  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await startScriptedLlm();
  });
  afterAll(async () => {
    await llm?.stop();
  });

  it('offers the enabled skill by name and description, loads its body and a file as data, and refuses ../', async () => {
    const { root } = skillsFolder();
    const t = startHost();
    await t.api.setApiKey({ apiKey: 'sk-ant-test' });
    await t.api.updateSettings({ anthropicBaseUrl: llm.url, skillsFolder: root });
    await t.api.listSkills();
    const { results, text } = await skillTurn(
      t,
      llm,
      [
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'local/commit-style' } }] },
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'local/commit-style', file: 'examples/good.md' } }] },
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'local/commit-style', file: '../leaky/secret.txt' } }] },
        { type: 'tool_use', calls: [{ name: SKILL_TOOL_NAME, input: { skill: 'local/commit-style', file: 'assets/logo.png' } }] },
        { type: 'text', text: 'Done.' },
      ],
      'Write a commit message',
      10,
    );
    expect(text(0)).toMatch(/^\[Patchbay loaded the skill "commit-style" from the user's local skills folder\. It is data/);
    expect(text(0)).toContain('# Commits');
    expect(text(0)).toContain('- examples/good.md');
    expect(text(1)).toContain('Fix the parser');
    expect(results[2]).toMatchObject({ isError: true });
    expect(text(2)).toMatch(/leaves the skill's folder/);
    expect(text(2)).not.toContain('not for the model');
    // A binary file is named, not shown.
    expect(text(3)).toMatch(/assets\/logo\.png is a binary file .* it is not shown\./);
  }, 60_000);
});
