/**
 * The small page the browser shows after the authorization server redirected it back to Patchbay.
 * Every piece of text is escaped: server names and error texts come from elsewhere.
 */

/** What the page says. */
export interface CallbackPage {
  ok: boolean;
  /** One line, e.g. "Signed in to GitHub — you can close this tab". */
  title: string;
  detail?: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function renderCallbackPage(page: CallbackPage): string {
  const detail = page.detail ? `<p>${escapeHtml(page.detail)}</p>` : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Patchbay</title>',
    '<style>body{font:16px system-ui,sans-serif;margin:15vh auto;max-width:32rem;padding:0 1rem;color:#222}h1{font-size:1.25rem}.error{color:#a11}</style>',
    `</head><body><h1${page.ok ? '' : ' class="error"'}>${escapeHtml(page.title)}</h1>${detail}</body></html>`,
  ].join('');
}

/** Headers for every page of the loopback listener: nothing cached, nothing loaded, no referrer leaks the code. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
} as const;
