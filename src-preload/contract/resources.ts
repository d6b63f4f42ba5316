import { z } from 'zod';
import { IdString, method } from './method';
import type { Truncation } from './tools';

/**
 * Resources: what each server offers to read, browsed a page at a time from the host's copy of the
 * complete list; reads with capped previews (the rest in slices, so no call or frame grows past the
 * transports' limits); resource templates; subscriptions to updates. Every read the user makes is
 * audited (see contract/content-audit.ts).
 */

/** Largest URI the host accepts. */
export const MAX_URI_CHARS = 8_192;

/**
 * True for an absolute URI (RFC 3986: a scheme, then anything without spaces or control characters).
 * A pattern, not `new URL`: custom schemes (`demo://`, `git://`) are URIs too, and the contract runs
 * without DOM or Node typings.
 */
export function isAbsoluteUri(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a URI may not contain
  return /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001f\u007f]*$/.test(text);
}

/** A resource URI as inputs carry it: checked here so a bad one never reaches a server. */
export const ResourceUriSchema = z
  .string()
  .max(MAX_URI_CHARS, `A URI is at most ${MAX_URI_CHARS} characters`)
  .refine(isAbsoluteUri, 'Not a valid URI: it must start with a scheme such as file: or https: and contain no spaces');

/** Hints a server gives about a resource (never trusted, only shown). */
export interface ResourceAnnotationsView {
  audience?: ('user' | 'assistant')[];
  /** 0 (optional) … 1 (effectively required). */
  priority?: number;
  /** ISO 8601. */
  lastModified?: string;
}

/** One resource of one server, as lists show it. */
export interface ResourceView {
  serverId: string;
  serverName: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Bytes, as the server states it. */
  size?: number;
  annotations?: ResourceAnnotationsView;
}

/** A window onto the host's list of resources (of one or several servers), after a filter. */
export interface ResourcePage {
  items: ResourceView[];
  offset: number;
  /** Resources matching the filter (the virtual list's length). */
  total: number;
  /** Resources before filtering. */
  unfiltered: number;
  /** Why a server's list is incomplete (pagination loop, item cap, a listing error), one sentence each. */
  notes: string[];
}

/** One resource template, with its variables (or why its syntax is not understood). */
export interface ResourceTemplateView {
  serverId: string;
  serverName: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ResourceAnnotationsView;
  /** Variables in order of appearance; empty when `problem` is set. */
  variables: { name: string; required: boolean }[];
  /** The template's syntax is malformed: what is wrong (the form is not offered). */
  problem?: string;
}

export interface ResourceTemplateList {
  templates: ResourceTemplateView[];
  notes: string[];
}

/** One content item of a read, capped for display; the rest comes with `getResourcePart`. */
export type ResourceContentView =
  | { kind: 'text'; uri: string; mimeType?: string; text: string; truncated?: Truncation }
  /** Binary: `data` (base64) only for small media shown inline; everything else downloads in slices. */
  | { kind: 'blob'; uri: string; mimeType?: string; bytes: number; data?: string };

/** What a read returned, ready to show. */
export interface ResourceReadView {
  /** Names the full result kept in the host (bounded, least recently used go first). */
  readId: string;
  serverId: string;
  serverName: string;
  uri: string;
  contents: ResourceContentView[];
  readAt: string;
  durationMs: number;
}

/** Characters `offset…` of a content item's text, or of its base64 data. */
export interface ResourceSlice {
  text: string;
  offset: number;
  total: number;
}

/** Why a read was made, for the audit trail ("by which action"). */
export const RESOURCE_READ_PURPOSES = ['read', 'template', 'link', 'update'] as const;
export type ResourceReadPurpose = (typeof RESOURCE_READ_PURPOSES)[number];

/** A followed resource: survives restarts of the server and of Patchbay until the user unsubscribes. */
export interface ResourceSubscriptionView {
  serverId: string;
  uri: string;
  since: string;
  /** `active`: the server acknowledged it; `pending`: waiting for the server to be Ready; `failed`: see `error`. */
  state: 'active' | 'pending' | 'failed';
  error?: string;
  /** The last `notifications/resources/updated` for it. */
  updatedAt?: string;
}

export interface ResourcesSnapshot {
  subscriptions: ResourceSubscriptionView[];
}

/** Largest slice of a read: keeps every answer well inside web mode's 1 MB frame. */
export const MAX_RESOURCE_SLICE = 512 * 1024;

const ServerIdsSchema = z.array(IdString).min(1).max(500);
const ListResourcesSchema = z
  .object({
    serverIds: ServerIdsSchema,
    /** Case-insensitive substring of the name, title, URI or MIME type. */
    filter: z.string().max(500).default(''),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
const ServersInputSchema = z.object({ serverIds: ServerIdsSchema }).strict();
const ReadResourceSchema = z
  .object({ serverId: IdString, uri: ResourceUriSchema, purpose: z.enum(RESOURCE_READ_PURPOSES).default('read') })
  .strict();
const ResourcePartSchema = z
  .object({
    readId: IdString,
    index: z.number().int().min(0).max(100_000),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(MAX_RESOURCE_SLICE).default(100_000),
  })
  .strict();
const ServerUriSchema = z.object({ serverId: IdString, uri: ResourceUriSchema }).strict();
const ServerOnlySchema = z.object({ serverId: IdString }).strict();

export const resourceMethods = {
  /** A page of the resources of these servers (concatenated in the given order), filtered. Never calls a server. */
  listResources: method<typeof ListResourcesSchema, ResourcePage>(ListResourcesSchema),
  /** The resource templates of these servers, each with its variables (or the problem with its syntax). */
  listResourceTemplates: method<typeof ServersInputSchema, ResourceTemplateList>(ServersInputSchema),
  /** Walks the server's resource and template lists again (they also refresh on `list_changed`). */
  refreshResources: method<typeof ServerOnlySchema, void>(ServerOnlySchema),
  /** Reads a resource through its server (the user's action, audited); answers with capped previews. */
  readResource: method<typeof ReadResourceSchema, ResourceReadView>(ReadResourceSchema),
  /** More of a content item a preview cut (text, or base64 data for downloads), while the host keeps the read. */
  getResourcePart: method<typeof ResourcePartSchema, ResourceSlice>(ResourcePartSchema),
  /** Follows a resource: `resources/subscribe` (2025) or `subscriptions/listen` (2026); kept across restarts. */
  subscribeResource: method<typeof ServerUriSchema, ResourceSubscriptionView[]>(ServerUriSchema),
  /** Stops following it (and forgets it). */
  unsubscribeResource: method<typeof ServerUriSchema, ResourceSubscriptionView[]>(ServerUriSchema),
};

export interface ResourceEvents {
  /** A server's resource, template or prompt lists changed (list_changed, a restart, a refresh): pages are stale. */
  serverContentChanged: { serverId: string };
  /** A followed resource changed on its server (`notifications/resources/updated`). */
  resourceUpdated: { serverId: string; uri: string; at: string };
  /** The followed resources, whole (after subscribe, unsubscribe, or a change of state). */
  resourceSubscriptionsChanged: ResourceSubscriptionView[];
}
