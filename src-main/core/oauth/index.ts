/** The OAuth area's public surface (host.ts, the conformance runner). */
export { createOAuthArea, createOAuthSource } from './oauth-area';
export { createHeadlessBrowser } from './headless-browser';
export { storedSignInSettings } from './sign-in-settings';
