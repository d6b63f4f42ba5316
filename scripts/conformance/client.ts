/**
 * The client the conformance suite drives (see scripts/conformance.mjs): Patchbay's real core — the
 * host, its server fleet and remote transport, consent broker, elicitation and OAuth areas — with a
 * scripted user in place of the window:
 *
 * - it adds the suite's server URL as a remote server, as the settings form would, set up the way a
 *   user would for what the scenario hands over (`serverSignIn`): the client ID and secret the suite
 *   pre-registered; for the extension scenarios, sign-in as an application (secret or private key)
 *   or through the organisation's identity provider (its ID token printed by a command, as an SSO
 *   helper would);
 * - when the server card says "Sign in", it clicks Sign in; the "browser" is headless and follows
 *   the authorization server's redirects to Patchbay's loopback listener;
 * - for the skills scenarios, it opens the server's skills and reads each one (a load, verified) where
 *   the scenario is about loading;
 * - it calls every tool the server lists as the model would, and a test policy answers the consent
 *   dialog with "Allow once" and an elicitation form with its defaults (what the form shows first);
 * - it stops the server (ending its session) and exits 0, or exits 1 saying what went wrong.
 *
 *   MCP_CONFORMANCE_SCENARIO=<name> [MCP_CONFORMANCE_CONTEXT=<json>] tsx scripts/conformance/client.ts <server-url>
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ElicitationRequestView, type ServerInput, type ServerRuntime, type ToolView } from '@contract';
import { createHost } from '../../src-main/core/host';
import { createHeadlessBrowser } from '../../src-main/core/oauth';
import { inProcessApi } from '../../src-main/core/rpc/dispatch';
import { waitFor } from '../../src-main/core/servers/wait';

/** The client ID metadata document URL the suite's CIMD scenario expects a client to present. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_SIGN_INS = 3;

const serverUrl = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
/** What a scenario hands the client (the pre-registered client, the application's key, the identity provider…). */
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
  /** The tool calls the scenario asks for, with their arguments (e.g. `http-custom-headers`). */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
};
/** Scenarios whose server expects an application (client credentials) rather than a person. */
const APPLICATION_SCENARIOS = new Set(['auth/client-credentials-basic', 'auth/client-credentials-jwt']);
const log = (message: string) => process.stderr.write(`[patchbay] ${message}\n`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-conformance-'));
const browser = createHeadlessBrowser();
const host = createHost({ mode: 'web', dataDir, appVersion: '0.1.0', openExternal: (url) => browser.open(url) });
const api = inProcessApi(host.handlers);

/** The form's first state: every field at its schema default. */
function formDefaults(request: ElicitationRequestView): Record<string, string | number | boolean | string[]> {
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, field] of Object.entries(request.requestedSchema?.properties ?? {})) {
    const value = (field as { default?: unknown }).default;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') content[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) content[name] = value as string[];
  }
  return content;
}

// The scripted user: consent, elicitation and sampling dialogs as they appear.
host.events.subscribe((event) => {
  if (event.name !== 'questionAsked') return;
  const { id, kind } = event.payload;
  if (kind === 'tool') void api.answerQuestion({ id, answer: { kind, decision: 'allow_once' } }).catch((e) => log(`consent: ${e}`));
  if (kind === 'elicitation') {
    void api
      .answerQuestion({ id, answer: { kind, action: 'accept', content: formDefaults(event.payload) } })
      .catch((e) => log(`elicitation: ${e}`));
  }
  if (kind === 'sampling') void api.answerQuestion({ id, answer: { kind, action: 'reject' } }).catch((e) => log(`sampling: ${e}`));
});

async function runtime(id: string): Promise<ServerRuntime> {
  const server = (await api.getSnapshot()).servers.find((s) => s.config.id === id);
  if (!server) throw new Error('the server disappeared');
  return server.runtime;
}

/** Waits for the server to settle: ready, or failed (needing a sign-in or not). */
async function settled(id: string): Promise<ServerRuntime> {
  return waitFor(
    async () => {
      const r = await runtime(id);
      return r.status === 'ready' || r.status === 'error' || (r.status === 'crashed' && !r.restart) ? r : undefined;
    },
    { timeoutMs: 45_000, what: 'the server to connect' },
  );
}

const needsSignIn = (r: ServerRuntime) => r.auth !== undefined && ['signed-out', 'expired'].includes(r.auth.status) && r.status !== 'ready';

/** Connected, signing in (Sign in on the card) as often as the server asks, within reason. */
async function connect(id: string): Promise<void> {
  for (let signIns = 0; ; signIns++) {
    const r = await settled(id);
    if (r.status === 'ready') return;
    if (!needsSignIn(r) || signIns >= MAX_SIGN_INS)
      throw new Error(`server not ready: ${r.reason ?? r.status}${r.auth?.error ? ` (${r.auth.error})` : ''}`);
    log(`sign in (${r.reason ?? r.auth?.status})`);
    await api.signIn({ id });
    await waitFor(async () => (await runtime(id)).auth?.status !== 'signing-in', { timeoutMs: 45_000, what: 'the sign-in to finish' });
  }
}

/** Arguments a model would plausibly send: defaults, else a simple value of the declared type. */
function argsFor(schema: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown; enum?: unknown[] }>;
  for (const [name, prop] of Object.entries(properties)) {
    if (prop.default !== undefined) args[name] = prop.default;
    else if (prop.enum?.length) args[name] = prop.enum[0];
    else if (prop.type === 'number' || prop.type === 'integer') args[name] = 1;
    else if (prop.type === 'boolean') args[name] = true;
    else if (prop.type === 'string') args[name] = 'conformance';
  }
  return args;
}

/**
 * What the model would send for a step a scenario describes in words rather than in its context:
 * `json-schema-2020-12-preservation` asks for the focal tool's inputSchema, as the host listed it,
 * passed back verbatim to `json_schema_echo` (the host's copy is what is checked for lost keywords).
 */
function scenarioArgs(tool: ToolView, tools: ToolView[]): Record<string, unknown> | undefined {
  if (scenario === 'json-schema-2020-12-preservation' && tool.name === 'json_schema_echo') {
    const focal = tools.find((t) => t.name !== tool.name);
    return focal ? { schema: focal.inputSchema } : undefined;
  }
  return undefined;
}

/** The tool calls to make: those the scenario lists, else every listed tool once. */
function plannedCalls(tools: ToolView[]): { name: string; args: Record<string, unknown> }[] {
  if (context.toolCalls?.length) return context.toolCalls.map((c) => ({ name: c.name, args: c.arguments }));
  return tools.map((tool) => ({ name: tool.name, args: scenarioArgs(tool, tools) ?? argsFor(tool.inputSchema) }));
}

/** The sign-in part of the server form, filled in as a user would for this scenario. */
function serverSignIn(): Partial<ServerInput> {
  const secret = context.client_secret ? { oauthClientSecret: context.client_secret } : {};
  if (context.idp_id_token && context.idp_issuer) {
    // The organisation's SSO helper: a command that prints the user's current ID token.
    const script = path.join(dataDir, 'print-id-token.cjs');
    fs.writeFileSync(script, `process.stdout.write(${JSON.stringify(context.idp_id_token)});\n`);
    return {
      signInMode: 'organization',
      oauthClientId: context.client_id ?? '',
      ...secret,
      idpIssuer: context.idp_issuer,
      // The suite's identity provider publishes partial OpenID metadata, so its token endpoint is given outright.
      idpTokenEndpoint: context.idp_token_endpoint ?? '',
      idpClientId: context.idp_client_id ?? '',
      idpIdTokenCommand: `"${process.execPath}" "${script}"`,
    };
  }
  if (context.private_key_pem) {
    return {
      signInMode: 'application',
      oauthClientId: context.client_id ?? '',
      oauthClientAuth: 'private_key_jwt',
      oauthPrivateKey: context.private_key_pem,
    };
  }
  if (APPLICATION_SCENARIOS.has(scenario)) return { signInMode: 'application', oauthClientId: context.client_id ?? '', ...secret };
  return { oauthClientId: context.client_id ?? '', ...secret };
}

/**
 * The skills scenarios (SEP-2640): the user opens the server's Skills tab (the host lists its skills
 * when it connects) and, where the scenario is about loading (`…-verify-…`), opens each skill to read
 * it, which loads and verifies it as the model's `load_skill` would. A refusal is the expected answer
 * to a tampered skill: logged, not a failure of the run.
 */
async function skillSteps(id: string): Promise<void> {
  const list = await waitFor(
    async () => {
      const listed = await api.listSkills({ serverId: id });
      return listed.servers[0] && listed.servers[0].state !== 'listing' ? listed : undefined;
    },
    { timeoutMs: 45_000, what: 'the skills to be listed' },
  );
  log(
    `skills/list: ${list.skills.map((s) => s.name).join(', ') || 'none'}${list.servers[0]?.message ? ` (${list.servers[0].message})` : ''}`,
  );
  if (!scenario.includes('-verify-')) return;
  for (const skill of list.skills) {
    const read = await api.readSkill({ key: skill.key }).then(
      (content) => `loaded (${content.text.length} characters)`,
      (error: unknown) => `refused: ${error instanceof Error ? error.message : String(error)}`,
    );
    log(`skill ${skill.name}: ${read}`);
  }
}

async function main(): Promise<void> {
  log(`scenario ${scenario} against ${serverUrl}`);
  await api.updateSettings({ oauthClientMetadataUrl: CIMD_URL });
  const added = await api.addServer({ name: 'conformance', transport: 'http', url: serverUrl, ...serverSignIn(), autoRestart: false });
  const id = added.config.id;
  await connect(id);
  if (scenario.startsWith('sep-2640-')) await skillSteps(id);
  for (const call of plannedCalls(await api.listTools({ serverId: id }))) {
    for (let attempt = 0; ; attempt++) {
      const done = await host.tools.callToolWithConsent({ serverId: id, tool: call.name, args: call.args, origin: 'model' });
      log(`tools/call ${call.name}: ${done.status}${done.error ? ` (${done.error.message})` : ''}`);
      if (done.status === 'ok' || done.status === 'tool_error') break;
      // The server answered with a JSON-RPC error (json-schema-ref-no-deref's server lists its tool
      // but has no tools/call handler: "Method not found"); the user sees that error and goes on.
      if (done.error?.kind === 'server-error') break;
      // A step-up (more scope) or an expired sign-in: the card says Sign in; the user clicks it and runs again.
      const r = await runtime(id);
      if (attempt >= MAX_SIGN_INS || !r.auth || !['signed-out', 'expired'].includes(r.auth.status))
        throw new Error(`tools/call ${call.name} failed: ${done.error?.message}`);
      await api.signIn({ id });
      await waitFor(async () => (await runtime(id)).auth?.status !== 'signing-in', { timeoutMs: 45_000, what: 'the sign-in to finish' });
      await connect(id);
    }
  }
  await api.stopServer({ id });
}

main()
  .then(
    () => 0,
    (error: unknown) => {
      log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    },
  )
  .then(async (code) => {
    await host.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(code);
  });
