/**
 * What Patchbay asks a server, one method per MCP request: each named for its error messages
 * (`tools/call "echo"`), tagged with who asked for the Protocol log (never sent), and given the SDK
 * options it needs (the called tool's definition for the output-schema check, no response cache for a
 * read). How a request goes out — on which session, with which timeouts, once more after a session
 * expiry — is the connection's (`ServerConnection.request`), so this part reads as the list of requests.
 */
import type {
  CallToolResult,
  Client,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  McpSubscription,
  ReadResourceResult,
  RequestOptions,
  StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { withInitiator } from '../sdk-internals/wire-initiator';
import type { RequestCallOptions } from './request-runner';
import type { ServerCatalog } from './server-state';

export abstract class ServerRequests {
  /** Tools, resources and prompts of the current (or last) run. */
  abstract get catalog(): ServerCatalog;

  /** Sends one request (`send` makes it on the session's client); failures reject with a `ServerRequestError`. */
  protected abstract request<T>(
    label: string,
    send: (client: Client, options: RequestOptions) => Promise<T>,
    options?: RequestCallOptions,
  ): Promise<T>;

  /**
   * Calls a tool. A tool-level failure comes back as `isError` in the result; everything else
   * (not ready, timeout, cancelled, crash, JSON-RPC error) rejects with a `ServerRequestError`.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options?: RequestCallOptions): Promise<CallToolResult> {
    const params = withInitiator({ name, arguments: args }, options?.initiator);
    // The definition from the catalog: the SDK checks the result against its output schema with it
    // (it keeps no list of its own: see response-cache.ts).
    const toolDefinition = this.catalog.tools.find((tool) => tool.name === name);
    return this.request(`tools/call "${name}"`, (client, o) => client.callTool(params, { ...o, toolDefinition }), options);
  }
  /**
   * Reads a resource; failures reject with a `ServerRequestError`. Never served from the SDK's response
   * cache: a read is what the user asked for now (and a large body is not worth keeping twice).
   */
  readResource(uri: string, options?: RequestCallOptions): Promise<ReadResourceResult> {
    const params = withInitiator({ uri }, options?.initiator);
    return this.request(`resources/read "${uri}"`, (client, o) => client.readResource(params, { ...o, cacheMode: 'bypass' }), options);
  }
  /** Asks for completions of a prompt argument or template variable (`completion/complete`). */
  complete(params: CompleteRequest['params'], options?: RequestCallOptions): Promise<CompleteResult> {
    return this.request('completion/complete', (client, o) => client.complete(params, o), options);
  }
  /** 2025 era: `resources/subscribe` for one URI. */
  subscribeResource(uri: string, options?: RequestCallOptions): Promise<unknown> {
    return this.request(`resources/subscribe "${uri}"`, (client, o) => client.subscribeResource({ uri }, o), options);
  }
  /** 2025 era: `resources/unsubscribe` for one URI. */
  unsubscribeResource(uri: string, options?: RequestCallOptions): Promise<unknown> {
    return this.request(`resources/unsubscribe "${uri}"`, (client, o) => client.unsubscribeResource({ uri }, o), options);
  }
  /**
   * 2026 era: opens a `subscriptions/listen` stream for updates of these resource URIs; resolves once
   * the server acknowledged it. Updates arrive as `notifications/resources/updated` on the client.
   */
  listenForResources(uris: string[], options?: RequestCallOptions): Promise<McpSubscription> {
    return this.request('subscriptions/listen', (client, o) => client.listen({ resourceSubscriptions: uris }, o), options);
  }
  /** Gets a prompt; failures reject with a `ServerRequestError`. */
  getPrompt(name: string, args: Record<string, string> = {}, options?: RequestCallOptions): Promise<GetPromptResult> {
    return this.request(`prompts/get "${name}"`, (client, o) => client.getPrompt({ name, arguments: args }, o), options);
  }

  /**
   * Sends a request the SDK has no method for (the 2025 era's task messages, a task-augmented
   * `tools/call`), with the schema its result must match; same timeout, cancellation and crash rules.
   */
  sendRequest<T>(
    label: string,
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: StandardSchemaV1<unknown, T>,
    options?: RequestCallOptions,
  ): Promise<T> {
    const tagged = { ...request, params: withInitiator({ ...request.params }, options?.initiator) };
    return this.request(label, (client, o) => client.request(tagged, resultSchema, o) as Promise<T>, options);
  }
}
