import { useEffect, useState } from 'react';
import type { DiagnosisStep, HostApi, LaunchFixField, ServerDiagnosis } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { LaunchProblemView } from './LaunchProblemView';
import { SandboxBlockedNotice } from './ServerSandbox';
import { Alert } from '../../ui/Alert';

export interface DiagnoseDialogProps {
  api: HostApi;
  serverId: string;
  serverName: string;
  onClose(): void;
  onEdit(field: LaunchFixField): void;
  /** Starts the server for real (offered once every step worked). */
  onStart(): void;
}

const STATUS_WORDS: Record<DiagnosisStep['status'], string> = { running: 'Running…', ok: 'OK', failed: 'Failed', skipped: 'Not tried' };

/**
 * "Diagnose": runs the server's launch step by step in the host and shows each step as it ends —
 * what it found, how long it took, what the server wrote — then the fixes for what failed.
 */
export function DiagnoseDialog({ api, serverId, serverName, onClose, onEdit, onStart }: DiagnoseDialogProps) {
  const live = useAppStore((s) => s.diagnoses[serverId]);
  const server = useAppStore((s) => s.servers[serverId]);
  // Each run: its number, and the run already reported when it began (whose steps are not this run's).
  const [attempt, setAttempt] = useState(() => ({ round: 0, ignored: live?.runId ?? null }));
  const [outcome, setOutcome] = useState<{ round: number; result?: ServerDiagnosis; error?: string } | null>(null);
  useEffect(() => {
    let current = true;
    api.diagnoseServer({ id: serverId }).then(
      (result) => current && setOutcome({ round: attempt.round, result }),
      (failure: unknown) => current && setOutcome({ round: attempt.round, error: messageOf(failure) }),
    );
    return () => {
      current = false;
    };
  }, [api, serverId, attempt]);

  const settled = outcome?.round === attempt.round ? outcome : null;
  const result = settled?.result ?? null;
  const error = settled?.error ?? null;
  const shown = result ?? (live && live.runId !== attempt.ignored ? live : null);
  const running = settled === null;
  const runAgain = () => setAttempt((a) => ({ round: a.round + 1, ignored: live?.runId ?? null }));
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`Diagnose ${serverName}`} className="modal-wide">
      <p className="muted">Patchbay runs the launch again, step by step, in a process of its own, and stops it afterwards.</p>
      <Alert message={error} />
      {shown && (
        <ol className="diagnosis-steps" aria-label="Steps">
          {shown.steps.map((step) => (
            <li key={step.id} data-status={step.status} aria-label={`${step.title}: ${STATUS_WORDS[step.status]}`}>
              <div className="diagnosis-step-head">
                <strong>{step.title}</strong> <span className="status-word">{STATUS_WORDS[step.status]}</span>
                {step.durationMs !== undefined && <span className="muted"> · {formatMs(step.durationMs)}</span>}
              </div>
              {step.status !== 'skipped' || step.detail !== 'Not tried yet.' ? <p className="diagnosis-detail">{step.detail}</p> : null}
              {step.list && step.list.length > 0 && (
                <details>
                  <summary>
                    {step.id === 'resolve' ? 'Folders searched' : 'Notes'} ({step.list.length})
                  </summary>
                  <ol>
                    {step.list.map((item, i) => (
                      <li key={i}>
                        <code>{item}</code>
                      </li>
                    ))}
                  </ol>
                </details>
              )}
              {step.output && step.output.length > 0 && (
                <pre className="failure-output" aria-label={`What ${serverName} wrote`}>
                  {step.output.join('\n')}
                </pre>
              )}
            </li>
          ))}
        </ol>
      )}
      <p role="status" className="diagnosis-summary">
        {running
          ? 'Diagnosing…'
          : result?.ok
            ? `Every step worked: ${serverName} can start.`
            : result
              ? `Failed at: ${failedStep(result)}`
              : ''}
      </p>
      {result?.problem && <LaunchProblemView serverName={serverName} problem={result.problem} onEdit={onEdit} />}
      {server && result?.sandboxPaths && <SandboxBlockedNotice server={server} seen={result.sandboxPaths} onDone={runAgain} />}
      <div className="actions">
        {result?.ok && (
          <button type="button" onClick={onStart}>
            Start {serverName}
          </button>
        )}
        <button type="button" className="secondary" disabled={running} onClick={runAgain}>
          Run again
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}

function failedStep(diagnosis: ServerDiagnosis): string {
  return diagnosis.steps.find((step) => step.status === 'failed')?.title ?? 'an unknown step';
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
