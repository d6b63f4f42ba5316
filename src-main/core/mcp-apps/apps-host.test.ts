/**
 * MCP Apps in the core, against e2e/fixtures/app-lab.mjs (a real subprocess): the extension is
 * declared, an app's `ui://` resource is read through its server (audited, cached until the lists
 * change), its frame gets a one-time frame page with a CSP built from `_meta.ui.csp`, and what the
 * app asks passes the model's rules — consent with the app named, visibility, its own server only.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentAuditEntry } from '@contract';
import { startScriptedLlm, type ScriptedLlm } from '../chat/test-support/scripted-llm';
import { startHost } from '../../test-support/tool-host';
import { waitFor } from '../servers/wait';
import { answerTool } from '../../test-support/answers';

const PARENT = 'http://127.0.0.1:4321';

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.stop();
});

async function ready() {
  const t = startHost();
  t.host.appFrames.setParentOrigins([PARENT]);
  const id = await t.fixture('app-lab.mjs', { env: [{ key: 'HOST_PORT', value: '4321' }] });
  return { t, id };
}

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    request.on('error', reject);
  });
}

const uses = async (t: ReturnType<typeof startHost>, action: string): Promise<ContentAuditEntry[]> =>
  (await t.api.listContentAudit({ limit: 200 })).entries.filter((e) => e.action === action);

describe('MCP Apps in the host', () => {
  it('declares the extension with the MIME type it renders, and task support for sampling and elicitation', async () => {
    const { t, id } = await ready();
    const outcome = await t.api.runTool({ serverId: id, tool: 'client-capabilities', args: {} });
    const declared = JSON.parse((outcome.blocks[0] as { text: string }).text) as Record<string, unknown>;
    // Beside the skills extension (each extension is its own area's; they merge per id).
    expect(declared.extensions).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      'io.modelcontextprotocol/skills': {},
    });
    expect(declared.tasks).toMatchObject({ requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } });
  });

  it('reads the app through its server once, serves a one-time frame page with its CSP, reads again after list_changed', async () => {
    const { t, id } = await ready();
    const tools = await t.api.listTools({ serverId: id });
    expect(tools.find((tool) => tool.name === 'counter-view')?.app).toEqual({
      resourceUri: 'ui://app-lab/counter.html',
      visibility: ['model', 'app'],
    });
    const grant = await t.api.openAppView({ serverId: id, tool: 'counter-view', parentOrigin: PARENT });
    expect(grant.html).toContain('Add one');
    expect(grant.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [], refused: [] });
    expect(grant.frameUrl.startsWith(`${grant.frameOrigin}/frame/`)).toBe(true);
    expect(new URL(grant.frameOrigin).hostname).toBe('127.0.0.1');

    const page = await get(grant.frameUrl);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("connect-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-src 'none'");
    // The proxy's sandbox comes with its policy (the frame has no sandbox attribute): no popups, top navigation or modals.
    expect(page.headers['content-security-policy']).toMatch(/; sandbox allow-scripts allow-same-origin allow-forms$/);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.body).toContain(`data-parent-origin="${PARENT}"`);
    expect((await get(grant.frameUrl)).status).toBe(404); // once only
    expect((await get(`${grant.frameOrigin}/proxy.js`)).body).toContain('sandbox-proxy-ready');
    expect((await get(`${grant.frameOrigin}/`)).status).toBe(404);
    expect((await get(`${grant.frameOrigin}/proxy.js`, { Host: 'evil.example' })).status).toBe(403);
    await expect(t.api.openAppView({ serverId: id, tool: 'counter-view', parentOrigin: 'http://evil.example' })).rejects.toMatchObject({
      code: 'forbidden',
    });

    await t.api.openAppView({ serverId: id, tool: 'counter-view', parentOrigin: PARENT });
    expect(await uses(t, 'app-ui')).toHaveLength(1); // cached per server
    await t.api.runTool({ serverId: id, tool: 'change-lists', args: {} });
    await waitFor(async () => {
      await t.api.openAppView({ serverId: id, tool: 'counter-view', parentOrigin: PARENT });
      return (await uses(t, 'app-ui')).length === 2;
    });
    await expect(t.api.openAppView({ serverId: id, tool: 'wrong-type-view', parentOrigin: PARENT })).rejects.toThrow(
      /cannot be shown: it is text\/plain/,
    );
    await expect(t.api.openAppView({ serverId: id, tool: 'model-only', parentOrigin: PARENT })).rejects.toThrow(/has no app/);
  });

  it('builds the CSP from _meta.ui.csp: declared origins only, Patchbay’s own and malformed entries refused', async () => {
    const { t, id } = await ready();
    const grant = await t.api.openAppView({ serverId: id, tool: 'hostile-view', parentOrigin: PARENT });
    expect(grant.csp.connectDomains).toHaveLength(1);
    expect(grant.csp.connectDomains[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(grant.csp.refused).toEqual([
      'ws://127.0.0.1:4321',
      'http://127.0.0.1:4321',
      "'unsafe-eval'",
      'https://example.com; script-src *',
      'http://127.0.0.1:*',
    ]);
    const header = String((await get(grant.frameUrl)).headers['content-security-policy']);
    expect(header).toContain(`connect-src ${grant.csp.connectDomains[0]};`);
    expect(header).not.toMatch(/unsafe-eval|4321|script-src \*/);
  });

  it('an app’s tool call asks like the model’s (the app named), standing decisions apply, visibility holds', async () => {
    const { t, id } = await ready();
    const { viewId } = await t.api.openAppView({ serverId: id, tool: 'counter-view', parentOrigin: PARENT });
    const since = t.events.length;
    const call = t.api.callToolFromApp({ viewId, tool: 'app-increment', args: {} });
    const asked = await t.asked('tool', undefined, since);
    expect(asked).toMatchObject({ origin: 'app', tool: 'app-increment', serverName: 'app-lab' });
    await answerTool(t.api, { id: asked.id, decision: 'always_allow' });
    expect((await call).result).toMatchObject({ content: [{ type: 'text', text: '1' }] });
    // Always allow holds for the next app call: no dialog.
    expect((await t.api.callToolFromApp({ viewId, tool: 'app-increment', args: {} })).result).toMatchObject({
      content: [{ text: '2' }],
    });
    expect(t.countAsked('tool')).toBe(1);
    const refused = await t.api.callToolFromApp({ viewId, tool: 'model-only', args: {} });
    expect(refused.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/not offered to the server's app/) }] });
    const audit = (await t.api.listToolAudit({ serverId: id })).entries;
    expect(audit.map((e) => [e.tool, e.origin, e.decision])).toEqual([
      ['model-only', 'app', 'denied'],
      ['app-increment', 'app', 'allowed'],
      ['app-increment', 'app', 'allowed'],
    ]);
    // The Protocol log names the app as the one who asked.
    const protocol = await t.api.queryLogs({ serverId: id, stream: 'protocol', method: 'tools/call', limit: 50 });
    expect(protocol.entries.some((e) => e.text.includes('— from the app of app-lab'))).toBe(true);

    await t.api.closeAppView({ viewId });
    await expect(t.api.callToolFromApp({ viewId, tool: 'app-increment', args: {} })).rejects.toThrow(/closed/);
  });

  it('reads for the app are audited as the app’s; its model context goes with the next message, shown there', async () => {
    const { t, id } = await ready();
    const conversation = await t.api.createConversation();
    const { viewId } = await t.api.openAppView({
      serverId: id,
      tool: 'counter-view',
      parentOrigin: PARENT,
      conversationId: conversation.id,
    });
    expect((await t.api.readResourceFromApp({ viewId, uri: 'app-lab://notes' })).result).toMatchObject({
      contents: [{ text: 'the notes' }],
    });
    expect(await uses(t, 'app-read')).toEqual([expect.objectContaining({ target: 'app-lab://notes', serverName: 'app-lab' })]);

    const outside = await t.api.openAppView({ serverId: id, tool: 'counter-view', parentOrigin: PARENT });
    await expect(t.api.setAppModelContext({ viewId: outside.viewId, content: [{ type: 'text', text: 'x' }] })).rejects.toThrow(
      /not shown in a conversation/,
    );
    await t.api.setAppModelContext({ viewId, content: [{ type: 'text', text: 'first' }] });
    const context = await t.api.setAppModelContext({
      viewId,
      content: [{ type: 'text', text: 'The count is 7' }],
      structuredContent: { count: 7 },
    });
    expect(context.text).toContain('The count is 7');
    const sent = await t.api.sendMessage({ conversationId: conversation.id, text: 'What is the count?' });
    const block = sent.content.find((b) => b.type === 'resource');
    expect(block).toMatchObject({ origin: 'app', name: 'Context from the app of counter-view', uri: 'ui://app-lab/counter.html' });
    expect((block as { text: string }).text).toContain('"count": 7');
    expect((block as { text: string }).text).not.toContain('first'); // only the last update
  });

  it('tools kept for the app are never offered to the model', async () => {
    const { t, id } = await ready();
    await t.api.setApiKey({ apiKey: 'sk-ant-apps-test' });
    await t.api.updateSettings({ anthropicBaseUrl: llm.url });
    await llm.reset();
    await llm.script([{ type: 'text', text: 'Hello.' }]);
    const conversation = await t.api.createConversation();
    await t.api.setConversationServers({ id: conversation.id, serverIds: [id] });
    await t.api.sendMessage({ conversationId: conversation.id, text: 'hi' });
    const [request] = await waitFor(async () => {
      const requests = await llm.messageRequests();
      return requests.length > 0 ? requests : undefined;
    });
    const offered = ((request.body?.tools ?? []) as { name: string }[]).map((tool) => tool.name).join(' ');
    expect(offered).toContain('model-only');
    expect(offered).toContain('counter-view');
    expect(offered).not.toContain('app-increment');
  });
});
