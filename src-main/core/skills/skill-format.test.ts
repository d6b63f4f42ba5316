/** The Agent Skills format checks: frontmatter parsing, the field-by-field comparison, digests. */
import { describe, expect, it } from 'vitest';
import { digestOf, nameProblem, parseSkillMd, sameFrontmatter } from './skill-format';
import { readEntry } from './skill-entry';

describe('SKILL.md frontmatter', () => {
  it('splits frontmatter and body, and says what is missing', () => {
    const parsed = parseSkillMd('---\nname: pdf\ndescription: PDFs\nmetadata:\n  version: "2"\n---\n\n# Body\n');
    expect(parsed).toEqual({ frontmatter: { name: 'pdf', description: 'PDFs', metadata: { version: '2' } }, body: '\n# Body\n' });
    expect(parseSkillMd('# No frontmatter')).toEqual({ error: expect.stringMatching(/does not begin with YAML frontmatter/) });
    expect(parseSkillMd('---\ndescription: x\n---\n')).toEqual({ error: 'its frontmatter has no name' });
    expect(parseSkillMd('---\nname: x\n---\n')).toEqual({ error: 'its frontmatter has no description' });
    expect(parseSkillMd('---\nname: [x\n---\n')).toEqual({ error: expect.stringMatching(/not valid YAML/) });
    // Aliases are refused (no "billion laughs" expansion).
    expect(parseSkillMd('---\na: &a [1]\nb: [*a, *a]\nname: x\ndescription: y\n---\n')).toEqual({
      error: expect.stringMatching(/not valid YAML/),
    });
  });

  it('compares field by field, naming the first that differs', () => {
    expect(sameFrontmatter({ name: 'a', description: 'b' }, { description: 'b', name: 'a' })).toBeUndefined();
    expect(sameFrontmatter({ name: 'a', description: 'evil' }, { name: 'a', description: 'b' })).toBe('description');
    expect(sameFrontmatter({ name: 'a', description: 'b', license: 'MIT' }, { name: 'a', description: 'b' })).toBe('license');
  });

  it('checks names and digests as SEP-2640 formats them', () => {
    expect(nameProblem('pdf-processing')).toBeUndefined();
    expect(nameProblem('PDF')).toMatch(/lowercase/);
    expect(digestOf(Buffer.from('abc'))).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('skill entries', () => {
  const file = (uri: string) => ({ uri, digest: `sha256:${'0'.repeat(64)}`, size: 10 });
  const entry = (extra: Record<string, unknown>) => ({
    uri: 'skill://acme/refunds/SKILL.md',
    frontmatter: { name: 'refunds', description: 'Refunds' },
    resources: [file('skill://acme/refunds/SKILL.md')],
    ...extra,
  });

  it('keeps a good entry and refuses bad ones in words', () => {
    expect(readEntry(entry({}))).toMatchObject({ name: 'refunds', root: 'skill://acme/refunds' });
    expect(readEntry(entry({}))?.problem).toBeUndefined();
    expect(readEntry(entry({ resources: undefined }))?.problem).toMatch(/no list of files/);
    // A dynamic skill is kept loadable (its files are found with directory reads at load time).
    expect(readEntry(entry({ resources: 'dynamic' }))).toMatchObject({ resources: 'dynamic' });
    expect(readEntry(entry({ resources: 'dynamic' }))?.problem).toBeUndefined();
    expect(readEntry(entry({ frontmatter: { name: 'other', description: 'x' } }))?.problem).toMatch(
      /ends in "refunds" but its frontmatter names it "other"/,
    );
    expect(readEntry(entry({ resources: [file('skill://acme/refunds/SKILL.md'), file('skill://acme/refunds/../x')] }))?.problem).toMatch(
      /leaves the skill's folder/,
    );
    expect(readEntry(entry({ resources: [file('skill://acme/refunds/SKILL.md'), file('skill://other/x')] }))?.problem).toMatch(
      /outside the skill's folder/,
    );
    const big = [file('skill://acme/refunds/SKILL.md'), { ...file('skill://acme/refunds/big.bin'), size: 50 * 1024 * 1024 }];
    expect(readEntry(entry({ resources: big }))?.problem).toMatch(/over the 16/);
    expect(readEntry(entry({ resources: [{ uri: 'skill://acme/refunds/SKILL.md', digest: 'md5:x', size: 1 }] }))?.problem).toMatch(
      /64 lowercase hex/,
    );
    expect(readEntry({ uri: 42 })).toBeUndefined();
  });
});
