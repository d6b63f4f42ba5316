/**
 * Skills, end to end in web mode: a local skills folder chosen in Settings › Skills (by path: web mode
 * has no native picker), the skills-lab fixture server (SEP-2640; one skill whose entry has no name),
 * switches in Settings › Skills and the server's Skills tab, then a chat turn where the scripted model
 * loads a server skill and a local one: the chat shows "Loaded skill: NAME", the next request carries
 * the skill bodies, and the advertised list names only the skills that are on. A tampered skill the
 * model tries to load is refused in words, in the chat and then in Settings › Skills.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { axeProblems } from '../support/axe';
import { contractClient, openPage } from '../support/flows';
import { REPO_ROOT } from '../support/paths';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const llm = useScriptedLlm();
const SKILLS_LAB = path.join(REPO_ROOT, 'e2e', 'fixtures', 'skills-lab.mjs');
const NOTES_BODY = 'Write notes as short bullet points (notes-style marker 7f3a).';
const SECRET_BODY = 'The secret recipe (secret-recipe marker 91bc).';

/** A skills folder with two skills in the Agent Skills format. */
function makeSkillsFolder(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-skills-'));
  const skill = (name: string, description: string, body: string) => {
    fs.mkdirSync(path.join(root, name));
    fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
  };
  skill('notes-style', 'How the user likes notes written', NOTES_BODY);
  skill('secret-recipe', 'A recipe the model must not be offered', SECRET_BODY);
  return root;
}

const skillsSection = (page: Page) => page.locator('#settings-skills');

test('skills from a local folder and a server: switched in Settings › Skills and the Skills tab, loaded in a chat turn', async ({
  page,
  webHost,
}) => {
  const folder = makeSkillsFolder();
  const client = await contractClient(webHost);
  try {
    const lab = await client.api.addServer({ name: 'skills-lab', command: process.execPath, args: [SKILLS_LAB] });
    await client.waitFor(lab.config.id, 'ready');
    await page.goto(webHost.url);
    await pointAnthropicAt(page, llm().url);

    await test.step('Settings › Skills: no folder yet; choose one by path', async () => {
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Skills', exact: true }).click();
      const section = skillsSection(page);
      await expect(section.getByRole('heading', { name: 'Skills', exact: true })).toBeVisible();
      await expect(section.getByText('No folder chosen.')).toBeVisible();
      await section.getByRole('button', { name: 'Choose folder' }).click();
      const dialog = page.getByRole('dialog', { name: 'Choose skills folder' });
      await dialog.getByRole('textbox', { name: 'Folder path' }).fill(folder);
      await dialog.getByRole('button', { name: 'Use this folder' }).click();
      await expect(dialog).toBeHidden();
      await expect(section.getByText(folder, { exact: true })).toBeVisible();
    });

    await test.step('every skill grouped by source: local ones on, a server’s off until switched on, a nameless entry refused', async () => {
      const section = skillsSection(page);
      const local = section.getByRole('list', { name: 'Skills of Local folder' });
      await expect(local.getByRole('switch', { name: 'Offer notes-style to the model' })).toHaveAttribute('aria-checked', 'true');
      await expect(local.getByText(/tokens to load$/).first()).toBeVisible();
      const lab = section.getByRole('list', { name: 'Skills of skills-lab' });
      await expect(lab.getByRole('switch', { name: 'Offer pdf-processing to the model' })).toHaveAttribute('aria-checked', 'false');
      await expect(lab.getByText(/^Patchbay refused the skill "nameless" from the server "skills-lab": /)).toBeVisible();
      await local.getByRole('switch', { name: 'Offer secret-recipe to the model' }).click();
      await expect(local.getByRole('switch', { name: 'Offer secret-recipe to the model' })).toHaveAttribute('aria-checked', 'false');
      expect(await axeProblems(page, '.skills-settings')).toEqual([]);
    });

    await test.step('the server’s Skills tab: switch pdf-processing on', async () => {
      await openPage(page, 'Servers');
      await page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: 'skills-lab', exact: true }).click();
      await page.getByRole('tab', { name: 'Skills', exact: true }).click();
      const list = page.getByRole('list', { name: 'Skills of skills-lab' });
      const pdf = list.getByRole('switch', { name: 'Offer pdf-processing to the model' });
      await pdf.click();
      await expect(pdf).toHaveAttribute('aria-checked', 'true');
      // Tampered: listed as it should be, served otherwise; refused when loaded.
      await list.getByRole('switch', { name: 'Offer tampered to the model' }).click();
      await expect(list.getByRole('switch', { name: 'Offer tampered to the model' })).toHaveAttribute('aria-checked', 'true');
      await list.getByRole('button', { name: 'pdf-processing', exact: true }).click();
      await expect(page.getByRole('region', { name: 'pdf-processing' }).getByText('Server skills-lab')).toBeVisible();
      expect(await axeProblems(page, '.skills-panel')).toEqual([]);
    });

    await test.step('a chat turn loads a server skill and a local one; the next request carries their bodies', async () => {
      await openPage(page, 'Chat');
      await llm().script([
        {
          type: 'tool_use',
          text: 'Let me load the skills.',
          calls: [
            { name: 'load_skill', input: { skill: 'skills-lab/pdf-processing' } },
            { name: 'load_skill', input: { skill: 'local/notes-style' } },
            { name: 'load_skill', input: { skill: 'skills-lab/tampered' } },
          ],
        },
        { type: 'text', text: 'Both skills are loaded.' },
      ]);
      await page.getByRole('textbox', { name: 'Message' }).fill('Fill a PDF form and take notes');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const log = page.getByRole('log', { name: 'Messages' });
      await expect(log.getByText('Both skills are loaded.')).toBeVisible();
      await expect(log.getByText('Loaded skill: pdf-processing')).toBeVisible();
      await expect(log.getByText('Loaded skill: notes-style')).toBeVisible();
      await expect(
        log.getByText(/^Skill not loaded: Patchbay refused the skill "tampered" from the server "skills-lab": .*digest/),
      ).toBeVisible();

      const [first, second] = await llm().messageRequests();
      const skillTool = (first.body?.tools ?? []).find((t) => t.name === 'load_skill');
      expect(skillTool?.description).toContain('skills-lab/pdf-processing');
      expect(skillTool?.description).toContain('local/notes-style');
      // Off, refused or never switched on: not advertised.
      for (const hidden of ['secret-recipe', 'wrong-size', 'nameless']) expect(skillTool?.description).not.toContain(hidden);
      const sent = JSON.stringify(second.body?.messages ?? []);
      expect(sent).toContain('# PDF processing');
      expect(sent).toContain(NOTES_BODY);
      expect(sent).not.toContain(SECRET_BODY);
      expect(sent).not.toContain('Evil body');

      // The meter counts the advertised skills on their own line.
      await page.getByRole('button', { name: /^≈ [\d.]+[kM]? tokens$/ }).click();
      const breakdown = page.getByRole('dialog', { name: 'Context breakdown' });
      await expect(breakdown.getByText('Skills (2 offered)')).toBeVisible();
      await expect(breakdown.getByRole('list', { name: 'Loading a skill would add' }).getByRole('listitem')).toHaveCount(2);
      await page.keyboard.press('Escape');
    });

    await test.step('the tampered skill now shows as refused, in words, and cannot be switched on', async () => {
      await openPage(page, 'Settings');
      await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Skills', exact: true }).click();
      const lab = skillsSection(page).getByRole('list', { name: 'Skills of skills-lab' });
      await expect(
        lab.getByText(
          'Patchbay refused the skill "tampered" from the server "skills-lab": SKILL.md does not match its SHA-256 digest (a digest mismatch).',
        ),
      ).toBeVisible();
      await expect(lab.getByRole('switch', { name: 'Offer tampered to the model' })).toBeDisabled();
    });
  } finally {
    await client.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
