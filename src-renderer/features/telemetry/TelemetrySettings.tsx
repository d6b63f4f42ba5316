import { useContext, useEffect, useId, useState } from 'react';
import { OTLP_PROTOCOLS, type OtlpProtocol, type TelemetryInput, type TelemetryView } from '@contract';
import { AppStoreContext, useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Field } from '../../ui/Field';
import { Select } from '../../ui/Select';
import { Switch } from '../../ui/Switch';
import { Alert } from '../../ui/Alert';

interface HeaderRow {
  name: string;
  /** Empty with `kept`: the stored value stays (it never comes back to the window). */
  value: string;
  kept: boolean;
}

const rowsOf = (view: TelemetryView): HeaderRow[] => view.headers.map((h) => ({ name: h.name, value: '', kept: h.hasValue }));

/**
 * Settings › Telemetry: Off (the default) or OpenTelemetry export to an OTLP/HTTP endpoint, its
 * headers (values sealed like other secrets, never shown again), protocol, whether requests to
 * servers carry trace context, and whether arguments and results are exported; Test connection
 * names what failed; spans exported and dropped are counted live.
 */
export function TelemetrySettings() {
  const api = useAppStore((s) => s.api);
  const view = useAppStore((s) => s.telemetry);
  const store = useContext(AppStoreContext);
  const titleId = useId();
  const [endpoint, setEndpoint] = useState('');
  const [protocol, setProtocol] = useState<OtlpProtocol>('http/protobuf');
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [propagate, setPropagate] = useState(true);
  const [exportContent, setExportContent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const show = (next: TelemetryView) => {
    store?.setState({ telemetry: next });
    setEndpoint(next.endpoint);
    setProtocol(next.protocol);
    setHeaders(rowsOf(next));
    setPropagate(next.propagate);
    setExportContent(next.exportContent);
  };
  useEffect(() => {
    void api.getTelemetry().then(show, (e: unknown) => setError(messageOf(e)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loaded once; events keep the counts current
  }, [api]);

  const input = (enabled: boolean): TelemetryInput => ({
    enabled,
    endpoint: endpoint.trim(),
    protocol,
    headers: headers
      .filter((h) => h.name.trim() !== '')
      .map((h) => (h.value === '' && h.kept ? { name: h.name.trim() } : { name: h.name.trim(), value: h.value })),
    propagate,
    exportContent,
  });
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      await work();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  /**
   * A switch takes effect at once: it saves the stored setting with that one change (an endpoint or
   * header being edited in the form is left for Save).
   */
  const toggle = (change: Pick<Partial<TelemetryInput>, 'propagate' | 'exportContent'>) =>
    run(async () => {
      if (change.propagate !== undefined) setPropagate(change.propagate);
      if (change.exportContent !== undefined) setExportContent(change.exportContent);
      // Set by the environment: the stored setting is the form's to save.
      if (!view || view.fromEnvironment) return;
      const stored: TelemetryInput = {
        enabled: view.enabled,
        endpoint: view.endpoint,
        protocol: view.protocol,
        headers: view.headers.map((h) => ({ name: h.name })),
        propagate: view.propagate,
        exportContent: view.exportContent,
      };
      const next = await api.setTelemetry({ ...stored, ...change });
      store?.setState({ telemetry: next });
    });
  const save = (enabled: boolean) => run(async () => show(await api.setTelemetry(input(enabled))));
  const test = () =>
    run(async () => {
      const result = await api.testTelemetry(input(true));
      setNote(result.ok ? result.message : `Test failed: ${result.message}`);
    });

  const on = view?.enabled ?? false;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>Telemetry</h2>
      <p className="hint">
        Every turn has a Timeline (from a chat message) whether or not this is on. Export sends OpenTelemetry spans of your turns — model
        requests, tool calls, waits — to a collector you choose. Off by default: nothing leaves before you turn it on.
      </p>
      {view?.fromEnvironment && <p className="hint">Configured by OTEL_EXPORTER_OTLP_* environment variables (they win over this form).</p>}
      <p aria-live="polite">
        Export is <strong>{view?.exporting ? 'on' : 'off'}</strong>
        {view && (view.exported > 0 || view.dropped > 0) && (
          <>
            {' '}
            · {view.exported.toLocaleString()} spans exported · {view.dropped.toLocaleString()} dropped
          </>
        )}
        {view?.lastError && <span className="field-error"> · last failure: {view.lastError}</span>}
      </p>
      <Field label="OTLP endpoint" hint="For example http://localhost:4318 (the collector's OTLP/HTTP port)">
        {(control) => <input {...control} type="url" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} />}
      </Field>
      <Field label="Protocol">
        {(control) => (
          <Select
            {...control}
            value={protocol}
            onChange={(value) => setProtocol(value as OtlpProtocol)}
            options={OTLP_PROTOCOLS.map((p) => ({ value: p, label: p }))}
          />
        )}
      </Field>
      <fieldset>
        <legend>Headers</legend>
        {headers.map((h, i) => (
          <div key={i} className="row">
            <input
              aria-label={`Header ${i + 1} name`}
              value={h.name}
              onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
            />
            <input
              aria-label={`Header ${i + 1} value`}
              type="password"
              placeholder={h.kept ? 'Saved (type to replace)' : ''}
              value={h.value}
              onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
            />
            <button type="button" className="quiet" onClick={() => setHeaders(headers.filter((_, j) => j !== i))}>
              Remove header {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="secondary" onClick={() => setHeaders([...headers, { name: '', value: '', kept: false }])}>
          Add header
        </button>
      </fieldset>
      <Switch className="own-line" checked={propagate} disabled={busy} onChange={(value) => void toggle({ propagate: value })}>
        Send trace context to servers (in each request’s _meta)
      </Switch>
      <Switch className="own-line" checked={exportContent} disabled={busy} onChange={(value) => void toggle({ exportContent: value })}>
        Export tool results (may contain private data)
      </Switch>
      <Alert message={error} tone="field-error" />
      {note && <p role="status">{note}</p>}
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => void save(true)}>
          {on ? 'Save telemetry' : 'Turn on export'}
        </button>
        <button type="button" className="secondary" disabled={busy || endpoint.trim() === ''} onClick={() => void test()}>
          Test connection
        </button>
        {on && !view?.fromEnvironment && (
          <button type="button" className="secondary" disabled={busy} onClick={() => void save(false)}>
            Turn off export
          </button>
        )}
      </div>
    </section>
  );
}
