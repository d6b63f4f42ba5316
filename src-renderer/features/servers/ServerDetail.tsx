import * as Tabs from '@radix-ui/react-tabs';
import { commandRisks, type EnvVarView, type LaunchFixField, type ServerConfigView, type ServerView } from '@contract';
import { CommandRiskList } from '../../ui/CommandRiskList';
import { VisibleText } from '../../ui/VisibleText';
import type { ServerTab } from '../../routing/routes';
import { ServerContextSection } from '../context-meter/ServerContextSection';
import { ServerLogs } from '../logs/ServerLogs';
import { PromptsPanel } from '../prompts/PromptsPanel';
import { ResourcesPanel } from '../resources/ResourcesPanel';
import { ServerFoldersSection } from '../roots/ServerFolders';
import { TasksPanel } from '../tasks/TasksPanel';
import { isRunningTask } from '../tasks/task-labels';
import { SkillsPanel } from '../skills/SkillsPanel';
import { ToolsPanel } from '../tools/ToolsPanel';
import { useAppStore } from '../../stores/use-app-store';
import { FailureOutput } from './FailureOutput';
import { LaunchProblemView } from './LaunchProblemView';
import { RuntimeFacts } from './RuntimeFacts';
import { SandboxBlockedNotice, SandboxMounts, sandboxText } from './ServerSandbox';
import { commandLine, PRESET_LABELS } from './server-status';
import { StatusBadge } from './StatusBadge';
import { SECRET_PLACEHOLDER } from './server-form-model';

export interface ServerDetailProps {
  server: ServerView;
  /** The open tab, and in Tools the open tool (both part of the address). */
  tab: ServerTab;
  tool?: string;
  /** Goes to another tab (or tool). */
  onNavigate(tab: ServerTab, tool?: string): void;
  onBack(): void;
  onEdit(id: string, field?: LaunchFixField): void;
  /** Re-runs the launch step by step (a stopped or failed server). */
  onDiagnose?(id: string): void;
}

/** One server in full: its configuration and what the host knows about it, in tabs. */
export function ServerDetail({ server, tab, tool, onNavigate, onBack, onEdit, onDiagnose }: ServerDetailProps) {
  const { config, runtime } = server;
  const runningTasks = useAppStore((s) => Object.values(s.tasks).filter((t) => t.serverId === config.id && isRunningTask(t.status)).length);
  const running = runtime.status === 'ready' || runtime.status === 'starting';
  return (
    <section aria-labelledby="server-detail-title" className="server-detail">
      <button type="button" className="link back" onClick={onBack}>
        <span aria-hidden="true">← </span>All servers
      </button>
      <div className="server-card-head">
        <h2 id="server-detail-title">{config.name}</h2>
        <StatusBadge runtime={runtime} />
        <button type="button" onClick={() => onEdit(config.id)}>
          Edit
        </button>
        {onDiagnose && (
          <button
            type="button"
            className="secondary"
            disabled={running}
            title={running ? 'Stop it first: Diagnose runs the launch in a process of its own.' : 'Run the launch step by step'}
            onClick={() => onDiagnose(config.id)}
          >
            Diagnose
          </button>
        )}
      </div>
      <Tabs.Root value={tab} onValueChange={(value) => onNavigate(value as ServerTab)} className="tabs">
        <Tabs.List aria-label={`${config.name} sections`} className="tab-list">
          <Tabs.Trigger value="overview">Overview</Tabs.Trigger>
          <Tabs.Trigger value="tools">
            Tools{runtime.counts ? <span className="tab-count"> {runtime.counts.tools.toLocaleString()}</span> : null}
          </Tabs.Trigger>
          <Tabs.Trigger value="skills">Skills</Tabs.Trigger>
          <Tabs.Trigger value="resources">
            Resources{runtime.counts ? <span className="tab-count"> {runtime.counts.resources.toLocaleString()}</span> : null}
          </Tabs.Trigger>
          <Tabs.Trigger value="prompts">
            Prompts{runtime.counts ? <span className="tab-count"> {runtime.counts.prompts.toLocaleString()}</span> : null}
          </Tabs.Trigger>
          <Tabs.Trigger value="tasks">Tasks{runningTasks > 0 ? <span className="tab-count"> {runningTasks}</span> : null}</Tabs.Trigger>
          <Tabs.Trigger value="logs">Logs</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview" className="card">
          <h3>Configuration</h3>
          <dl className="facts">
            {config.transport === 'http' ? (
              <>
                <dt>URL</dt>
                <dd>
                  <code>
                    <VisibleText text={config.url ?? ''} />
                  </code>
                </dd>
                <dt>Headers</dt>
                <dd>{pairsText(config.headers, ': ')}</dd>
                <dt>Sign-in</dt>
                <dd>{signInText(config)}</dd>
                {config.oauthClientId && (
                  <>
                    <dt>OAuth client</dt>
                    <dd>
                      <code>{config.oauthClientId}</code>
                      {config.signInMode === 'application' && config.oauthClientAuth === 'private_key_jwt'
                        ? config.oauthPrivateKeySet && ' (with a stored private key)'
                        : config.oauthClientSecretSet && ' (with a stored secret)'}
                    </dd>
                  </>
                )}
                {config.signInMode !== 'browser' && config.oauthIssuer && (
                  <>
                    <dt>Authorization server</dt>
                    <dd>
                      <code>{config.oauthIssuer}</code>
                    </dd>
                  </>
                )}
                {config.signInMode === 'application' && config.oauthClientAuth === 'workload_jwt' && (
                  <>
                    <dt>Workload token command</dt>
                    <dd>
                      <code>{config.oauthAssertionCommand}</code>
                    </dd>
                  </>
                )}
                {config.signInMode === 'organization' && (
                  <>
                    <dt>Identity provider</dt>
                    <dd>
                      <code>{config.idpIssuer}</code> (client <code>{config.idpClientId}</code>)
                    </dd>
                    <dt>ID token command</dt>
                    <dd>
                      <code>{config.idpIdTokenCommand}</code>
                    </dd>
                  </>
                )}
              </>
            ) : (
              <>
                <dt>Command line</dt>
                <dd>
                  <code>
                    <VisibleText text={commandLine(config.command, config.args)} />
                  </code>
                  <CommandRiskList
                    title="Check this command"
                    risks={commandRisks({
                      command: config.command,
                      args: config.args,
                      env: config.env.map(({ key, value }) => ({ key, value })),
                    })}
                  />
                </dd>
                <dt>Environment</dt>
                <dd>{pairsText(config.env, '=')}</dd>
                <dt>Working directory</dt>
                <dd>
                  {config.cwd ? (
                    <code>
                      <VisibleText text={config.cwd} />
                    </code>
                  ) : (
                    'Home directory'
                  )}
                </dd>
                <dt>Sandbox</dt>
                <dd>
                  {sandboxText(server)}
                  <SandboxMounts server={server} />
                </dd>
              </>
            )}
            <dt>Timeouts</dt>
            <dd>
              Initialize {config.initTimeoutMs / 1000} s · requests {config.requestTimeoutMs / 1000} s
            </dd>
            <dt>Behaviour</dt>
            <dd>
              {config.enabled ? 'Starts with Patchbay' : 'Does not start with Patchbay'} · auto-restart {config.autoRestart ? 'on' : 'off'}
              {config.preset && ` · preset ${PRESET_LABELS[config.preset]}`}
            </dd>
          </dl>
          <h3>Runtime</h3>
          <RuntimeFacts runtime={runtime} showProcess />
          <SandboxBlockedNotice server={server} />
          {runtime.status === 'error' || runtime.status === 'crashed' ? (
            <>
              <FailureOutput serverName={config.name} runtime={runtime} outputOpen />
              {runtime.launch && (
                <LaunchProblemView serverName={config.name} problem={runtime.launch} onEdit={(field) => onEdit(config.id, field)} />
              )}
            </>
          ) : (
            runtime.lastStderr &&
            runtime.lastStderr.length > 0 && (
              <details className="last-output">
                <summary>Last output</summary>
                <pre>{runtime.lastStderr.join('\n')}</pre>
              </details>
            )
          )}
          {config.sandbox?.enabled && (
            <p className="hint">
              “{config.name}” runs in a sandbox: changing the folders shared with it restarts it, so that it sees exactly those folders.
            </p>
          )}
          <ServerContextSection serverId={config.id} serverName={config.name} runtime={runtime} />
          <ServerFoldersSection serverId={config.id} serverName={config.name} />
        </Tabs.Content>
        <Tabs.Content value="tools" className="card">
          <ToolsPanel
            serverId={config.id}
            serverName={config.name}
            status={runtime.status}
            revision={runtime}
            selected={tool ?? null}
            onSelect={(name) => onNavigate('tools', name)}
          />
        </Tabs.Content>
        <Tabs.Content value="skills" className="card">
          <SkillsPanel serverId={config.id} serverName={config.name} status={runtime.status} revision={runtime} />
        </Tabs.Content>
        <Tabs.Content value="resources" className="card">
          <ResourcesPanel serverId={config.id} serverName={config.name} runtime={runtime} />
        </Tabs.Content>
        <Tabs.Content value="prompts" className="card">
          <PromptsPanel serverId={config.id} serverName={config.name} runtime={runtime} />
        </Tabs.Content>
        <Tabs.Content value="tasks" className="card">
          <TasksPanel serverId={config.id} serverName={config.name} />
        </Tabs.Content>
        <Tabs.Content value="logs" className="card">
          <ServerLogs serverId={config.id} />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

/** Stored pairs one per line, secrets named but never shown (the renderer does not have them). */
function pairsText(pairs: EnvVarView[], separator: string) {
  if (pairs.length === 0) return 'Nothing added';
  return pairs.map((v) => (
    <code key={v.key} className="env-entry">
      <VisibleText text={v.key} />
      {separator}
      <VisibleText text={v.secret ? `${SECRET_PLACEHOLDER} (secret)` : (v.value ?? '')} />
    </code>
  ));
}

/** How the server signs in, in words. */
const APPLICATION_CREDENTIAL: Record<ServerConfigView['oauthClientAuth'], string> = {
  client_secret: 'client secret',
  private_key_jwt: 'private key',
  workload_jwt: 'workload identity',
};

function signInText(config: ServerConfigView): string {
  switch (config.signInMode) {
    case 'browser':
      return 'As you, in the browser (when the server asks)';
    case 'application':
      return `As an application (${APPLICATION_CREDENTIAL[config.oauthClientAuth]})`;
    case 'organization':
      return "Through your organisation's identity provider";
  }
}
