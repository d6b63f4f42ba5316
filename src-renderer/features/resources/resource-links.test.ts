import { describe, expect, it } from 'vitest';
import { resolveResourceLink } from './resource-links';

const at = (href: string, base: string) => resolveResourceLink(href, base, 'docs');

describe('links inside a Markdown resource', () => {
  it('resolve relative links against the resource’s URI, to be read through its server', () => {
    expect(at('architecture.md', 'file:///srv/docs/README.md')).toEqual({ kind: 'resource', uri: 'file:///srv/docs/architecture.md' });
    expect(at('../guide/intro.md', 'docs://handbook/ops/README.md')).toEqual({ kind: 'resource', uri: 'docs://handbook/guide/intro.md' });
    expect(at('/api.md', 'docs://handbook/ops/README.md')).toEqual({ kind: 'resource', uri: 'docs://handbook/api.md' });
    expect(at('notes.md', 'https://example.com/wiki/home.md')).toEqual({ kind: 'resource', uri: 'https://example.com/wiki/notes.md' });
  });

  it('leave web links to the browser and headings to the document', () => {
    expect(at('https://modelcontextprotocol.io/', 'file:///srv/docs/README.md')).toEqual({ kind: 'external' });
    expect(at('mailto:team@example.com', 'file:///srv/docs/README.md')).toEqual({ kind: 'external' });
    expect(at('#install', 'file:///srv/docs/README.md')).toEqual({ kind: 'anchor' });
  });

  it('say why a link cannot be followed: another host, a URI without folders, an unknown scheme', () => {
    expect(at('//elsewhere.example/x.md', 'docs://handbook/README.md')).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('leads out of docs’s resources (docs://handbook)'),
    });
    expect(at('other', 'notes:today')).toMatchObject({ kind: 'refused', reason: expect.stringContaining('has no folders') });
    expect(at('ftp://example.com/x', 'file:///srv/README.md')).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('does not open “ftp:” links'),
    });
  });
});
