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

function useOffer(serverId: string, tool: string) {
  const offer = useAppStore((s) => s.toolOffers.tools.find((t) => t.serverId === serverId && t.tool === tool));
  return { offered: offer?.offered ?? true, pinned: offer?.pinned ?? false };
}

/** `Offer <tool> to the model`, for one tool of one server (in the Tools tab's list). */
export function ToolOfferSwitch({ serverId, tool }: { serverId: string; tool: string }) {
  const { offered } = useOffer(serverId, tool);
  const { run, error } = useOfferCall();
  return (
    <span className="tool-offer-controls">
      <LabelledSwitch
        label={`Offer ${tool} to the model`}
        checked={offered}
        onChange={(next) => run((api) => api.setToolOffered({ serverId, tool, offered: next }))}
      />
      <CallError error={error} what={tool} />
    </span>
  );
}

/** The open tool's pin: always sent to the model up front, even when tool search is on. */
export function ToolPinToggle({ serverId, tool }: { serverId: string; tool: string }) {
  const { offered, pinned } = useOffer(serverId, tool);
  const { run, error } = useOfferCall();
  return (
    <p className="tool-offer-controls">
      <button
        type="button"
        className="secondary tool-pin"
        aria-pressed={pinned}
        aria-label={`Pin ${tool}`}
        title={pinned ? 'Pinned: always sent to the model, even when tool search is on' : 'Pin: always send it to the model'}
        disabled={!offered}
        onClick={() => run((api) => api.setToolPinned({ serverId, tool, pinned: !pinned }))}
      >
        {pinned ? `Pinned: ${tool} always goes to the model` : `Pin ${tool}`}
      </button>
      {!offered && <span className="muted"> (not offered to the model: turn its switch on to pin it)</span>}
      <CallError error={error} what={tool} />
    </p>
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
