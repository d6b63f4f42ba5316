/**
 * The Content-Security-Policy of an app's frame, built from its resource's `_meta.ui.csp` (SEP-1865):
 * only the origins the server declared get through, each kind only where it belongs —
 * `connectDomains` → fetch/XHR/WebSocket, `resourceDomains` → scripts, styles, images, fonts, media,
 * `frameDomains` → nested frames, `baseUriDomains` → `<base>`. Nothing declared means no network at
 * all (`connect-src 'none'`), no nested frames, no `<base>`; plugins never; forms post nowhere.
 *
 * Declared entries are untrusted: anything that could break out of a directive (`;`, quotes,
 * spaces, keywords such as `'unsafe-eval'`), wildcards beyond a subdomain, non-network schemes, and
 * Patchbay's own origins (the renderer, its WebSocket, the sandbox) are refused — and reported, so
 * the user can see what the app asked for and did not get. Sent as an HTTP header by the sandbox
 * server (the app cannot change a header the way it could a meta tag).
 */
import type { AppCspView } from '@contract';

/** The `_meta.ui.csp` of a UI resource, as servers send it (untrusted). */
export interface DeclaredCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

/** Most entries read per list (a server cannot make the header huge). */
const MAX_ENTRIES = 50;
/**
 * `https://host`, `https://*.host`, `wss://host:8443`: a network scheme, a host (optionally one
 * leading wildcard label), an optional port — never a wildcard port, which could cover Patchbay's own.
 */
const SOURCE = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

/** Builds the header and what it allows; `ownOrigins` are never allowed whatever the server declares. */
export function buildAppCsp(declared: DeclaredCsp | undefined, ownOrigins: readonly string[]): { header: string; view: AppCspView } {
  const refused: string[] = [];
  const own = new Set(ownOrigins.flatMap(variantsOf));
  const pick = (list: unknown): string[] => {
    if (!Array.isArray(list)) return [];
    const kept: string[] = [];
    for (const entry of list.slice(0, MAX_ENTRIES)) {
      const text = typeof entry === 'string' ? entry.trim().replace(/\/+$/, '') : '';
      if (SOURCE.test(text) && !own.has(text.toLowerCase())) {
        if (!kept.includes(text)) kept.push(text);
      } else refused.push(typeof entry === 'string' ? entry.slice(0, 200) : (JSON.stringify(entry)?.slice(0, 200) ?? String(entry)));
    }
    return kept;
  };
  const view: AppCspView = {
    connectDomains: pick(declared?.connectDomains),
    resourceDomains: pick(declared?.resourceDomains),
    frameDomains: pick(declared?.frameDomains),
    baseUriDomains: pick(declared?.baseUriDomains),
    refused,
  };
  const resources = view.resourceDomains.join(' ');
  const list = (sources: string[], none = "'none'") => (sources.length > 0 ? sources.join(' ') : none);
  const header = [
    "default-src 'none'",
    // 'self' is the app origin, which serves nothing but the proxy script the page runs.
    `script-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: blob: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `media-src data: blob: ${resources}`.trim(),
    `worker-src blob: ${resources}`.trim(),
    `connect-src ${list(view.connectDomains)}`,
    `frame-src ${list(view.frameDomains)}`,
    // Frames and workers have their own directives; nothing else may open a nested context.
    "child-src 'none'",
    `base-uri ${list(view.baseUriDomains)}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join('; ');
  return { header, view };
}

/** An origin and the forms a declared entry could spell it in (ws for http, with and without a default port). */
function variantsOf(origin: string): string[] {
  const url = new URL(origin);
  const ws = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const hosts = [
    url.host,
    url.hostname === '127.0.0.1' ? `localhost:${url.port}` : undefined,
    url.hostname === 'localhost' ? `127.0.0.1:${url.port}` : undefined,
  ];
  return hosts
    .filter((h): h is string => !!h)
    .flatMap((host) => [`${url.protocol}//${host}`, `${ws}//${host}`].map((o) => o.toLowerCase()));
}
