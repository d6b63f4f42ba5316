/** The OAuth area's public surface (host.ts, the conformance runner, tests). */
export { createOAuthArea, type OAuthArea, type OAuthAreaOptions } from './oauth-area';
export {
  createHeadlessBrowser,
  visitAuthorizationUrl,
  type HeadlessBrowser,
  type HeadlessBrowserOptions,
  type HeadlessVisit,
} from './headless-browser';
export { OAuthHopRefusedError, type LookupAll } from './oauth-hop-guard';
export type { PreregisteredClient } from './oauth-provider';
export { openSignInSettings, type SignInSettings } from './sign-in-settings';
