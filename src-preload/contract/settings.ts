import { z } from 'zod';
import { UpdateFeedSettingSchema } from './app';
import { FLAGGED_CONTENT_MODES } from './content-flags';
import { method } from './method';
import { DEFAULT_REGISTRY_URL } from './registry';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const TOOL_SEARCH_MODES = ['automatic', 'always', 'off'] as const;
export type ToolSearchMode = (typeof TOOL_SEARCH_MODES)[number];

/** User settings persisted in SQLite. Every key has a default, so a new install needs nothing. */
export const SettingsSchema = z.object({
  theme: z.enum(THEMES),
  /**
   * The Anthropic provider's base URL (a quick field: stored with that provider, see providers.ts);
   * empty means Anthropic's API.
   */
  anthropicBaseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]),
  /** The default model (new conversations, sampling's fallback), of the default provider. */
  defaultModel: z.string().trim().min(1).max(200),
  /** The provider of the default model (an id from Settings › Providers). */
  defaultProviderId: z.string().trim().min(1).max(100),
  /** Chat: the most tokens one model answer may use. */
  maxTokens: z.number().int().min(1).max(128_000),
  /** Chat: instructions sent with every request; empty for none. */
  systemPrompt: z.string().max(20_000),
  /** Chat: model requests one turn may make before it stops and says so. */
  maxToolRounds: z.number().int().min(1).max(200),
  /** Chat: a tool result's text beyond this many characters is cut for the model (the user sees it all). */
  toolResultMaxChars: z.number().int().min(1_000).max(1_000_000),
  /** Chat: characters of attached resources and prompt text one message may carry to the model. */
  attachmentBudgetChars: z.number().int().min(1_000).max(1_000_000),
  /**
   * Remote servers' OAuth: an https URL where your organisation hosts Patchbay's OAuth client metadata
   * document (client ID metadata document, CIMD). Used as the client ID with authorization servers
   * that support it; empty: dynamic client registration.
   */
  oauthClientMetadataUrl: z.union([z.literal(''), z.url({ protocol: /^https$/ })]),
  /** The desktop app checks for updates (at start and daily) only when the user turned this on. */
  updatesEnabled: z.boolean(),
  /** Where updates come from; empty: the feed the app was built with (see `parseUpdateFeed`). */
  updateFeed: UpdateFeedSettingSchema,
  /** Find servers: the MCP registry searched (its `/v0.1/servers` API); an organisation can run its own. */
  registryUrl: z.url({ protocol: /^https?$/ }).max(2_000),
  /**
   * Chat: tool search (deferred loading). `automatic`: when the offered tools are too many for the
   * model, it gets the pinned tools plus a search tool and finds the rest; `always`: so for every
   * request; `off`: every offered tool goes up front (a request over the provider's limit is not sent).
   */
  toolSearch: z.enum(TOOL_SEARCH_MODES),
  /** The tool set new conversations start with (an id; empty: every offered tool). */
  defaultToolSetId: z.string().max(100),
  /**
   * Chat: the most characters one model answer may hold (text and tool-call arguments); beyond it the
   * answer stops being read, the request is ended, and the chat says so (what came is kept).
   */
  maxAnswerChars: z.number().int().min(10_000).max(100_000_000),
  /**
   * What happens when the content scanner flags a tool result: `ask` before the model sees it (a
   * question; the turn waits), `warn` only (the card shows the flag; the model is told to treat it as
   * data), or `block` (the model gets a note instead of the result).
   */
  flaggedContent: z.enum(FLAGGED_CONTENT_MODES),
  /**
   * Skills: the folder whose subfolders with a `SKILL.md` are the user's local skills (Agent Skills
   * format); empty: none. An absolute path.
   */
  skillsFolder: z.union([
    z.literal(''),
    z
      .string()
      .trim()
      .min(1)
      .max(4_096)
      .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), 'Enter an absolute path'),
  ]),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  anthropicBaseUrl: '',
  defaultModel: 'claude-sonnet-5-5',
  defaultProviderId: 'anthropic',
  maxTokens: 4096,
  systemPrompt: '',
  maxToolRounds: 25,
  toolResultMaxChars: 50_000,
  attachmentBudgetChars: 200_000,
  oauthClientMetadataUrl: '',
  updatesEnabled: false,
  updateFeed: '',
  registryUrl: DEFAULT_REGISTRY_URL,
  toolSearch: 'automatic',
  defaultToolSetId: '',
  maxAnswerChars: 1_000_000,
  flaggedContent: 'ask',
  skillsFolder: '',
};

export const SettingsPatchSchema = SettingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

export const settingsMethods = {
  /** Applies a partial settings change; resolves with the settings as committed to SQLite. */
  updateSettings: method<typeof SettingsPatchSchema, Settings>(SettingsPatchSchema),
};

export interface SettingsEvents {
  settingsChanged: Settings;
}
