import { Suspense } from 'react';
import { useAppStore } from '../../stores/use-app-store';
import type { AppState } from '../../stores/app-store';
import { elicitationDialogPart, rootsConsentPart, samplingDialogPart, toolConsentPart } from './consent-dialog-parts';
import './sampling.css';

const RootsConsentHost = rootsConsentPart.Component;
const ToolConsentHost = toolConsentPart.Component;
const SamplingDialog = samplingDialogPart.Component;
const ElicitationDialog = elicitationDialogPart.Component;

type Kind = 'roots' | 'tool' | 'sampling' | 'elicitation';

/**
 * Which pending request is in front: the oldest across every kind of consent dialog. Each kind's own
 * queue stays in its area (the brokers are unchanged); the shell shows only the front one, so dialogs
 * never stack and each waits its turn in arrival order.
 */
export function frontKind(s: Pick<AppState, 'rootsConsents' | 'toolConsents' | 'samplingRequests' | 'elicitations'>): Kind | null {
  const heads: [Kind, string | undefined][] = [
    ['roots', s.rootsConsents[0]?.requestedAt],
    ['tool', s.toolConsents[0]?.requestedAt],
    ['sampling', s.samplingRequests[0]?.requestedAt],
    ['elicitation', s.elicitations[0]?.requestedAt],
  ];
  let best: [Kind, string] | null = null;
  for (const [kind, at] of heads) if (at !== undefined && (!best || at < best[1])) best = [kind, at];
  return best?.[0] ?? null;
}

/** Mounted once by the shell in place of the separate consent hosts: one dialog at a time, oldest first. */
export function ConsentQueueHost() {
  const kind = useAppStore(frontKind);
  const sampling = useAppStore((s) => s.samplingRequests[0]);
  const elicitation = useAppStore((s) => s.elicitations[0]);
  const notice = useAppStore((s) => s.interactionNotice);
  const policies = useAppStore((s) => s.samplingPolicies);
  const api = useAppStore((s) => s.api);
  // The dialogs' chunks are normally fetched already (App.tsx preloads them); until then, nothing shows.
  return (
    <Suspense fallback={null}>
      {kind === 'roots' && <RootsConsentHost />}
      {kind === 'tool' && <ToolConsentHost />}
      {kind === 'sampling' && sampling && (
        <SamplingDialog
          key={sampling.id}
          request={sampling}
          onApprove={(input) => api.approveSampling({ id: sampling.id, ...input })}
          onSend={(text) => api.sendSamplingResponse({ id: sampling.id, text })}
          onReject={() => api.rejectSampling({ id: sampling.id })}
          policy={policies.find((p) => p.serverId === sampling.serverId) ?? { serverId: sampling.serverId, mode: 'ask' }}
          onSavePolicy={(policy) => api.setSamplingPolicy(policy)}
        />
      )}
      {kind === 'elicitation' && elicitation && (
        <ElicitationDialog
          key={elicitation.id}
          request={elicitation}
          onResolve={(action, content) => api.resolveElicitation({ id: elicitation.id, action, ...(content ? { content } : {}) })}
          openUrl={(url) => window.open(url, '_blank', 'noopener,noreferrer')}
        />
      )}
      {notice && kind === null && (
        <p role="status" className="interaction-notice">
          {notice}
        </p>
      )}
    </Suspense>
  );
}
