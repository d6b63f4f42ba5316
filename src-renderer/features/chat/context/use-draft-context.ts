import { useContext, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AttachmentView, PromptResultView, PromptView, ServerView } from '@contract';
import type { DraftContext } from '../../../stores/slices/chat-context-slice';
import { AppStoreContext, useAppStore } from '../../../stores/use-app-store';

const EMPTY: DraftContext = { attachments: [] };

/** The servers a conversation's context may come from: its chosen servers (or every server) that are Ready. */
export function contextServers(servers: readonly ServerView[], selected: string[] | null | undefined): ServerView[] {
  return servers.filter((s) => s.runtime.status === 'ready' && (selected == null || selected.includes(s.config.id)));
}

export interface DraftContextApi {
  context: DraftContext;
  /** Characters the attachments and the prompt cost, and the budget they must fit. */
  used: number;
  budget: number;
  /** Why the message cannot be sent as it is (over budget, an attachment that cannot go). */
  blocked?: string;
  /** The prompts of the conversation's servers, for `/`. */
  prompts: PromptView[];
  attach(serverId: string, uri: string, name?: string): Promise<AttachmentView>;
  remove(attachmentId: string): void;
  usePrompt(prompt: PromptResultView): void;
  dropPrompt(): void;
}

/**
 * The attachments and chosen prompt of one conversation's draft (kept in the store per conversation),
 * the budget they are measured against (Settings), and the prompts `/` offers.
 */
export function useDraftContext(draftKey: string, servers: readonly ServerView[]): DraftContextApi {
  const store = useContext(AppStoreContext)!;
  const api = useAppStore((s) => s.api);
  const budget = useAppStore((s) => s.settings?.attachmentBudgetChars ?? 200_000);
  const context = useAppStore((s) => s.chatContextDrafts[draftKey] ?? EMPTY);
  const revisions = useAppStore(useShallow((s) => servers.map((v) => s.contentRevision[v.config.id] ?? 0).join(',')));
  const [prompts, setPrompts] = useState<PromptView[]>([]);
  const withPrompts = useMemo(() => servers.filter((s) => s.runtime.capabilities?.includes('prompts')).map((s) => s.config.id), [servers]);
  const idsKey = withPrompts.join(',');

  useEffect(() => {
    let current = true;
    const ids = idsKey ? idsKey.split(',') : [];
    if (ids.length === 0) return;
    api.listPrompts({ serverIds: ids }).then(
      (list) => current && setPrompts(list.prompts),
      () => current && setPrompts([]),
    );
    return () => {
      current = false;
    };
  }, [api, idsKey, revisions]);

  const update = (change: (draft: DraftContext) => DraftContext) =>
    store.setState((s) => ({ chatContextDrafts: { ...s.chatContextDrafts, [draftKey]: change(s.chatContextDrafts[draftKey] ?? EMPTY) } }));

  const used = context.attachments.reduce((n, a) => n + a.chars, 0) + (context.prompt?.chars ?? 0);
  const problem = context.attachments.find((a) => a.problem);
  const blocked = problem
    ? `“${problem.name}” cannot be sent: ${problem.problem}`
    : used > budget
      ? `Attachments are over this message’s budget: remove some (the budget is set in Settings).`
      : undefined;

  return {
    context,
    used,
    budget,
    ...(blocked ? { blocked } : {}),
    prompts: idsKey ? prompts : [],
    async attach(serverId, uri, name) {
      const attachment = await api.attachResource({ serverId, uri, ...(name ? { name } : {}) });
      update((draft) => ({ ...draft, attachments: [...draft.attachments, attachment] }));
      return attachment;
    },
    remove(attachmentId) {
      update((draft) => ({ ...draft, attachments: draft.attachments.filter((a) => a.attachmentId !== attachmentId) }));
      void api.detachResource({ attachmentId }).catch(() => undefined);
    },
    usePrompt(prompt) {
      update((draft) => ({ ...draft, prompt }));
    },
    dropPrompt() {
      update(({ prompt: _dropped, ...draft }) => draft);
    },
  };
}
