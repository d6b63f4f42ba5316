/**
 * Resources through the contract, as the Resources tab uses them: pages of the host's complete list,
 * reads with capped previews and slices, templates, audit rows — against server-everything (stdio and
 * Streamable HTTP) and the content-lab fixture's bad inputs.
 */
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expandUriTemplate, type HostApi } from '@contract';
import { expectProcessGone, FIXTURES_DIR } from '../../test-support/fixtures';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { startEverythingHttp } from '../servers/test-support/http-servers';

/** Disposes the host at the end of the test and checks the server's process group is gone. */
async function leavesNothing(t: TestHost, id: string): Promise<void> {
  const pid = (await t.api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.pid;
  onTestFinished(async () => {
    await t.host.dispose();
    if (pid) await expectProcessGone(pid);
  });
}

const LAB = path.join(FIXTURES_DIR, 'content-lab.mjs');
/** Adds the content-lab fixture with these flags and waits until it is ready. */
const lab = (t: TestHost, name: string, ...flags: string[]) => t.addServer({ name, command: process.execPath, args: [LAB, ...flags] });

async function everyResource(api: HostApi, serverId: string) {
  const first = await api.listResources({ serverIds: [serverId], limit: 500 });
  return first.items;
}

describe('resources of server-everything', () => {
  it('lists the static documents, reads one, expands the text and blob templates, and audits every read', async () => {
    const t = startHost();
    const id = await t.everything();
    await leavesNothing(t, id);

    const resources = await everyResource(t.api, id);
    const doc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/') && r.mimeType === 'text/markdown');
    expect(doc).toMatchObject({ serverId: id, serverName: 'everything', name: expect.any(String) });

    const read = await t.api.readResource({ serverId: id, uri: doc!.uri });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ kind: 'text', mimeType: 'text/markdown', uri: doc!.uri });
    expect((read.contents[0] as { text: string }).text.length).toBeGreaterThan(10);

    const { templates } = await t.api.listResourceTemplates({ serverIds: [id] });
    const text = templates.find((tpl) => tpl.name === 'Dynamic Text Resource')!;
    const blob = templates.find((tpl) => tpl.name === 'Dynamic Blob Resource')!;
    expect(text).toMatchObject({
      uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
      variables: [{ name: 'resourceId', required: true }],
    });
    expect(text.problem).toBeUndefined();

    const dynamic = await t.api.readResource({
      serverId: id,
      uri: expandUriTemplate(text.uriTemplate, { resourceId: '7' }),
      purpose: 'template',
    });
    expect(dynamic.contents[0]).toMatchObject({ kind: 'text', text: expect.stringContaining('Resource 7: This is a plaintext resource') });
    const binary = await t.api.readResource({
      serverId: id,
      uri: expandUriTemplate(blob.uriTemplate, { resourceId: '8' }),
      purpose: 'template',
    });
    // A text/plain blob is not inline media: the preview describes it, the rest comes in slices.
    expect(binary.contents[0]).toMatchObject({ kind: 'blob', mimeType: 'text/plain', bytes: expect.any(Number) });
    const slice = await t.api.getResourcePart({ readId: binary.readId, index: 0, offset: 0, limit: 1000 });
    expect(Buffer.from(slice.text, 'base64').toString('utf8')).toContain('Resource 8: This is a base64 blob');

    const audit = await t.api.listContentAudit({});
    expect(audit.entries.map((e) => [e.action, e.target, e.outcome])).toEqual([
      ['template', 'demo://resource/dynamic/blob/8', 'ok'],
      ['template', 'demo://resource/dynamic/text/7', 'ok'],
      ['read', doc!.uri, 'ok'],
    ]);
    expect(audit.entries[2]).toMatchObject({ serverName: 'everything', chars: expect.any(Number) });
  });

  it('works the same over Streamable HTTP', async () => {
    const server = await startEverythingHttp('streamableHttp');
    const t = startHost();
    const id = await t.addServer({ name: 'everything-http', transport: 'http', url: server.url });
    onTestFinished(() => t.host.dispose());
    const resources = await everyResource(t.api, id);
    expect(resources.length).toBeGreaterThan(3);
    const read = await t.api.readResource({ serverId: id, uri: 'demo://resource/dynamic/text/3', purpose: 'template' });
    expect(read.contents[0]).toMatchObject({ kind: 'text', text: expect.stringContaining('Resource 3') });
  });
});

describe('resources of the content-lab fixture', () => {
  it('pages through 10,000 resources from the host copy and filters them', async () => {
    const t = startHost();
    const big = await lab(t, 'lab-10k', '--resources', '10000', '--page-size', '100');
    await leavesNothing(t, big);
    const runtime = (await t.api.getSnapshot()).servers.find((s) => s.config.id === big)!.runtime;
    // 100 pages: more than the SDK's own 64-page walk would take.
    expect(runtime.counts?.resources).toBe(10_000 + 9);
    const page = await t.api.listResources({ serverIds: [big], offset: 5000, limit: 50 });
    expect(page).toMatchObject({ offset: 5000, total: 10_009, unfiltered: 10_009, notes: [] });
    expect(page.items).toHaveLength(50);
    expect(page.items[0].uri).toBe('lab://items/4992');
    const filtered = await t.api.listResources({ serverIds: [big], filter: 'ITEM-099', limit: 500 });
    expect(filtered.total).toBe(10);
    expect(filtered.items.map((r) => r.name)).toContain('item-0995');
    const annotated = (await t.api.listResources({ serverIds: [big], filter: 'readme' })).items[0];
    expect(annotated).toMatchObject({
      title: 'Read me',
      annotations: { audience: ['user'], priority: 0.9, lastModified: '2025-01-12T15:00:58Z' },
    });
  });

  it('stops a pagination loop and a list past 100,000 with a message, and the server stays usable', async () => {
    const t = startHost();
    const looping = await lab(t, 'looping', '--loop', '--page-size', '5');
    await leavesNothing(t, looping);
    const page = await t.api.listResources({ serverIds: [looping] });
    expect(page.notes).toEqual([expect.stringMatching(/^Server "looping" sent a page cursor it had already sent \(a pagination loop\)/)]);
    expect(page.total).toBe(15);

    const huge = await lab(t, 'huge', '--resources', '100500', '--page-size', '2000');
    await leavesNothing(t, huge);
    const capped = await t.api.listResources({ serverIds: [huge], offset: 99_990, limit: 100 });
    expect(capped.total).toBe(100_000);
    expect(capped.items).toHaveLength(10);
    expect(capped.notes).toEqual(['Server "huge" offers more than 100,000 resources; Patchbay keeps the first 100,000.']);
    expect((await t.api.readResource({ serverId: huge, uri: 'lab://items/0001' })).contents[0]).toMatchObject({ text: 'Item 1 (read 1)' });
  });

  it('renders each content kind safely: several contents, images and audio inline, other blobs described, SVG as text', async () => {
    const t = startHost();
    const id = await t.fixture('content-lab.mjs');
    await leavesNothing(t, id);
    const read = (uri: string) => t.api.readResource({ serverId: id, uri });
    expect((await read('lab://multi/pair')).contents.map((c) => (c as { text: string }).text)).toEqual(['first part', 'second part']);
    expect((await read('lab://media/pixel.png')).contents[0]).toMatchObject({
      kind: 'blob',
      mimeType: 'image/png',
      data: expect.any(String),
    });
    expect((await read('lab://media/tone.wav')).contents[0]).toMatchObject({
      kind: 'blob',
      mimeType: 'audio/wav',
      data: expect.any(String),
    });
    const pdf = (await read('lab://files/report.pdf')).contents[0];
    expect(pdf).toMatchObject({ kind: 'blob', mimeType: 'application/pdf', bytes: 26 * 40 });
    expect(pdf).not.toHaveProperty('data');
    // SVG is text the renderer shows as source, never an image.
    expect((await read('lab://docs/logo.svg')).contents[0]).toMatchObject({ kind: 'text', mimeType: 'image/svg+xml' });
  });

  it('says clearly what went wrong: an invalid URI, a read error, an unknown resource, a malformed template', async () => {
    const t = startHost();
    const id = await t.fixture('content-lab.mjs');
    await leavesNothing(t, id);
    await expect(t.api.readResource({ serverId: id, uri: 'not a uri' })).rejects.toMatchObject({
      code: 'invalid_input',
      data: [expect.objectContaining({ message: expect.stringContaining('Not a valid URI') })],
    });
    await expect(t.api.readResource({ serverId: id, uri: 'lab://broken' })).rejects.toThrow(/content-lab.*disk on fire/);
    await expect(t.api.readResource({ serverId: id, uri: 'lab://nowhere' })).rejects.toThrow(/Resource not found: lab:\/\/nowhere/);
    // The server is still fine.
    expect((await t.api.readResource({ serverId: id, uri: 'lab://items/0002' })).contents[0]).toMatchObject({ text: 'Item 2 (read 1)' });
    const { templates } = await t.api.listResourceTemplates({ serverIds: [id] });
    expect(templates.find((tpl) => tpl.name === 'Broken template')).toMatchObject({
      variables: [],
      problem: expect.stringContaining('is never closed'),
    });
    expect(templates.find((tpl) => tpl.name === 'Search')?.variables).toEqual([
      { name: 'q', required: false },
      { name: 'limit', required: false },
    ]);
    const failures = (await t.api.listContentAudit({})).entries.filter((e) => e.outcome === 'error');
    expect(failures.map((e) => e.target)).toEqual(['lab://nowhere', 'lab://broken']);
    expect(failures[1].error).toContain('disk on fire');
  });

  it('reads a 50 MB resource as a capped preview, serves the rest in slices, and keeps the connection', async () => {
    const t = startHost();
    const id = await lab(t, 'big', '--big-mb', '50');
    await leavesNothing(t, id);
    const read = await t.api.readResource({ serverId: id, uri: 'lab://big/text' });
    const [content] = read.contents;
    expect(content).toMatchObject({ kind: 'text', truncated: { shown: 100_000, total: 50 * 1024 * 1024 } });
    expect((content as { text: string }).text).toHaveLength(100_000);
    const tail = await t.api.getResourcePart({ readId: read.readId, index: 0, offset: 50 * 1024 * 1024 - 10, limit: 100 });
    expect(tail).toEqual({ text: 'xxxxxxxxx\n', offset: 50 * 1024 * 1024 - 10, total: 50 * 1024 * 1024 });
    const blob = await t.api.readResource({ serverId: id, uri: 'lab://big/blob' });
    expect(blob.contents[0]).toMatchObject({ kind: 'blob', bytes: 50 * 1024 * 1024 });
    // The renderer downloads in slices of at most 512 KB of base64.
    const first = await t.api.getResourcePart({ readId: blob.readId, index: 0, offset: 0, limit: 512 * 1024 });
    expect(first.text).toHaveLength(512 * 1024);
    await expect(t.api.getResourcePart({ readId: blob.readId, index: 0, limit: 600 * 1024 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect((await t.api.readResource({ serverId: id, uri: 'lab://items/0003' })).contents[0]).toMatchObject({ text: 'Item 3 (read 1)' });
  });
});
