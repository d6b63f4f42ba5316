/**
 * The SDK's `Client` with one seam added: host areas may wrap the handler of a request the server
 * sends (through `ClientFeatures.wrapHandler`). Tasks need it: a task-augmented
 * `sampling/createMessage` or `elicitation/create` must be answered at once with a `CreateTaskResult`
 * while the real request runs on, and the SDK's own wrapper would reject that answer as an invalid
 * sampling or elicitation result. The wrap sees the SDK-validated handler, so a request that is not
 * a task goes exactly the SDK's way.
 *
 * It also keeps the result validator of each spec method per era instead of letting the SDK rebuild
 * (and re-probe) it for every request — the tool-call hot path (see `request`).
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
   * schema: a failing zod parse whose error message is formatted and thrown away, on every tool call
   * (≈ 10–20 µs of CPU each in the bench). Passing the same validator explicitly takes the same road
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

/** Methods the SDK era-checks only when sent without a schema (see `Protocol.request`). */
const EXTENSION_REUSED = new Set(['tasks/get', 'tasks/cancel']);

function isSchema(value: unknown): value is StandardSchemaV1 {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}
