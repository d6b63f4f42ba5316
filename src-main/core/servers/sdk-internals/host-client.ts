/**
 * The SDK's `Client` with one seam added: host areas may wrap the handler of a request the server
 * sends (through `ClientFeatures.wrapHandler`). Tasks need it: a task-augmented
 * `sampling/createMessage` or `elicitation/create` must be answered at once with a `CreateTaskResult`
 * while the real request runs on, and the SDK's own wrapper would reject that answer as an invalid
 * sampling or elicitation result. The wrap sees the SDK-validated handler, so a request that is not
 * a task goes exactly the SDK's way.
 *
 * It also keeps the result validator of each spec method per era instead of letting the SDK rebuild
 * (and re-probe) it for every request — the tool-call hot path (see `request`; ≈ 8 µs of CPU a call,
 * docs/benchmarks.md; sdk-internals.test.ts fails when the probe runs per request again).
 *
 * This folder (sdk-internals/) is the one place that reaches into the SDK's protected members
 * (`_wireCodec`, `_negotiatedProtocolVersion`, `_wrapHandler`, `_outboundMetaEnvelope`) or relies on
 * its behaviour (request-abort.ts, wire-initiator.ts); sdk-internals.test.ts fails by name when an
 * SDK update changes one of them.
 */
import {
  Client,
  type ClientContext,
  type ClientOptions,
  type Implementation,
  type JSONRPCRequest,
  type Request,
  type RequestOptions,
  type Result,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';

/** A server→client request handler as the SDK stores it. */
export type RequestHandler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;
/** Wraps the (already validated) handler of `method`; returns it unchanged when not interested. */
export type HandlerWrap = (method: string, handler: RequestHandler) => RequestHandler;

/** The negotiated era's codec, as the SDK's role classes reach it (`_wireCodec()`). */
type EraCodec = ReturnType<HostClient['eraCodec']>;

export class HostClient extends Client {
  private readonly wrap: HandlerWrap | undefined;
  /** Per era codec, the result validator of each spec method sent so far (see `request`). */
  private readonly resultValidators = new WeakMap<EraCodec, Map<string, StandardSchemaV1 | null>>();

  constructor(info: Implementation, options: ClientOptions, wrap?: HandlerWrap) {
    super(info, options);
    this.wrap = wrap;
  }

  /**
   * A spec request without a result schema (every `callTool`, `readResource`, …) is sent with the
   * negotiated era's result validator, made once per method instead of once per request. The SDK
   * makes it per request, and first probes the era by validating `undefined` against the result
   * schema: a failing zod parse whose error message is formatted and thrown away, on every tool call.
   * Passing the same validator explicitly takes the same road
   * in the SDK (`_requestWithSchemaViaCodec` with the same codec): the era check still runs, results
   * are validated exactly as before. Anything else (no era negotiated yet, a schema of the caller's,
   * methods not in the era, `tasks/get`/`tasks/cancel` which the SDK era-checks differently) is left
   * to the SDK as is.
   */
  override request(request: Request, schemaOrOptions?: unknown, maybeOptions?: RequestOptions): Promise<never> {
    const send = super.request.bind(this) as (request: Request, schemaOrOptions?: unknown, maybeOptions?: RequestOptions) => Promise<never>;
    if (this._negotiatedProtocolVersion === undefined || isSchema(schemaOrOptions) || EXTENSION_REUSED.has(request.method)) {
      return send(request, schemaOrOptions, maybeOptions);
    }
    const validator = this.resultValidator(this.eraCodec(), request.method);
    return validator
      ? send(request, validator, schemaOrOptions as RequestOptions | undefined)
      : send(request, schemaOrOptions, maybeOptions);
  }

  /**
   * Readies the 2025 era's result validation on later turns, once per process: the SDK builds its
   * wire schemas lazily, on the first request that needs them (milliseconds of zod construction), and
   * zod compiles each schema's fast path on its first parse (a few ms per list). After a
   * `server/discover` probe the first such request is `initialize`, sent only once the probe was
   * answered, and the lists follow it: all of that sat between the server's first answer and ready.
   * Done while the probe waits for a server still starting, one step per turn (so a window's call is
   * answered between two), it costs that server nothing. Measured (docs/benchmarks.md, History, "start
   * path"): one server's Start → Ready went from 1.21× to 0.98× the bare SDK with it and the other
   * start-path changes of that row (not measured apart).
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

  private eraCodec() {
    return this._wireCodec();
  }

  /** The SDK's `codecResultValidator`, kept: null when the era has no result entry for the method. */
  private resultValidator(codec: EraCodec, method: string): StandardSchemaV1 | null {
    let byMethod = this.resultValidators.get(codec);
    if (!byMethod) this.resultValidators.set(codec, (byMethod = new Map()));
    let validator = byMethod.get(method);
    if (validator === undefined) {
      const probe = codec.validateResult(method, undefined);
      validator =
        !probe.ok && probe.reason === 'not-in-era'
          ? null
          : {
              '~standard': {
                version: 1,
                vendor: 'mcp-wire-codec',
                validate(value: unknown) {
                  const outcome = codec.validateResult(method, value);
                  if (outcome.ok) return { value: outcome.value };
                  return { issues: [{ message: outcome.reason === 'invalid' ? outcome.message : `not-in-era: ${method}` }] };
                },
              },
            };
      byMethod.set(method, validator);
    }
    return validator;
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

/** Methods the SDK era-checks only when sent without a schema (see `Protocol.request`). */
const EXTENSION_REUSED = new Set(['tasks/get', 'tasks/cancel']);

function isSchema(value: unknown): value is StandardSchemaV1 {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}
