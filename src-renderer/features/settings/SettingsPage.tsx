import { useContext, useEffect, type ReactNode } from 'react';
import { formatRoute, type SettingsSection } from '../../routing/routes';
import { AppStoreContext, useAppStore } from '../../stores/use-app-store';
import { UpdatePanel } from '../app/UpdatePanel';
import { ConsentSettings } from '../consent/ConsentSettings';
import { ProvidersSettings } from '../providers/ProvidersSettings';
import { ContentUseSettings } from '../resources/ContentUseSettings';
import { ServerRequestsSettings } from '../sampling/ServerRequestsSettings';
import { RulesSettings } from '../rules/RulesSettings';
import { TelemetrySettings } from '../telemetry/TelemetrySettings';
import { SkillsSettings } from '../skills/SkillsSettings';
import { ToolSetsSettings } from '../tool-sets/ToolSetsSettings';
import { BackupPanel } from './BackupPanel';
import { HostInfoPanel } from './HostInfoPanel';
import { SettingsForm } from './SettingsForm';
import { SETTINGS_SECTION_LABELS } from './settings-sections';

/** The element a section's address scrolls to. */
const sectionId = (section: SettingsSection) => `settings-${section}`;

export function SettingsPage() {
  const settings = useAppStore((s) => s.settings);
  const info = useAppStore((s) => s.info);
  const api = useAppStore((s) => s.api);
  const apiKey = useAppStore((s) => s.llm?.apiKey ?? null);
  const update = useAppStore((s) => s.update);
  const providers = useAppStore((s) => s.providers);
  const store = useContext(AppStoreContext);
  const section = useAppStore((s) => (s.route.page === 'settings' ? s.route.section : undefined));

  const ready = settings !== null;
  // #/settings/<section>: that section comes into view and takes the focus (a screen reader reads it from there).
  useEffect(() => {
    if (!section) return;
    const target = document.getElementById(sectionId(section));
    target?.scrollIntoView?.({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [section, ready]);

  // "Set the API key" (first run): the key's field takes the focus, ready to paste into.
  const intent = useAppStore((s) => s.intent);
  const finishIntent = useAppStore((s) => s.finishIntent);
  useEffect(() => {
    if (intent?.kind !== 'focus-api-key' || !ready) return;
    const field = document.querySelector<HTMLInputElement>('input[data-api-key]');
    if (!field) return;
    finishIntent(intent);
    field.scrollIntoView?.({ block: 'center' });
    field.focus();
  }, [intent, ready, finishIntent]);

  const part = (name: SettingsSection, children: ReactNode) => (
    <div id={sectionId(name)} tabIndex={-1} className="settings-section">
      {children}
    </div>
  );
  return (
    <section aria-labelledby="page-title" className="page settings-page">
      <h1 id="page-title">Settings</h1>
      <nav aria-label="Settings sections" className="section-links">
        <ul>
          {Object.entries(SETTINGS_SECTION_LABELS).map(([name, label]) => (
            <li key={name}>
              <a
                href={formatRoute({ page: 'settings', section: name as SettingsSection })}
                aria-current={name === section ? 'location' : undefined}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {part(
        'preferences',
        settings ? (
          <SettingsForm
            settings={settings}
            // What the host committed is shown (and applied) at once, without waiting for its event.
            onSave={(patch) => api.updateSettings(patch).then((saved) => store?.setState({ settings: saved }))}
            apiKey={apiKey}
            onSetApiKey={(key) => api.setApiKey({ apiKey: key })}
            onClearApiKey={() => api.clearApiKey()}
            providers={providers}
            updatesApplicable={info?.mode !== 'web'}
          />
        ) : (
          <p>Loading settings…</p>
        ),
      )}
      {part('providers', <ProvidersSettings />)}
      {part('updates', <UpdatePanel state={update} api={api} />)}
      {part('backup', <BackupPanel api={api} />)}
      {part('consent', <ConsentSettings />)}
      {part('rules', <RulesSettings />)}
      {part('toolsets', <ToolSetsSettings />)}
      {part('skills', <SkillsSettings />)}
      {part('requests', <ServerRequestsSettings />)}
      {part('content', <ContentUseSettings />)}
      {part('telemetry', <TelemetrySettings />)}
      {info && part('about', <HostInfoPanel info={info} />)}
    </section>
  );
}
