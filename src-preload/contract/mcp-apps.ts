import { z } from 'zod';
import { IdString, method } from './method';
import { ToolArgsSchema, type JsonObject } from './tools';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865): a tool names a `ui://` resource
 * holding HTML; Patchbay shows it next to the tool's result in a sandboxed frame on an origin of its
 * own, and answers what the app asks through these methods — each app request is bound (by its view
 * id) to the server that owns the app, and passes the same rules as the model's: a tool call goes
 * through consent, a read is audited as the app's.
 */

/** The extension's identifier, under `capabilities.extensions`. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/**
 * The notification an app's frame sends (from Patchbay's bootstrap in it, not from the app) when one
 * of Patchbay's own shortcuts is pressed there: keys pressed in a cross-origin frame never reach the
 * page, so Ctrl+K and the like would do nothing while an app has the focus. It can only press a key
 * the user could press; the renderer runs it as a shortcut and nothing else.
 */
export const APP_SHORTCUT_METHOD = 'patchbay/shortcut';

/** The MIME type of the app resources Patchbay renders. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The network origins an app's Content-Security-Policy lets through (from its resource's `_meta.ui.csp`). */
export interface AppCspView {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
  /** Declared entries Patchbay refused (malformed, or one of Patchbay's own origins), so the user can see them. */
  refused: string[];
}

/** What the renderer needs to show one app: the one-time frame URL and the HTML to load in it. */
export interface AppViewGrant {
  /** Names this view in every later app request (binds them to its server). */
  viewId: string;
  serverId: string;
  serverName: string;
  tool: string;
  resourceUri: string;
  /** The frame proxy page on Patchbay's separate app origin; it serves once. */
  frameUrl: string;
  /** That origin (messages from the frame must come from it). */
  frameOrigin: string;
  html: string;
  csp: AppCspView;
  prefersBorder?: boolean;
  /** The tool's definition (name, title, description, input schema) for the app's host context. */
  toolInfo: JsonObject;
}

/** The app's latest context for the model, waiting for the next message of a conversation. */
export interface AppModelContextView {
  viewId: string;
  conversationId: string;
  serverId: string;
  serverName: string;
  tool: string;
  /** What the model will read, as text. */
  text: string;
  updatedAt: string;
}

const Origin = z
  .string()
  .max(200)
  .regex(/^(https?:\/\/[^/]+|file:\/\/)$/, 'An origin such as http://127.0.0.1:4000');
const OpenAppViewSchema = z
  .object({
    serverId: IdString,
    tool: z.string().min(1).max(500),
    /** The renderer's own origin: the only one the frame proxy talks to. */
    parentOrigin: Origin,
    /** The conversation the view sits in (its model-context updates go there). */
    conversationId: IdString.optional(),
  })
  .strict();
const ViewIdSchema = z.object({ viewId: IdString }).strict();
const CallFromAppSchema = z.object({ viewId: IdString, tool: z.string().min(1).max(500), args: ToolArgsSchema.default({}) }).strict();
const ReadFromAppSchema = z.object({ viewId: IdString, uri: z.string().min(1).max(8_192) }).strict();
const ModelContextSchema = z
  .object({
    viewId: IdString,
    /** MCP content blocks (text is used; other blocks are described). */
    content: z.array(z.record(z.string(), z.unknown())).max(100).default([]),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const mcpAppMethods = {
  /**
   * Reads the tool's UI resource through its server (cached per server until its lists change),
   * builds the frame's Content-Security-Policy from the resource's `_meta.ui.csp`, and registers a
   * one-time frame page for it. Fails with a message naming the server when the tool has no app.
   */
  openAppView: method<typeof OpenAppViewSchema, AppViewGrant>(OpenAppViewSchema),
  /** The frame is gone: its later requests are refused. */
  closeAppView: method<typeof ViewIdSchema, void>(ViewIdSchema),
  /**
   * A `tools/call` from the app: only to its own server and to tools it may call (`visibility`
   * includes `app`), through consent like a model's call ("the app of <server> wants to run…"),
   * audited with origin `app`. Answers with the server's result (or an error result).
   */
  callToolFromApp: method<typeof CallFromAppSchema, { result: JsonObject }>(CallFromAppSchema),
  /** A `resources/read` from the app, from its own server, audited as the app's. */
  readResourceFromApp: method<typeof ReadFromAppSchema, { result: JsonObject }>(ReadFromAppSchema),
  /**
   * `ui/update-model-context`: the app's context replaces its previous one and goes with the next
   * message of the view's conversation, shown there like an attachment.
   */
  setAppModelContext: method<typeof ModelContextSchema, AppModelContextView>(ModelContextSchema),
};
