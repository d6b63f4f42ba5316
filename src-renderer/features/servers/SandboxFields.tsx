import { useContext, useId, type ReactNode } from 'react';
import { registryBlocked, registryMessage, registryNeed, SANDBOX_NETWORKS, type SandboxNetwork, type SandboxSupport } from '@contract';
import type { EditDraft } from './server-form-model';
import type { FormErrors, ServerDraft } from './server-form-model';
import { Select } from '../../ui/Select';
import { Switch } from '../../ui/Switch';
import { HelpTip } from '../../ui/HelpTip';
import { AppStoreContext } from '../../stores/use-app-store';
import { Alert } from '../../ui/Alert';

export const NETWORK_LABELS: Record<SandboxNetwork, string> = { allowed: 'Allowed', blocked: 'Blocked', hosts: 'Only these hosts' };

/**
 * Sandbox and Network of a local server. A new one starts with Sandbox on (network allowed) where this
 * machine can run one; turning it off says in a line what that means. Where this machine cannot run a
 * sandbox the form says so in one line, with what to install and that servers run unsandboxed; a
 * server already set to run sandboxed keeps its switch (so it can be turned off) and will refuse to
 * start rather than run unsandboxed behind the user's back.
 */
export function SandboxFields({
  draft,
  errors,
  edit,
  support,
}: {
  draft: ServerDraft;
  errors: FormErrors;
  edit: EditDraft;
  /** Whether this machine can run a sandbox (the host says; unknown counts as no). */
  support?: SandboxSupport;
}) {
  const id = useId();
  // Read when the form renders (it is made afresh each time it opens); absent outside the app (tests of the form alone).
  const required = useContext(AppStoreContext)?.getState().rules?.organisation?.sandboxRequired === true;
  // A package runner fetches the server as it starts: say beforehand when the chosen network stops it.
  const need = registryNeed(
    draft.command,
    draft.args.split(/\r?\n/).map((arg) => arg.trim()),
  );
  const registryWarning =
    draft.sandbox && need && registryBlocked(need, draft.sandboxNetwork, draft.sandboxHosts.split(/[\s,]+/).filter(Boolean))
      ? registryMessage(need)
      : undefined;
  const unsupported =
    support?.supported === false ? support.reason : support === undefined ? 'Sandboxes are not available here.' : undefined;
  return (
    <fieldset className="sandbox-fields" aria-describedby={`${id}-note`}>
      {/* The switch below says "Sandbox" where it is seen; a visible legend would say it twice. */}
      <legend className="visually-hidden">Sandbox and network</legend>
      <Switch
        checked={draft.sandbox}
        disabled={unsupported !== undefined && !draft.sandbox}
        onChange={(on) => edit({ sandbox: on }, 'sandbox')}
      >
        Sandbox
      </Switch>
      {required && <p className="hint">Set by your organisation: local servers start only in their sandbox.</p>}
      <p id={`${id}-note`} className="hint">
        {unsupported ?? 'Sees only the folders you share with it.'}
        {unsupported === undefined && (
          <HelpTip about="Sandbox">
            Sees only the system, its own files, the folders you share with it and a scratch folder of its own. Changing its folders
            restarts it.
          </HelpTip>
        )}
      </p>
      {draft.sandbox && (
        <>
          <div className="field">
            <label htmlFor={`${id}-network`}>Network</label>
            <Select
              id={`${id}-network`}
              value={draft.sandboxNetwork}
              onChange={(next) => edit({ sandboxNetwork: next as SandboxNetwork }, 'sandbox')}
              options={SANDBOX_NETWORKS.map((network) => ({ value: network, label: NETWORK_LABELS[network] }))}
            />
          </div>
          {draft.sandboxNetwork === 'hosts' && (
            <HostList id={`${id}-hosts`} label="Hosts" placeholder="api.example.com" draft={draft} edit={edit}>
              One host name per line; everything else is blocked.
              <HelpTip about="Hosts">
                <code>*.example.com</code> for its subdomains, <code>host:443</code> for one port. Programs that use a proxy (npm, pip, uv,
                curl) reach these through Patchbay.
              </HelpTip>
            </HostList>
          )}
          {draft.sandboxNetwork === 'allowed' && (
            // The internet, not this computer: its own ports only when listed (the same list, read differently).
            <HostList id={`${id}-local`} label="Ports on this computer" placeholder="localhost:8080" draft={draft} edit={edit}>
              The internet, through Patchbay; this computer only at the ports listed here.
              <HelpTip about="Network allowed">
                It has a network of its own: programs that use a proxy (npm, pip, uv, curl) get out through Patchbay, which keeps this
                computer's own ports and sockets shut unless listed (<code>localhost:8080</code>).
              </HelpTip>
            </HostList>
          )}
        </>
      )}
      {unsupported === undefined && !draft.sandbox && (
        // Running unsandboxed is a choice the form shows, never a quiet default.
        <p className="warning sandbox-off">Runs unsandboxed: it can read and write everything you can, and signal Patchbay itself.</p>
      )}
      {registryWarning && <p className="warning sandbox-registry">{registryWarning}</p>}
      <Alert message={errors.sandbox} tone="field-error" />
    </fieldset>
  );
}

/** The sandbox's host list (the policy's `hosts`), under the label its Network gives it. */
function HostList({
  id,
  label,
  placeholder,
  draft,
  edit,
  children,
}: {
  id: string;
  label: string;
  placeholder: string;
  draft: ServerDraft;
  edit: EditDraft;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={2}
        spellCheck={false}
        placeholder={placeholder}
        value={draft.sandboxHosts}
        aria-describedby={`${id}-hint`}
        onChange={(e) => edit({ sandboxHosts: e.target.value }, 'sandbox')}
      />
      <p id={`${id}-hint`} className="hint">
        {children}
      </p>
    </div>
  );
}
