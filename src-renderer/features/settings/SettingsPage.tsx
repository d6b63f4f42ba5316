import { useAppStore } from '../../stores/use-app-store';
import { UpdatePanel } from '../app/UpdatePanel';
import { ConsentSettings } from '../consent/ConsentSettings';
import { ProvidersSettings } from '../providers/ProvidersSettings';
import { ContentUseSettings } from '../resources/ContentUseSettings';
import { ServerRequestsSettings } from '../sampling/ServerRequestsSettings';
import { BackupPanel } from './BackupPanel';
import { HostInfoPanel } from './HostInfoPanel';
import { SettingsForm } from './SettingsForm';

export function SettingsPage() {
  const settings = useAppStore((s) => s.settings);
  const info = useAppStore((s) => s.info);
  const api = useAppStore((s) => s.api);
  const apiKey = useAppStore((s) => s.llm?.apiKey ?? null);
  const update = useAppStore((s) => s.update);
  const providers = useAppStore((s) => s.providers);
  return (
    <section aria-labelledby="page-title" className="page">
      <h1 id="page-title">Settings</h1>
      {settings ? (
        <SettingsForm
          settings={settings}
          onSave={(patch) => api.updateSettings(patch)}
          apiKey={apiKey}
          onSetApiKey={(key) => api.setApiKey({ apiKey: key })}
          onClearApiKey={() => api.clearApiKey()}
          providers={providers}
          updatesApplicable={info?.mode !== 'web'}
        />
      ) : (
        <p>Loading settings…</p>
      )}
      <ProvidersSettings />
      <UpdatePanel state={update} api={api} />
      <BackupPanel api={api} />
      <ConsentSettings />
      <ServerRequestsSettings />
      <ContentUseSettings />
      {info && <HostInfoPanel info={info} />}
    </section>
  );
}
