import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, HostCallError, type SkillList } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { SkillsSettings } from './SkillsSettings';
import { localSkill, serverSkill, skillList } from './test-support/skill-factories';

afterEach(cleanup);

describe('Settings › Skills', () => {
  it('with no folder and no skills: says so, and in web mode chooses the folder by path (a refused path answered in the dialog)', async () => {
    const h = fakeHost({
      replies: {
        listFolders: () => ({ path: '/home/me', parent: '/home', folders: [], truncated: false }),
        updateSettings: (patch: { skillsFolder: string }) => {
          if (patch.skillsFolder === 'relative') throw new HostCallError('invalid_input', 'Enter an absolute path');
          return { ...DEFAULT_SETTINGS, skillsFolder: patch.skillsFolder };
        },
      },
    });
    const { store } = await renderWithHost(<SkillsSettings />, h, 'settings');
    expect(screen.getByText('No folder chosen.')).toBeTruthy();
    expect(screen.getByText('No skills yet: choose a skills folder, or add a server that offers skills.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Choose folder' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Choose skills folder' }));
    fireEvent.change(dialog.getByRole('textbox', { name: 'Folder path' }), { target: { value: 'relative' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Use this folder' }));
    expect(await dialog.findByText('Enter an absolute path')).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: 'Folder path' }), { target: { value: '/home/me/skills' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Use this folder' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(h.of('updateSettings').at(-1)).toEqual({ skillsFolder: '/home/me/skills' });
    expect(store.getState().settings?.skillsFolder).toBe('/home/me/skills');
    expect(screen.getByText('/home/me/skills')).toBeTruthy();

    // And stops using it.
    fireEvent.click(screen.getByRole('button', { name: 'Stop using this folder' }));
    await waitFor(() => expect(h.of('updateSettings').at(-1)).toEqual({ skillsFolder: '' }));
  });

  it('says in words that the chosen folder is gone', async () => {
    const h = fakeHost({
      settings: { skillsFolder: '/gone' },
      replies: {
        listSkills: (): SkillList => ({
          skills: [],
          local: { folder: '/gone', state: 'missing', message: 'The skills folder /gone no longer exists.' },
          servers: [],
        }),
      },
    });
    await renderWithHost(<SkillsSettings />, h, 'settings');
    expect((await screen.findByRole('alert')).textContent).toBe('The skills folder /gone no longer exists.');
    expect(screen.getByRole('button', { name: 'Change folder' })).toBeTruthy();
  });

  it('lists every skill grouped by source with its switch and cost, a refused one with its reason, and follows skillsChanged', async () => {
    let listing = skillList([
      localSkill('notes'),
      serverSkill('d', 'Docs', 'pdf-processing'),
      serverSkill('d', 'Docs', 'moved', { enabled: false, changed: true }),
      serverSkill('d', 'Docs', 'tampered', {
        problem: 'Docs served SKILL.md of “tampered” with a different SHA-256 digest than it listed.',
      }),
      serverSkill('d', 'Docs', 'nameless', {
        problem: 'Patchbay refused the skill "nameless" from the server "Docs": its frontmatter has no name.',
      }),
    ]);
    const h = fakeHost({
      settings: { skillsFolder: '/home/me/skills' },
      replies: {
        listSkills: () => listing,
        setSkillEnabled: ({ key, enabled }: { key: string; enabled: boolean }) => ({
          ...listing.skills.find((s) => s.key === key)!,
          enabled,
        }),
      },
    });
    await renderWithHost(<SkillsSettings />, h, 'settings');
    const local = within(await screen.findByRole('list', { name: 'Skills of Local folder' }));
    const docs = within(screen.getByRole('list', { name: 'Skills of Docs' }));
    expect(local.getByText('notes')).toBeTruthy();
    expect(local.getByText('≈ 200 tokens to load')).toBeTruthy();
    expect(docs.getByText('≈ 1.3k tokens to load')).toBeTruthy();
    expect(docs.getByText(/^Refused: Docs served SKILL.md of “tampered” with a different SHA-256 digest/)).toBeTruthy();
    expect(docs.getByText('Changed by its server since you switched it on: off until you switch it on again')).toBeTruthy();
    // A reason that already says it was refused is not prefixed again.
    expect(docs.getByText('Patchbay refused the skill "nameless" from the server "Docs": its frontmatter has no name.')).toBeTruthy();
    const refused = docs.getByRole('switch', { name: 'Offer tampered to the model' });
    expect(refused.getAttribute('aria-checked')).toBe('false');
    expect((refused as HTMLButtonElement).disabled).toBe(true);

    const pdf = docs.getByRole('switch', { name: 'Offer pdf-processing to the model' });
    fireEvent.click(pdf);
    await waitFor(() => expect(pdf.getAttribute('aria-checked')).toBe('false'));
    expect(h.of('setSkillEnabled')).toEqual([{ key: 'server:d:skill://pdf-processing/SKILL.md', enabled: false }]);

    // The host says the skills changed: the list is asked again.
    listing = skillList([localSkill('notes'), localSkill('letters')]);
    h.emit({ name: 'skillsChanged', payload: {} });
    await act(async () => undefined);
    expect(await screen.findByText('letters')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Skills of Docs' })).toBeNull();
  });

  it('asks once when the host announces a change while it answers (it reads the folder again), and again for a later change', async () => {
    const h = fakeHost({});
    h.replies.listSkills = async () => {
      // The host's rescan emits skillsChanged before the answer goes out.
      await Promise.resolve();
      h.emit({ name: 'skillsChanged', payload: {} });
      return skillList([localSkill('notes')]);
    };
    await renderWithHost(<SkillsSettings />, h, 'settings');
    expect(await screen.findByText('notes')).toBeTruthy();
    await act(async () => undefined);
    expect(h.of('listSkills')).toHaveLength(1);
    h.replies.listSkills = () => skillList([localSkill('notes'), localSkill('letters')]);
    h.emit({ name: 'skillsChanged', payload: {} });
    expect(await screen.findByText('letters')).toBeTruthy();
    expect(h.of('listSkills')).toHaveLength(2);
  });

  it('a switch the host refuses says so, naming the skill', async () => {
    const h = fakeHost({
      replies: {
        listSkills: () => skillList([localSkill('notes')]),
        setSkillEnabled: () => {
          throw new Error('The skill is gone');
        },
      },
    });
    await renderWithHost(<SkillsSettings />, h, 'settings');
    fireEvent.click(await screen.findByRole('switch', { name: 'Offer notes to the model' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not switch notes: The skill is gone');
  });

  it('in the desktop app chooses the folder with the native picker', async () => {
    const h = fakeHost({
      info: { mode: 'electron' },
      replies: {
        pickFolder: () => ({ path: '/home/me/skills' }),
        updateSettings: (patch: { skillsFolder: string }) => ({ ...DEFAULT_SETTINGS, ...patch }),
      },
    });
    await renderWithHost(<SkillsSettings />, h, 'settings');
    fireEvent.click(screen.getByRole('button', { name: 'Choose folder' }));
    await waitFor(() => expect(h.of('updateSettings')).toEqual([{ skillsFolder: '/home/me/skills' }]));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('/home/me/skills')).toBeTruthy();
  });
});
