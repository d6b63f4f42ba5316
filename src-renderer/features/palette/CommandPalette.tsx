import { Command } from 'cmdk';
import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { compareConversations, type ToolView } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { Modal } from '../../ui/Modal';
import { messageOf } from '../../ui/call-errors';
import { useChatActions } from '../chat/chat-actions';
import { SETTINGS_SECTION_LABELS } from '../settings/settings-sections';
import { isMac } from '../shell/shortcuts';
import { paletteItems, type PaletteGroup, type PaletteItem } from './palette-items';
import { rankItems } from './rank-items';
import './palette.css';
import { Compass, MessageSquare, Server, Wrench, Zap, type LucideIcon } from 'lucide-react';
import { Icon } from '../../ui/Icon';

export interface CommandPaletteProps {
  open: boolean;
  onOpenChange(open: boolean): void;
}

/** True while the system asks for dark (what the System theme shows). */
function useSystemDark(): boolean {
  const query = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const onChange = () => setDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query]);
  return dark;
}

/**
 * The command palette (Ctrl/Cmd+K): go to any page, server, conversation or tool, or run a common
 * action, all from the keyboard. A Radix dialog around cmdk's combobox and listbox: type to filter,
 * Up/Down to move, Enter to run, Escape to close (focus goes back where it was).
 */
export function CommandPalette({ open, onOpenChange }: CommandPaletteProps) {
  const api = useAppStore((s) => s.api);
  const go = useAppStore((s) => s.go);
  const request = useAppStore((s) => s.request);
  const say = useAppStore((s) => s.say);
  const servers = useAppStore(useShallow((s) => s.serverOrder.map((id) => s.servers[id]).filter(Boolean)));
  const conversations = useAppStore(useShallow((s) => Object.values(s.conversations).sort(compareConversations)));
  const runningConversationId = useAppStore((s) =>
    s.activeConversationId && s.conversations[s.activeConversationId]?.turn === 'running' ? s.activeConversationId : null,
  );
  const toolSets = useAppStore((s) => s.toolOffers.sets);
  const activeConversation = useAppStore((s) => (s.activeConversationId ? s.conversations[s.activeConversationId] : undefined));
  const theme = useAppStore((s) => s.settings?.theme ?? 'system');
  const systemDark = useSystemDark();
  const chat = useChatActions();
  const [search, setSearch] = useState('');
  // The highlighted item (its id); the best match whenever the search changes.
  const [active, setActive] = useState('');
  const tools = useReadyServerTools(open);

  const items = useMemo(
    () =>
      paletteItems({
        servers,
        conversations,
        tools,
        runningConversationId,
        toolSets,
        activeConversation,
        theme,
        systemDark,
        mac: isMac(),
        sectionLabels: SETTINGS_SECTION_LABELS,
        api,
        go,
        request,
        newConversation: async () => {
          await chat.newConversation();
          request('focus-message');
        },
      }),
    [servers, conversations, tools, runningConversationId, toolSets, activeConversation, theme, systemDark, api, go, request, chat],
  );

  const groups = useMemo(() => rankItems(items, search), [items, search]);
  const shown = groups.flatMap((g) => g.items);
  // Still the highlighted one if it is still listed, else the best match.
  const highlighted = shown.some((item) => item.id === active) ? active : (shown[0]?.id ?? '');

  const close = (next: boolean) => {
    if (!next) {
      setSearch('');
      setActive('');
    }
    onOpenChange(next);
  };
  const run = (item: PaletteItem) => {
    close(false);
    // The action runs once the dialog closed; a failure is said above the page the user is on.
    Promise.resolve()
      .then(() => item.run())
      .catch((error: unknown) => say(`${item.label} failed: ${messageOf(error)}`));
  };

  return (
    <Modal open={open} onOpenChange={close} title="Command palette" className="palette">
      <Command label="Commands" shouldFilter={false} value={highlighted} onValueChange={setActive} loop>
        <Command.Input
          value={search}
          onValueChange={(text) => {
            setSearch(text);
            setActive(rankItems(items, text)[0]?.items[0]?.id ?? '');
          }}
          placeholder="Go to a page, server, conversation or tool, or run an action…"
          data-autofocus
        />
        <Command.List className="palette-list">
          {shown.length === 0 && <p className="palette-empty">Nothing matches “{search}”.</p>}
          {groups.map(({ group, items: inGroup }) => (
            <Command.Group key={group} heading={group}>
              {inGroup.map((item) => (
                <Command.Item key={item.id} value={item.id} onSelect={() => run(item)}>
                  <Icon icon={GROUP_ICONS[group]} className="palette-icon" />
                  <span className="palette-label">{item.label}</span>
                  {item.detail && <span className="palette-detail">{item.detail}</span>}
                  {item.shortcut && <kbd>{item.shortcut}</kbd>}
                </Command.Item>
              ))}
            </Command.Group>
          ))}
        </Command.List>
      </Command>
      <p className="palette-help muted">
        <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to run · <kbd>Esc</kbd> to close
      </p>
    </Modal>
  );
}

const GROUP_ICONS: Record<PaletteGroup, LucideIcon> = {
  Actions: Zap,
  Pages: Compass,
  Servers: Server,
  Conversations: MessageSquare,
  Tools: Wrench,
};

/** The tools of every Ready server, fetched each time the palette opens (a server that fails is left out). */
function useReadyServerTools(open: boolean): Record<string, readonly ToolView[]> {
  const api = useAppStore((s) => s.api);
  const readyIds = useAppStore(useShallow((s) => s.serverOrder.filter((id) => s.servers[id]?.runtime.status === 'ready')));
  const [tools, setTools] = useState<Record<string, readonly ToolView[]>>({});
  const key = readyIds.join('\n');
  useEffect(() => {
    if (!open) return;
    let current = true;
    const ids = key ? key.split('\n') : [];
    void Promise.allSettled(ids.map((serverId) => api.listTools({ serverId }))).then((results) => {
      if (!current) return;
      const next: Record<string, readonly ToolView[]> = {};
      results.forEach((result, i) => {
        if (result.status === 'fulfilled') next[ids[i]] = result.value;
      });
      setTools(next);
    });
    return () => {
      current = false;
    };
  }, [open, key, api]);
  return tools;
}
