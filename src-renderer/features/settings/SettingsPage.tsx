import { useAppStore } from '../../stores/use-app-store';
import { HostInfoPanel } from './HostInfoPanel';
import { SettingsForm } from './SettingsForm';

export function SettingsPage() {
  const settings = useAppStore((s) => s.settings);
  const info = useAppStore((s) => s.info);
  const api = useAppStore((s) => s.api);
  return (
    <section aria-labelledby="page-title" className="page">
      <h1 id="page-title">Settings</h1>
      {settings ? <SettingsForm settings={settings} onSave={(patch) => api.updateSettings(patch)} /> : <p>Loading settings…</p>}
      {info && <HostInfoPanel info={info} />}
    </section>
  );
}
