/**
 * Type-checked examples of the contract's main methods (the MCP SDK's `*.examples.ts` pattern): this
 * file is compiled with the contract (`tsconfig.contract.json`), so an example that no longer matches
 * the contract fails `tsc`; docs/architecture.md quotes its regions (`//#region name`). Every bridge
 * (IPC in the desktop app, the WebSocket in web mode, the tests' in-process API) gives a `HostApi`.
 */
import type { HostApi, HostEvent } from '@contract';

/** Where an example shows what it got (the examples run nowhere; they only have to compile). */
type Show = (...values: unknown[]) => void;

/** Adds a local server, starts it, and waits until its view says Ready (or why not). */
export async function addAndStart(api: HostApi, show: Show): Promise<string> {
  //#region addServer
  const added = await api.addServer({
    name: 'Everything',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-everything'],
  });
  const started = await api.startServer({ id: added.config.id });
  if (started.runtime.status !== 'ready') show(`${added.config.name} is ${started.runtime.status}`);
  //#endregion addServer
  return added.config.id;
}

/** Runs a tool as the user (the click is the consent): one outcome, a denial or a tool error included. */
export async function runTool(api: HostApi, serverId: string, show: Show): Promise<void> {
  //#region runTool
  const outcome = await api.runTool({ serverId, tool: 'echo', args: { message: 'hello' } });
  // `ok`, `tool_error`, `denied`, `cancelled`…; a refusal's `error.message` names the server and the tool.
  show(outcome.status, outcome.error?.message ?? outcome.blocks);
  //#endregion runTool
}

/** Reads a resource (audited, capped preview; `getResourcePart` pages the rest). */
export async function readResource(api: HostApi, serverId: string, show: Show): Promise<void> {
  //#region readResource
  const read = await api.readResource({ serverId, uri: 'test://static/resource/1' });
  show(read);
  //#endregion readResource
}

/** Asks the model in a new conversation; its tool calls come back as questions to answer. */
export async function chat(api: HostApi, subscribe: (listener: (event: HostEvent) => void) => void): Promise<void> {
  //#region sendMessage
  subscribe((event) => {
    // Every tool call the model asks for waits for the user's answer in the one question queue.
    if (event.name === 'questionAsked' && event.payload.kind === 'tool')
      void api.answerQuestion({ id: event.payload.id, answer: { kind: 'tool', decision: 'allow_once' } });
  });
  const conversation = await api.createConversation({});
  await api.sendMessage({ conversationId: conversation.id, text: 'What is 2 + 3? Use a tool.' });
  //#endregion sendMessage
}
