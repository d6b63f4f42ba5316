/**
 * The SDK's `Client` with one seam added: host areas may wrap the handler of a request the server
 * sends (through `ClientFeatures.wrapHandler`). Tasks need it: a task-augmented
 * `sampling/createMessage` or `elicitation/create` must be answered at once with a `CreateTaskResult`
 * while the real request runs on, and the SDK's own wrapper would reject that answer as an invalid
 * sampling or elicitation result. The wrap sees the SDK-validated handler, so a request that is not
 * a task goes exactly the SDK's way.
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

  // The base constructor may register handlers before `wrap` is set: those are the SDK's own.
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const validated = super._wrapHandler(method, handler);
    return this.wrap ? this.wrap(method, validated) : validated;
  }
}
