/**
 * What the command palette offers, built from the app's state: every page (and Settings section),
 * the common actions, each server (open, start or stop, restart, its logs), the loaded conversations
 * and the tools of Ready servers. Pure: the palette renders these and runs the chosen one.
 */
import type { ConversationSummary, HostApi, ServerView, Theme, ToolSetView, ToolView } from '@contract';
import { SETTINGS_SECTIONS, type Route, type SettingsSection } from '../../routing/routes';
import type { IntentKind } from '../../stores/navigation';
import { canStart, PRESET_LABELS, STATUS_LABELS } from '../servers/server-status';
import { shortcutKeys } from '../shell/shortcuts';

export type PaletteGroup = 'Pages' | 'Actions' | 'Servers' | 'Conversations' | 'Tools';
export const PALETTE_GROUPS: readonly PaletteGroup[] = ['Actions', 'Pages', 'Servers', 'Conversations', 'Tools'];

export interface PaletteItem {
  /** Unique among the items (also what the list filters on, with the keywords). */
  id: string;
  group: PaletteGroup;
  label: string;
  /** Shown dimmed after the label (a server's status, a tool's server). */
  detail?: string;
  /** More words it is found by. */
  keywords?: string[];
  /** Its keyboard shortcut, written for this system. */
  shortcut?: string;
  run(): unknown;
}

/** What the items act with. */
export interface PaletteContext {
  servers: readonly ServerView[];
  conversations: readonly ConversationSummary[];
  /** The tools of Ready servers, by server id (fetched when the palette opens). */
  tools: Readonly<Record<string, readonly ToolView[]>>;
  /** Tool sets, and the open conversation (its set is switched from here). */
  toolSets?: readonly ToolSetView[];
  activeConversation?: ConversationSummary;
  /** The open conversation, if its answer is running (Stop is offered). */
  runningConversationId: string | null;
  theme: Theme;
  /** The theme the System setting shows right now. */
  systemDark: boolean;
  mac: boolean;
  sectionLabels: Record<SettingsSection, string>;
  api: HostApi;
  go(route: Route): void;
  request(kind: IntentKind): void;
  newConversation(): unknown;
}

const PAGE_ITEMS: { page: Route['page']; label: string }[] = [
  { page: 'chat', label: 'Chat' },
  { page: 'servers', label: 'Servers' },
  { page: 'roots', label: 'Roots' },
  { page: 'logs', label: 'Logs' },
  { page: 'settings', label: 'Settings' },
];

export function paletteItems(ctx: PaletteContext): PaletteItem[] {
  const { api, go } = ctx;
  const items: PaletteItem[] = [];
  const dark = ctx.theme === 'dark' || (ctx.theme === 'system' && ctx.systemDark);

  items.push(
    {
      id: 'action:new-conversation',
      group: 'Actions',
      label: 'New conversation',
      keywords: ['chat'],
      shortcut: shortcutKeys('new-conversation', ctx.mac),
      run: ctx.newConversation,
    },
    {
      id: 'action:focus-message',
      group: 'Actions',
      label: 'Focus the message box',
      keywords: ['chat', 'type', 'write'],
      shortcut: shortcutKeys('focus-message', ctx.mac),
      run: () => ctx.request('focus-message'),
    },
  );
  if (ctx.runningConversationId) {
    const id = ctx.runningConversationId;
    items.push({
      id: 'action:stop',
      group: 'Actions',
      label: 'Stop the answer',
      shortcut: shortcutKeys('stop', ctx.mac),
      run: () => api.stopTurn({ conversationId: id }),
    });
  }
  items.push(
    { id: 'action:add-server', group: 'Actions', label: 'Add server', keywords: ['new server'], run: () => ctx.request('add-server') },
    {
      id: 'action:find-servers',
      group: 'Actions',
      label: 'Find servers',
      keywords: ['registry', 'search'],
      run: () => ctx.request('find-servers'),
    },
    {
      id: 'action:import-servers',
      group: 'Actions',
      label: 'Import servers',
      keywords: ['claude_desktop_config', 'mcp.json'],
      run: () => ctx.request('import-servers'),
    },
    {
      id: 'action:quick-add-everything',
      group: 'Actions',
      label: `Quick add ${PRESET_LABELS.everything}`,
      keywords: ['demo', 'preset'],
      run: () => api.addPresetServer({ preset: 'everything' }).then(() => go({ page: 'servers' })),
    },
    {
      id: 'action:toggle-theme',
      group: 'Actions',
      label: dark ? 'Switch to the light theme' : 'Switch to the dark theme',
      keywords: ['toggle theme', 'dark', 'light', 'appearance'],
      run: () => api.updateSettings({ theme: dark ? 'light' : 'dark' }),
    },
  );

  items.push(...toolSetItems(ctx));

  for (const { page, label } of PAGE_ITEMS) {
    items.push({ id: `page:${page}`, group: 'Pages', label, keywords: ['go to', 'page'], run: () => go({ page } as Route) });
  }
  for (const section of SETTINGS_SECTIONS) {
    items.push({
      id: `page:settings:${section}`,
      group: 'Pages',
      label: `Settings › ${ctx.sectionLabels[section]}`,
      run: () => go({ page: 'settings', section }),
    });
  }

  for (const server of ctx.servers) {
    const { id, name } = server.config;
    const status = server.runtime.status;
    items.push({
      id: `server:${id}:open`,
      group: 'Servers',
      label: name,
      detail: STATUS_LABELS[status],
      keywords: ['open', 'server'],
      run: () => go({ page: 'servers', serverId: id, tab: 'overview' }),
    });
    if (canStart(status)) {
      items.push({ id: `server:${id}:start`, group: 'Servers', label: `Start ${name}`, run: () => api.startServer({ id }) });
    } else {
      items.push({ id: `server:${id}:stop`, group: 'Servers', label: `Stop ${name}`, run: () => api.stopServer({ id }) });
    }
    items.push(
      { id: `server:${id}:restart`, group: 'Servers', label: `Restart ${name}`, run: () => api.restartServer({ id }) },
      { id: `server:${id}:logs`, group: 'Servers', label: `Logs of ${name}`, run: () => go({ page: 'logs', serverId: id }) },
    );
  }

  for (const conversation of ctx.conversations) {
    items.push({
      id: `conversation:${conversation.id}`,
      group: 'Conversations',
      label: conversation.title,
      keywords: ['conversation', 'chat'],
      run: () => go({ page: 'chat', conversationId: conversation.id }),
    });
  }

  for (const server of ctx.servers) {
    for (const tool of ctx.tools[server.config.id] ?? []) {
      items.push({
        id: `tool:${server.config.id}:${tool.name}`,
        group: 'Tools',
        label: tool.name,
        detail: server.config.name,
        keywords: [tool.title ?? '', server.config.name, 'tool'].filter(Boolean),
        run: () => go({ page: 'servers', serverId: server.config.id, tab: 'tools', tool: tool.name }),
      });
    }
  }
  return items;
}

/** Switching the open conversation's tool set: one item per set other than the current one, and back to all. */
function toolSetItems(ctx: PaletteContext): PaletteItem[] {
  const conversation = ctx.activeConversation;
  if (!conversation || !ctx.toolSets?.length) return [];
  const choose = (toolSetId: string | null) => () => ctx.api.setConversationToolSet({ id: conversation.id, toolSetId });
  const items: PaletteItem[] = ctx.toolSets
    .filter((set) => set.id !== conversation.toolSetId)
    .map((set) => ({
      id: `action:tool-set:${set.id}`,
      group: 'Actions' as const,
      label: `Use tool set ${set.name}`,
      keywords: ['tool set', 'tools', 'switch'],
      run: choose(set.id),
    }));
  if (conversation.toolSetId) {
    items.push({
      id: 'action:tool-set:none',
      group: 'Actions',
      label: 'Use all offered tools',
      keywords: ['tool set', 'tools'],
      run: choose(null),
    });
  }
  return items;
}
