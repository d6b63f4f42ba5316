import { useState } from 'react';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';
import { LabelledSwitch } from '../../ui/LabelledSwitch';

/** Calls the host and reports a failure in words (the switch itself follows the host's snapshot). */
function useOfferCall() {
  const api = useAppStore((s) => s.api);
  const [error, setError] = useState<string | null>(null);
  const run = (call: (a: typeof api) => Promise<unknown>) =>
    void call(api).then(
      () => setError(null),
      (failure: unknown) => setError(messageOf(failure)),
    );
  return { run, error };
}

function CallError({ error, what }: { error: string | null; what: string }) {
  return error ? (
    <span role="alert" className="warning">
      Could not change {what}: {error}
    </span>
  ) : null;
}

/** `Offer <tool> to the model` and its pin, for one tool of one server. */
export function ToolOfferControls({ serverId, tool }: { serverId: string; tool: string }) {
  const offer = useAppStore((s) => s.toolOffers.tools.find((t) => t.serverId === serverId && t.tool === tool));
  const { run, error } = useOfferCall();
  const offered = offer?.offered ?? true;
  const pinned = offer?.pinned ?? false;
  return (
    <span className="tool-offer-controls">
      <LabelledSwitch
        label={`Offer ${tool} to the model`}
        checked={offered}
        onChange={(next) => run((api) => api.setToolOffered({ serverId, tool, offered: next }))}
      />
      <button
        type="button"
        className="link tool-pin"
        aria-pressed={pinned}
        aria-label={`Pin ${tool}`}
        title={pinned ? 'Pinned: always sent to the model, even when tool search is on' : 'Pin: always send it to the model'}
        disabled={!offered}
        onClick={() => run((api) => api.setToolPinned({ serverId, tool, pinned: !pinned }))}
      >
        {pinned ? 'Pinned' : 'Pin'}
      </button>
      <CallError error={error} what={tool} />
    </span>
  );
}

/** The server's "Offer new tools to the model": what tools it lists for the first time start as. */
export function OfferNewToolsSwitch({ serverId, serverName }: { serverId: string; serverName: string }) {
  const offerNew = useAppStore((s) => s.toolOffers.offerNew[serverId] ?? true);
  const { run, error } = useOfferCall();
  return (
    <span className="tool-offer-new">
      <LabelledSwitch
        label="Offer new tools to the model"
        checked={offerNew}
        onChange={(next) => run((api) => api.setServerOfferNew({ serverId, offerNew: next }))}
      >
        Offer new tools to the model (tools {serverName} adds later start {offerNew ? 'on' : 'off'})
      </LabelledSwitch>
      <CallError error={error} what="the default for new tools" />
    </span>
  );
}
