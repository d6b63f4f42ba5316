import { Suspense, useMemo, useState } from 'react';
import type { PromptView, ServerView } from '@contract';
import { useMountedOnceOpen } from '../../../ui/lazy-part';
import { ContextMeter } from '../../context-meter/ContextMeter';
import { Composer, type ComposerProps } from '../Composer';
import { attachDialogPart, promptDialogPart } from './context-dialog-parts';
import { ContextChips } from './ContextChips';
import { contextServers, useDraftContext } from './use-draft-context';
import { Paperclip } from 'lucide-react';
import { Icon } from '../../../ui/Icon';

export interface ContextComposerProps extends Omit<
  ComposerProps,
  'above' | 'hasContext' | 'blocked' | 'tools' | 'slashPrompts' | 'onSlashPrompt'
> {
  /** Which draft this is (the conversation's id, '' before there is one). */
  draftKey: string;
  servers: readonly ServerView[];
  /** The conversation's chosen servers (null: every server). */
  selectedServers: string[] | null | undefined;
}

/**
 * The message box with what servers offer: `Attach` (resources of the conversation's servers, and
 * their templates), `/` (their prompts, asked for their arguments), the chips of what goes with the
 * message and the budget it uses. Sending is the chat's own (the host adds the attachments and prompt).
 */
export function ContextComposer({ draftKey, servers, selectedServers, ...composer }: ContextComposerProps) {
  const usable = useMemo(() => contextServers(servers, selectedServers), [servers, selectedServers]);
  const draft = useDraftContext(draftKey, usable);
  const [attaching, setAttaching] = useState(false);
  const [chosen, setChosen] = useState<PromptView | null>(null);
  const { context } = draft;
  const slashPrompts = useMemo(
    () => draft.prompts.map((p) => ({ id: `${p.serverId}\n${p.name}`, label: `${p.serverName}: ${p.name}`, description: p.description })),
    [draft.prompts],
  );
  const offersResources = usable.some((s) => s.runtime.capabilities?.includes('resources'));
  const attachMounted = useMountedOnceOpen(attaching);
  const promptMounted = useMountedOnceOpen(chosen !== null);
  const AttachDialog = attachDialogPart.Component;
  const PromptDialog = promptDialogPart.Component;

  return (
    <>
      <Composer
        {...composer}
        above={
          <ContextChips
            attachments={context.attachments}
            prompt={context.prompt}
            used={draft.used}
            budget={draft.budget}
            blocked={draft.blocked}
            onRemove={draft.remove}
            onDropPrompt={draft.dropPrompt}
          />
        }
        hasContext={context.attachments.length > 0 || context.prompt !== undefined}
        blocked={draft.blocked}
        tools={
          <>
            <ContextMeter
              conversationId={draftKey}
              draftChars={composer.draft.length}
              attachmentIds={context.attachments.map((a) => a.attachmentId)}
              promptUseId={context.prompt?.useId}
            />
            <button
              type="button"
              className="secondary"
              disabled={!offersResources}
              title={
                offersResources
                  ? 'Attach resources of this conversation’s servers'
                  : 'None of this conversation’s Ready servers offers resources'
              }
              onClick={() => setAttaching(true)}
            >
              <Icon icon={Paperclip} />
              Attach
            </button>
          </>
        }
        slashPrompts={slashPrompts}
        onSlashPrompt={(id) => {
          const prompt = draft.prompts.find((p) => `${p.serverId}\n${p.name}` === id);
          if (prompt) setChosen(prompt);
        }}
      />
      {/* One boundary each: the first load of one never hides the other. */}
      <Suspense fallback={null}>
        {attachMounted && <AttachDialog open={attaching} onOpenChange={setAttaching} servers={usable} onAttach={draft.attach} />}
      </Suspense>
      <Suspense fallback={null}>
        {promptMounted && <PromptDialog prompt={chosen} servers={usable} onClose={() => setChosen(null)} onChosen={draft.usePrompt} />}
      </Suspense>
    </>
  );
}
