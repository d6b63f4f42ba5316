import { useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { Suspense, useEffect, useRef, useState } from 'react';
import type { ConversationSummary } from '@contract';
import { ActionsMenu } from '../../ui/ActionsMenu';
import { RelativeTime } from '../../ui/RelativeTime';
import { lazyPart } from '../../ui/lazy-part';
// Types only (erased): the dialogs' code stays in their own chunk.
import type { DeleteConversation, RenameConversation } from './ConversationDialogs';
import { SquarePen } from 'lucide-react';
import { Icon } from '../../ui/Icon';
import { Alert } from '../../ui/Alert';

/** Rename and Delete open on the user's action: their dialogs are a chunk of their own (see ConversationDialogs.tsx). */
export const renameDialogPart = lazyPart(async () => (await import('./ConversationDialogs')).RenameDialog);
export const deleteDialogPart = lazyPart(async () => (await import('./ConversationDialogs')).DeleteDialog);
const RenameDialog = renameDialogPart.Component;
const DeleteDialog = deleteDialogPart.Component;

export interface ConversationListProps {
  /** What to list, most recently updated first: the loaded conversations, or a search's matches. */
  conversations: ConversationSummary[];
  activeId: string | null;
  onSelect(conversation: ConversationSummary): void;
  onNew(): void;
  onRename: RenameConversation;
  onDelete: DeleteConversation;
  /** More follow the last one: asked for with `onLoadMore` when the end scrolls near. */
  hasMore: boolean;
  loading: boolean;
  onLoadMore(): void;
  /** The text in "Search conversations" ('' when not searching). */
  search: string;
  onSearchChange(text: string): void;
  /** Why the search or the next page failed. */
  error?: string;
  /** The model a conversation without its own choice uses (shown in each row). */
  defaultModel?: string;
  /** The viewport size before it is measured (tests; a sensible guess otherwise). */
  initialRect?: Rect;
}

type Dialog = { kind: 'rename'; conversation: ConversationSummary } | { kind: 'delete'; conversation: ConversationSummary } | null;

/** Rows closer than this to the end ask for the next page. */
const LOAD_AHEAD_ROWS = 10;

/**
 * The conversations: search them by title and content (a match in a message is quoted), pick one, start
 * a new one, rename or delete from each row's menu (deleting asks first). Each row names its model.
 * Virtualized and paged: however many there are, only those in view exist in the DOM, and the next
 * page loads as the end scrolls near.
 */
export function ConversationList(props: ConversationListProps) {
  const { conversations, activeId, onSelect, onNew, hasMore, loading, onLoadMore, search, onSearchChange, error } = props;
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = (open: boolean) => !open && setDialog(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's hook returns functions React Compiler cannot memoize; nothing here is compiled.
  const virtualizer = useVirtualizer({
    count: conversations.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 52,
    getItemKey: (index) => conversations[index].id,
    overscan: 8,
    initialRect: props.initialRect ?? { width: 260, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (hasMore && !loading && lastShown >= conversations.length - LOAD_AHEAD_ROWS) onLoadMore();
  }, [hasMore, loading, lastShown, conversations.length, onLoadMore]);

  const searching = search.trim() !== '';
  const empty = searching
    ? loading
      ? 'Searching…'
      : `No conversation’s title or messages contain “${search.trim()}”.`
    : 'No conversations yet.';
  return (
    <nav className="conversation-list" aria-label="Conversations">
      <button type="button" className="button new-conversation" onClick={onNew}>
        <Icon icon={SquarePen} />
        New conversation
      </button>
      <input
        type="search"
        className="conversation-search"
        aria-label="Search conversations"
        placeholder="Search conversations"
        value={search}
        onChange={(e) => onSearchChange(e.target.value)}
      />
      <Alert message={error} tone="field-error" />
      {conversations.length === 0 ? (
        <p className="muted" role="status">
          {empty}
        </p>
      ) : (
        <div ref={scrollRef} className="conversation-scroll">
          <ul style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const c = conversations[item.index];
              return (
                <li
                  key={item.key}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  className="conversation-item"
                  aria-current={c.id === activeId ? 'true' : undefined}
                  aria-posinset={item.index + 1}
                  aria-setsize={hasMore ? -1 : conversations.length}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <button type="button" className="conversation-open" title={c.title} onClick={() => onSelect(c)}>
                    <span className="conversation-title">{c.title}</span>
                    {c.match && <span className="conversation-match">{c.match}</span>}
                    <span className="muted conversation-meta">
                      {c.turn === 'running' ? 'answering…' : <RelativeTime iso={c.updatedAt} />}
                      {(c.model ?? props.defaultModel) && <span className="conversation-model"> · {c.model ?? props.defaultModel}</span>}
                    </span>
                  </button>
                  <span className="conversation-actions">
                    <ActionsMenu
                      label={`Actions for ${c.title}`}
                      actions={[
                        { label: 'Rename', onSelect: () => setDialog({ kind: 'rename', conversation: c }) },
                        { label: 'Delete', danger: true, onSelect: () => setDialog({ kind: 'delete', conversation: c }) },
                      ]}
                    />
                  </span>
                </li>
              );
            })}
          </ul>
          {loading && (
            <p className="muted conversation-more" role="status">
              Loading more…
            </p>
          )}
        </div>
      )}
      <Suspense fallback={null}>
        {dialog?.kind === 'rename' && <RenameDialog conversation={dialog.conversation} onOpenChange={close} onRename={props.onRename} />}
        {dialog?.kind === 'delete' && <DeleteDialog conversation={dialog.conversation} onOpenChange={close} onDelete={props.onDelete} />}
      </Suspense>
    </nav>
  );
}
