/**
 * The SDK's `Client` with one seam added: host areas may wrap the handler of a request the server
 * sends (through `ClientFeatures.wrapHandler`). Tasks need it: a task-augmented
 * `sampling/createMessage` or `elicitation/create` must be answered at once with a `CreateTaskResult`
 * while the real request runs on, and the SDK's own wrapper would reject that answer as an invalid
 * sampling or elicitation result. The wrap sees the SDK-validated handler, so a request that is not
 * a task goes exactly the SDK's way.
 *
 * This folder (sdk-internals/) is the one place that reaches into the SDK's protected members
 * (`_wireCodec`, `_negotiatedProtocolVersion`, `_wrapHandler`, `_outboundMetaEnvelope`);
 * sdk-internals.test.ts fails by name when an SDK update changes one of them.
 */
import {
  Client,
  type ClientContext,
  type ClientOptions,
  type Implementation,
  type JSONRPCRequest,
  type Result,
} from '@modelcontextprotocol/client';

/** A server→client request handler as the SDK stores it. */
export type RequestHandler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;
/** Wraps the (already validated) handler of `method`; returns it unchanged when not interested. */
export type HandlerWrap = (method: string, handler: RequestHandler) => RequestHandler;

export class HostClient extends Client {
  private readonly wrap: HandlerWrap | undefined;

  constructor(info: Implementation, options: ClientOptions, wrap?: HandlerWrap) {
    super(info, options);
    this.wrap = wrap;
  }

  /**
   * Readies the 2025 era's result validation on later turns, once per process: the SDK builds its
   * wire schemas lazily, on the first request that needs them (milliseconds of zod construction), and
   * zod compiles each schema's fast path on its first parse (a few ms per list). After a
   * `server/discover` probe the first such request is `initialize`, sent only once the probe was
   * answered, and the lists follow it: all of that sat between the server's first answer and ready.
   * Done while the probe waits for a server still starting, one step per turn (so a window's call is
   * answered between two), it costs that server nothing.
   */
  warmLegacySchemasSoon(): void {
    if (legacySchemasWarm) return;
    legacySchemasWarm = true;
    const steps = Object.entries(LEGACY_WARM_UP);
    const next = () => {
      const step = steps.shift();
      // Negotiated meanwhile: the codec of this client is no longer the legacy one; the work is done anyway.
      if (!step || this._negotiatedProtocolVersion !== undefined) return;
      this._wireCodec().validateResult(step[0], step[1]);
      setImmediate(next);
    };
    setImmediate(next);
  }

  // The base constructor may register handlers before `wrap` is set: those are the SDK's own.
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const validated = super._wrapHandler(method, handler);
    return this.wrap ? this.wrap(method, validated) : validated;
  }
}

/** The legacy era's schemas were built, or are about to be (see `warmLegacySchemasSoon`). */
let legacySchemasWarm = false;

/** A valid result of each request a start sends, one item per list: parsing it compiles what a real one needs. */
const LEGACY_WARM_UP: Record<string, unknown> = {
  initialize: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'warm-up', version: '0' } },
  'tools/list': { tools: [{ name: 'warm-up', inputSchema: { type: 'object' } }] },
  'resources/list': { resources: [{ uri: 'warm-up:/', name: 'warm-up' }] },
  'resources/templates/list': { resourceTemplates: [{ uriTemplate: 'warm-up:/{x}', name: 'warm-up' }] },
  'prompts/list': { prompts: [{ name: 'warm-up' }] },
};
