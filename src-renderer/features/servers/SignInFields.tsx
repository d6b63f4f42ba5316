import { useId, type ReactNode } from 'react';
import type { ClientAuthKind, ServerConfigView, SignInMode } from '@contract';
import { Field } from '../../ui/Field';
import { SECRET_PLACEHOLDER } from './key-value-lines';
import type { FormErrors, ServerDraft } from './server-form-model';
import type { EditDraft } from './server-form-model';

interface SignInFieldsProps {
  draft: ServerDraft;
  errors: FormErrors;
  /** The server being edited: which secrets it has stored (never their values). */
  stored?: ServerConfigView;
  edit: EditDraft;
}

const MODES: Record<SignInMode, { label: string; hint: string }> = {
  browser: { label: 'As you, in the browser', hint: 'The usual way: Sign in on the card opens the sign-in page in your browser.' },
  application: {
    label: 'As an application',
    hint: 'For servers your organisation runs for tools and bots: Patchbay gets the token itself with the client credentials, no browser.',
  },
  organization: {
    label: 'Through your organisation',
    hint: "Your organisation's identity provider vouches for you (token exchange): no browser, no separate sign-in per server.",
  },
};

const CLIENT_AUTH: Record<ClientAuthKind, string> = {
  client_secret: 'Client secret',
  private_key_jwt: 'Private key (signed JWT)',
  workload_jwt: 'Workload identity (token from a command)',
};

/**
 * How a remote server signs in when it asks for OAuth, under Advanced: in the browser (optionally
 * with a client registered in advance), as an application, or through the organisation's identity
 * provider. Secrets are write-only: a stored one shows as "stored", never its value.
 */
export function SignInFields({ draft, errors, stored, edit }: SignInFieldsProps) {
  const sameClient = stored?.oauthClientId === draft.oauthClientId.trim();
  const mode = draft.signInMode;
  return (
    <div className="sign-in-fields">
      <Choice<SignInMode>
        legend="Sign in"
        value={mode}
        options={Object.fromEntries(Object.entries(MODES).map(([key, { label }]) => [key, label])) as Record<SignInMode, string>}
        onChange={(signInMode) => edit({ signInMode })}
        hint={MODES[mode].hint}
      />
      <TextField
        label="OAuth client ID"
        value={draft.oauthClientId}
        error={errors.oauthClientId}
        hint={
          mode === 'browser'
            ? 'Only for servers whose sign-in needs a client registered in advance.'
            : "Patchbay's client ID at the server's authorization server."
        }
        onChange={(oauthClientId) => edit({ oauthClientId }, 'oauthClientId')}
      />
      {mode === 'application' && (
        <Choice<ClientAuthKind>
          legend="Client authentication"
          value={draft.oauthClientAuth}
          options={CLIENT_AUTH}
          onChange={(oauthClientAuth) => edit({ oauthClientAuth })}
        />
      )}
      {mode === 'application' && draft.oauthClientAuth === 'workload_jwt' && (
        <TextField
          label="Workload token command"
          value={draft.oauthAssertionCommand}
          error={errors.oauthAssertionCommand}
          hint={
            <>
              Prints the identity token the workload&apos;s platform issues (a JWT), e.g. <code>cat /var/run/secrets/tokens/mcp</code>. Run
              at each sign-in, never stored; runs in your shell, without Patchbay&apos;s keys in its environment.
            </>
          }
          onChange={(oauthAssertionCommand) => edit({ oauthAssertionCommand }, 'oauthAssertionCommand')}
        />
      )}
      {mode === 'application' && draft.oauthClientAuth === 'private_key_jwt' ? (
        <Field
          label="Private key (PEM)"
          error={errors.oauthPrivateKey}
          hint={
            stored?.oauthPrivateKeySet && sameClient
              ? 'A key is stored: leave this empty to keep it.'
              : 'RSA, EC (P-256/384/521) or Ed25519, unencrypted; the signing algorithm follows the key. Stored encrypted.'
          }
        >
          {(c) => (
            <textarea
              {...c}
              rows={4}
              spellCheck={false}
              autoComplete="off"
              placeholder={stored?.oauthPrivateKeySet && sameClient ? SECRET_PLACEHOLDER : '-----BEGIN PRIVATE KEY-----'}
              value={draft.oauthPrivateKey}
              onChange={(e) => edit({ oauthPrivateKey: e.target.value }, 'oauthPrivateKey')}
            />
          )}
        </Field>
      ) : (
        <SecretField
          label="OAuth client secret"
          value={draft.oauthClientSecret}
          error={errors.oauthClientSecret}
          storedSet={stored?.oauthClientSecretSet === true && sameClient}
          hint={
            mode === 'browser' || (mode === 'application' && draft.oauthClientAuth === 'workload_jwt')
              ? 'If the client has one. Stored encrypted.'
              : 'Stored encrypted.'
          }
          onChange={(oauthClientSecret) => edit({ oauthClientSecret }, 'oauthClientSecret')}
        />
      )}
      {mode !== 'browser' && (
        <TextField
          label="Authorization server (issuer)"
          value={draft.oauthIssuer}
          error={errors.oauthIssuer}
          hint="The credentials are sent there only. Empty: the one the server's metadata names."
          placeholder="https://auth.example.com"
          onChange={(oauthIssuer) => edit({ oauthIssuer }, 'oauthIssuer')}
        />
      )}
      {mode === 'organization' && <IdentityProviderFields draft={draft} errors={errors} stored={stored} edit={edit} />}
    </div>
  );
}

/** The organisation's identity provider: where the token exchange happens, and how Patchbay gets your ID token. */
function IdentityProviderFields({ draft, errors, stored, edit }: SignInFieldsProps) {
  const sameClient = stored?.idpClientId === draft.idpClientId.trim();
  return (
    <>
      <TextField
        label="Identity provider"
        value={draft.idpIssuer}
        error={errors.idpIssuer}
        hint="Its issuer URL (its token endpoint is found from its metadata)."
        placeholder="https://sso.example.com"
        onChange={(idpIssuer) => edit({ idpIssuer }, 'idpIssuer')}
      />
      <TextField
        label="Identity provider token endpoint"
        value={draft.idpTokenEndpoint}
        error={errors.idpTokenEndpoint}
        hint="Only if its metadata does not say. Empty: discovered."
        onChange={(idpTokenEndpoint) => edit({ idpTokenEndpoint }, 'idpTokenEndpoint')}
      />
      <TextField
        label="Identity provider client ID"
        value={draft.idpClientId}
        error={errors.idpClientId}
        hint="Patchbay's client at your identity provider."
        onChange={(idpClientId) => edit({ idpClientId }, 'idpClientId')}
      />
      <SecretField
        label="Identity provider client secret"
        value={draft.idpClientSecret}
        error={errors.idpClientSecret}
        storedSet={stored?.idpClientSecretSet === true && sameClient}
        hint="If that client has one. Stored encrypted."
        onChange={(idpClientSecret) => edit({ idpClientSecret }, 'idpClientSecret')}
      />
      <TextField
        label="ID token command"
        value={draft.idpIdTokenCommand}
        error={errors.idpIdTokenCommand}
        hint={
          <>
            Prints your current ID token (or JSON with <code>id_token</code>), e.g. your SSO tool&apos;s <code>get-token</code>. Runs in
            your shell, without Patchbay&apos;s keys in its environment.
          </>
        }
        onChange={(idpIdTokenCommand) => edit({ idpIdTokenCommand }, 'idpIdTokenCommand')}
      />
    </>
  );
}

function TextField(props: {
  label: string;
  value: string;
  error?: string;
  hint?: ReactNode;
  placeholder?: string;
  onChange(value: string): void;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {(c) => (
        <input
          {...c}
          value={props.value}
          placeholder={props.placeholder}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

function SecretField(props: {
  label: string;
  value: string;
  error?: string;
  storedSet: boolean;
  hint: string;
  onChange(value: string): void;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.storedSet ? 'A secret is stored: leave this empty to keep it.' : props.hint}>
      {(c) => (
        <input
          {...c}
          type="password"
          autoComplete="new-password"
          placeholder={props.storedSet ? SECRET_PLACEHOLDER : undefined}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A radio group (native radios sharing a name: the arrow keys move between them). */
function Choice<T extends string>(props: {
  legend: string;
  value: T;
  options: Record<T, string>;
  hint?: string;
  onChange(value: T): void;
}) {
  const id = useId();
  return (
    <fieldset role="radiogroup" aria-labelledby={`${id}-legend`} aria-describedby={props.hint ? `${id}-hint` : undefined}>
      <legend id={`${id}-legend`}>{props.legend}</legend>
      {(Object.keys(props.options) as T[]).map((key) => (
        <label key={key} className="inline">
          <input type="radio" name={`${id}-choice`} value={key} checked={props.value === key} onChange={() => props.onChange(key)} />
          {props.options[key]}
        </label>
      ))}
      {props.hint && (
        <p id={`${id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
    </fieldset>
  );
}
