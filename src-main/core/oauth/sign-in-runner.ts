/**
 * Runs the sign-ins the user starts for one server: at most one at a time (a newer one replaces the
 * pending one, whose browser tab then lands on "not expecting this sign-in"), opening the browser
 * through the host's port when there is one, and reporting how each ended. Stale outcomes (a replaced
 * sign-in, a sign-in finishing after sign-out or shutdown) are dropped.
 */
import { HostCallError, type SignInStart } from '@contract';
import { OAuthHopRefusedError } from './oauth-hop-guard';
import { signInFailureMessage } from './sign-in-errors';
import { startSignIn, type SignInFlowOptions, type StartedSignIn } from './sign-in-flow';

export interface SignInRunnerOptions {
  serverName(): string;
  /** What this sign-in needs (server URL, scope, store…), read when it starts. */
  flowOptions(): SignInFlowOptions;
  openExternal?: (url: string) => Promise<void>;
  /** A sign-in failed: `message` is ready for the server card. */
  onFailed(message: string): void;
  /** A sign-in stored its tokens. */
  onSucceeded(): Promise<void>;
}

export class SignInRunner {
  private flow: StartedSignIn | undefined;
  /** Bumped by every start and cancel, so a sign-in still starting knows it was replaced. */
  private generation = 0;

  constructor(private readonly options: SignInRunnerOptions) {}

  get pending(): boolean {
    return this.flow !== undefined;
  }

  /** Starts a sign-in; resolves once the authorization URL is known (and opened, when the host can). */
  async start(): Promise<SignInStart & { authorizationUrl: string }> {
    const generation = this.cancel('a newer sign-in replaced this one');
    const name = this.options.serverName();
    let started: StartedSignIn;
    try {
      started = await startSignIn(this.options.flowOptions());
    } catch (error) {
      const message = signInFailureMessage(error, name);
      if (generation === this.generation) this.options.onFailed(message);
      throw new HostCallError(error instanceof OAuthHopRefusedError ? 'forbidden' : 'internal', message);
    }
    if (generation !== this.generation) {
      started.cancel(new Error('a newer sign-in replaced this one'));
      throw new HostCallError('internal', `A newer sign-in to ${name} replaced this one.`);
    }
    this.flow = started;
    void this.finish(started, name);
    const url = started.authorizationUrl.href;
    return { authorizationUrl: url, openedByHost: await this.open(url) };
  }

  /** Stops the pending sign-in (sign-out, shutdown); returns the new generation. */
  cancel(reason: string): number {
    this.flow?.cancel(new Error(reason));
    this.flow = undefined;
    return ++this.generation;
  }

  private async finish(started: StartedSignIn, name: string): Promise<void> {
    try {
      await started.completion;
    } catch (error) {
      if (this.flow !== started) return;
      this.flow = undefined;
      this.options.onFailed(signInFailureMessage(error, name));
      return;
    }
    if (this.flow !== started) return;
    this.flow = undefined;
    await this.options.onSucceeded();
  }

  private async open(url: string): Promise<boolean> {
    if (!this.options.openExternal) return false;
    try {
      await this.options.openExternal(url);
      return true;
    } catch {
      return false; // the page opens it instead
    }
  }
}
