import type { AuthView, SignInStart } from '@contract';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { useSignIn } from './use-sign-in';

export interface ServerAuthProps {
  auth: AuthView;
  signIn(): Promise<SignInStart>;
  signOut(): Promise<unknown>;
}

/** How the token is presented, in words (the server card, signed in). */
const TOKEN_TYPE_TEXT = {
  DPoP: 'Token: DPoP (bound to a key kept on this computer)',
  Bearer: 'Token: Bearer',
} as const;

/** What a remote server's OAuth sign-in stands at, and the one button that moves it on. */
export function ServerAuth({ auth, signIn, signOut }: ServerAuthProps) {
  // Without a browser (as an application, through the organisation) Sign in opens no tab.
  const signing = useSignIn(signIn, { browser: auth.mode === undefined });
  const calls = useTrackedCalls<'sign-out'>();
  const signedIn = auth.status === 'signed-in';
  const failure = signing.failure
    ? `Could not start sign-in: ${signing.failure}`
    : calls.failure
      ? `Could not sign out: ${calls.failure.message}`
      : null;

  return (
    <div className="server-auth">
      <p role="status" className="auth-state">
        {stateText(auth)}
      </p>
      {auth.legacy && <p className="muted">Signs in the 2025-03-26 way (no resource metadata)</p>}
      {signedIn && auth.tokenType && <p className="muted">{TOKEN_TYPE_TEXT[auth.tokenType]}</p>}
      {!signedIn && auth.error && <p className="field-error">Last sign-in failed: {auth.error}</p>}
      {!signedIn && signing.link && (
        <p>
          The browser did not open a new tab:{' '}
          <a href={signing.link} target="_blank" rel="noopener noreferrer">
            Open the sign-in page
          </a>{' '}
          <span className="muted">({hostOf(signing.link)})</span>
        </p>
      )}
      {failure && (
        <div role="alert" className="warning card-error">
          {failure}{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              signing.dismiss();
              calls.dismiss();
            }}
          >
            Dismiss
          </button>
        </div>
      )}
      <div className="actions">
        {signedIn ? (
          <button type="button" disabled={calls.isPending('sign-out')} onClick={() => void calls.run('sign-out', signOut)}>
            Sign out
          </button>
        ) : (
          <button type="button" disabled={signing.pending} onClick={signing.start}>
            Sign in
          </button>
        )}
      </div>
    </div>
  );
}

function stateText(auth: AuthView): string {
  switch (auth.status) {
    case 'signed-out':
      return 'Not signed in';
    case 'signing-in':
      if (auth.mode === 'application') return 'Signing in as an application…';
      if (auth.mode === 'organization') return 'Signing in through your organisation…';
      return 'Waiting for sign-in in your browser…';
    case 'signed-in':
      if (auth.mode === 'application') return `Signed in as application ${auth.account ?? ''}`.trim();
      if (auth.mode === 'organization') return `Signed in as ${auth.account ?? 'you'} through your organisation`;
      // The host already falls back to the authorization server's host when the tokens name nobody.
      return auth.account ? `Signed in as ${auth.account}` : 'Signed in';
    case 'expired':
      return 'Needs sign-in again';
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
