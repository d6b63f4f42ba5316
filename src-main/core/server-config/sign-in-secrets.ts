/**
 * The secrets of a remote server's sign-in as they are stored: new values sealed, values sent
 * without a new one kept (the renderer never has them), and nothing kept that the chosen way of
 * signing in does not use — switching from a private key to a secret, or to the browser, leaves no
 * stray credential behind. A secret belongs to its client ID: a new ID without a new secret has none.
 */
import type { ServerInputParsed } from '@contract';
import { signingKeyOf } from './private-key';
import type { SecretBox } from '../secrets/secret-box';
import type { StoredServer } from './server-config-repository';

export interface SealedSignIn {
  oauthClientId: string;
  oauthClientSecret: Buffer | undefined;
  oauthPrivateKey: Buffer | undefined;
  idpClientSecret: Buffer | undefined;
}

/** What each credential is for, given the way of signing in. */
function uses(input: ServerInputParsed): { clientSecret: boolean; privateKey: boolean; idpSecret: boolean } {
  const remote = input.transport === 'http';
  const keyed = input.signInMode === 'application' && input.oauthClientAuth === 'private_key_jwt';
  return {
    clientSecret: remote && input.oauthClientId !== '' && !keyed,
    privateKey: remote && keyed,
    idpSecret: remote && input.signInMode === 'organization',
  };
}

export async function sealSignInSecrets(input: ServerInputParsed, box: SecretBox, existing?: StoredServer): Promise<SealedSignIn> {
  const use = uses(input);
  const sameClient = existing?.oauthClientId === input.oauthClientId;
  const sameIdpClient = existing?.idpClientId === input.idpClientId;
  const keep = async (fresh: string | undefined, stored: Buffer | undefined, same: boolean) =>
    fresh !== undefined && fresh !== '' ? box.seal(fresh) : fresh === undefined && same ? stored : undefined;
  return {
    oauthClientId: input.transport === 'http' ? input.oauthClientId : '',
    oauthClientSecret: use.clientSecret ? await keep(input.oauthClientSecret, existing?.oauthClientSecret, sameClient) : undefined,
    oauthPrivateKey: use.privateKey ? await keep(input.oauthPrivateKey, existing?.oauthPrivateKey, sameClient) : undefined,
    idpClientSecret: use.idpSecret ? await keep(input.idpClientSecret, existing?.idpClientSecret, sameIdpClient) : undefined,
  };
}

/** The sign-in credentials the chosen way needs and has neither new nor stored, and a key that cannot be read. */
export function checkSignInSecrets(
  input: ServerInputParsed,
  existing: StoredServer | undefined,
  issues: Array<{ path: (string | number)[]; message: string }>,
): void {
  if (input.transport !== 'http' || input.signInMode === 'browser') return;
  const sameClient = existing?.oauthClientId === input.oauthClientId;
  const has = (fresh: string | undefined, stored: Buffer | undefined) =>
    (fresh !== undefined && fresh !== '') || (fresh === undefined && sameClient && stored !== undefined);
  if (input.signInMode === 'application' && input.oauthClientAuth === 'private_key_jwt') {
    if (input.oauthPrivateKey !== undefined && input.oauthPrivateKey !== '') {
      try {
        signingKeyOf(input.oauthPrivateKey);
      } catch (error) {
        issues.push({ path: ['oauthPrivateKey'], message: (error as Error).message });
      }
    } else if (!has(input.oauthPrivateKey, existing?.oauthPrivateKey)) {
      issues.push({ path: ['oauthPrivateKey'], message: "Paste the application's private key" });
    }
  } else if (input.signInMode === 'application' && input.oauthClientAuth === 'workload_jwt') {
    // The workload's token is the credential: a client secret is optional (a public client sends none).
  } else if (!has(input.oauthClientSecret, existing?.oauthClientSecret)) {
    issues.push({ path: ['oauthClientSecret'], message: 'Enter the client secret' });
  }
}
