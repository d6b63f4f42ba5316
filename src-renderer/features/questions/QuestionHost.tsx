import { Suspense } from 'react';
import { useAppStore } from '../../stores/use-app-store';
import { elicitationDialogPart, flaggedContentPart, rootsConsentPart, samplingDialogPart, toolConsentPart } from './question-dialog-parts';
import '../sampling/sampling.css';

const RootsConsentHost = rootsConsentPart.Component;
const ToolConsentHost = toolConsentPart.Component;
const SamplingDialog = samplingDialogPart.Component;
const ElicitationDialog = elicitationDialogPart.Component;
const FlaggedContentDialog = flaggedContentPart.Component;

/**
 * Mounted once by the shell: the one place questions to the user are shown — the oldest pending one,
 * whatever its kind (the core's queue orders them), so dialogs never stack and each waits its turn.
 * A dialog closes when the host says its question settled (answered here or in another window, timed
 * out, withdrawn), not before. Every answer goes back through `answerQuestion`.
 */
export function QuestionHost() {
  const front = useAppStore((s) => s.questions[0]);
  const notice = useAppStore((s) => s.interactionNotice);
  const policies = useAppStore((s) => s.samplingPolicies);
  const api = useAppStore((s) => s.api);
  // The dialogs' chunks are normally fetched already (App.tsx preloads them); until then, nothing shows.
  return (
    <Suspense fallback={null}>
      {front?.kind === 'roots' && <RootsConsentHost />}
      {front?.kind === 'tool' && <ToolConsentHost />}
      {front?.kind === 'sampling' && (
        <SamplingDialog
          key={front.id}
          request={front}
          onApprove={(input) => api.answerQuestion({ id: front.id, answer: { kind: 'sampling', action: 'approve', ...input } })}
          onSend={(text) => api.answerQuestion({ id: front.id, answer: { kind: 'sampling', action: 'send', text } })}
          onReject={() => api.answerQuestion({ id: front.id, answer: { kind: 'sampling', action: 'reject' } })}
          policy={policies.find((p) => p.serverId === front.serverId) ?? { serverId: front.serverId, mode: 'ask' }}
          onSavePolicy={(policy) => api.setSamplingPolicy(policy)}
        />
      )}
      {front?.kind === 'elicitation' && (
        <ElicitationDialog
          key={front.id}
          request={front}
          onResolve={(action, content) =>
            api.answerQuestion({ id: front.id, answer: { kind: 'elicitation', action, ...(content ? { content } : {}) } })
          }
          openUrl={(url) => window.open(url, '_blank', 'noopener,noreferrer')}
        />
      )}
      {front?.kind === 'content' && (
        <FlaggedContentDialog
          key={front.id}
          request={front}
          onAnswer={(send) => api.answerQuestion({ id: front.id, answer: { kind: 'content', send } })}
        />
      )}
      {notice && !front && (
        <p role="status" className="interaction-notice">
          {notice}
        </p>
      )}
    </Suspense>
  );
}
