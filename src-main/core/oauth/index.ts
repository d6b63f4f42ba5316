/** The OAuth area's public surface (host.ts). */
export { createOAuthArea } from './oauth-area';
export { openSignInSettings } from './sign-in-settings';
