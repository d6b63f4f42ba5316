/**
 * Where a link inside a server's Markdown resource goes. Web links (and mail) open outside the app as
 * in the chat; a relative link names another resource of the same server, so it is resolved against
 * the resource's own URI and read through that server — never handed to the window, whose own
 * address it would otherwise resolve against (the host's 404 page). What cannot be followed says why.
 */
export type ResourceLinkTarget =
  | { kind: 'external' }
  | { kind: 'resource'; uri: string }
  /** A link to a heading of the same document: nothing to open (and the window must not navigate). */
  | { kind: 'anchor' }
  | { kind: 'refused'; reason: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** What the chat's Markdown opens outside the app too (react-markdown keeps only these absolute ones). */
const EXTERNAL = /^(https?|mailto|xmpp|ircs?):/i;

/** The scheme and authority a URI's resources share (`file://`, `docs://guide`, `https://example.com`). */
function spaceOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

export function resolveResourceLink(href: string, baseUri: string, serverName: string): ResourceLinkTarget {
  const link = href.trim();
  if (link === '') return { kind: 'refused', reason: 'This link has no address Patchbay can open.' };
  if (link.startsWith('#')) return { kind: 'anchor' };
  if (SCHEME.test(link)) {
    if (EXTERNAL.test(link)) return { kind: 'external' };
    return {
      kind: 'refused',
      reason: `Patchbay does not open “${link.split(':')[0]}:” links: it opens web links in your browser and relative links through ${serverName}.`,
    };
  }
  let base: URL;
  try {
    base = new URL(baseUri);
  } catch {
    return {
      kind: 'refused',
      reason: `“${link}” is relative, but this resource’s URI (${baseUri}) is not one a relative link can be resolved against.`,
    };
  }
  // A URI without a hierarchy ("notes:today") resolves nothing relative to it.
  if (!base.href.startsWith(`${base.protocol}//`)) {
    return { kind: 'refused', reason: `“${link}” is relative, but this resource’s URI (${baseUri}) has no folders to resolve it in.` };
  }
  let resolved: URL;
  try {
    resolved = new URL(link, base);
  } catch {
    return { kind: 'refused', reason: `“${link}” cannot be resolved against ${baseUri}.` };
  }
  if (spaceOf(resolved) !== spaceOf(base)) {
    return {
      kind: 'refused',
      reason: `“${link}” leads out of ${serverName}’s resources (${spaceOf(base)}), so Patchbay does not read it through ${serverName}.`,
    };
  }
  return { kind: 'resource', uri: resolved.href };
}
