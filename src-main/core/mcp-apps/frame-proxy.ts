/**
 * The frame proxy (SEP-1865 calls it the "Sandbox proxy"; its `ui/notifications/sandbox-…` method
 * names are the spec's and stay): the page the renderer frames on Patchbay's app origin. It tells the host it is ready, takes the app's HTML from the host once, runs it in an inner
 * frame, and relays JSON-RPC between the two — checking that host messages come from the renderer's
 * exact origin and app messages from its own inner frame, and posting to the renderer by that exact
 * origin (an Electron `file://` page has no origin to name: there the renderer checks the source).
 *
 * The inner frame is `sandbox="allow-scripts allow-forms"` without `allow-same-origin`: the app gets
 * an opaque origin of its own, so it cannot reach even this proxy's DOM, let alone the renderer's;
 * no `allow-top-navigation`, no `allow-popups`, no `allow-modals`. It is loaded with `srcdoc`, so it
 * inherits this page's Content-Security-Policy — the one built from the app's `_meta.ui.csp`. The app's
 * HTML gets the bootstrap (`app-bootstrap.ts`) first, after its doctype, so WebRTC is gone before the
 * app's own scripts run.
 */
import { APP_BOOTSTRAP } from './app-bootstrap';

/** The proxy page for one app; `parentOrigin` is the renderer's origin (validated by the caller). */
export function proxyPage(parentOrigin: string): string {
  const attribute = parentOrigin.replace(/[^A-Za-z0-9:/.\-_[\]]/g, '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>
</head>
<body><script src="/proxy.js" data-parent-origin="${attribute}"></script></body>
</html>
`;
}

/** The proxy's script (served from the app origin, so the CSP's `'self'` runs it). */
export const PROXY_SCRIPT = `(() => {
  'use strict';
  const BOOTSTRAP = ${JSON.stringify(`<script>${APP_BOOTSTRAP}</script>`)};
  const withBootstrap = (html) => {
    const doctype = /^\\s*<!doctype[^>]*>/i.exec(html);
    return doctype ? doctype[0] + BOOTSTRAP + html.slice(doctype[0].length) : BOOTSTRAP + html;
  };
  const parentOrigin = document.currentScript && document.currentScript.dataset.parentOrigin;
  if (!parentOrigin || window.parent === window) return;
  const named = /^https?:\\/\\//.test(parentOrigin);
  const target = named ? parentOrigin : '*';
  const fromParent = (origin) => (named ? origin === parentOrigin : origin === 'null' || origin === 'file://');
  const reserved = (data) => !!data && typeof data.method === 'string' && data.method.indexOf('ui/notifications/sandbox-') === 0;
  let inner = null;
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.parent) {
      if (!fromParent(event.origin)) return;
      if (data && data.method === 'ui/notifications/sandbox-resource-ready') {
        const html = data.params && data.params.html;
        if (inner || typeof html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', 'allow-scripts allow-forms');
        inner.setAttribute('title', 'App');
        inner.srcdoc = withBootstrap(html);
        document.body.appendChild(inner);
        return;
      }
      if (reserved(data) || !inner || !inner.contentWindow) return;
      inner.contentWindow.postMessage(data, '*');
    } else if (inner && event.source === inner.contentWindow) {
      if (reserved(data)) return;
      window.parent.postMessage(data, target);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, target);
})();
`;
