/**
 * The script the frame proxy puts first in every app's document, so it runs before any of the
 * app's code: it takes WebRTC away. CSP has no directive for WebRTC, so an app that may reach no
 * origin could still send UDP (STUN, data channels) anywhere through `RTCPeerConnection`; connect
 * domains an app declares are for HTTP and WebSocket, so WebRTC is gone whatever it declares.
 *
 * Every `RTC…` interface is replaced on the app's window by a non-configurable, non-writable
 * `undefined`, so the app cannot put it back. A fresh realm would bring fresh constructors: the app's
 * frame has an opaque origin, so the only child frame whose window it could reach, or whose script
 * could run unchecked, is a `srcdoc` one (CSP's `frame-src` does not cover `srcdoc`). So the script also
 * removes, before it can load, every frame the app adds that is not an http(s) page of a frame domain
 * it declared (those the CSP still checks), and every `<object>`/`<embed>`, in the document and in any
 * shadow root the app attaches; the ways to parse a shadow root from a string are removed as well.
 * In the desktop app the window's WebRTC policy also keeps UDP from leaving (`electron/window.ts`).
 *
 * It also passes Patchbay's own shortcuts up (Ctrl/⌘ with K, Shift+O or `.`, see the renderer's
 * `shortcuts.ts`): a key pressed in the app's frame never reaches Patchbay's page, so the palette
 * would not open while an app has the focus. Only when the app did not handle the key itself.
 */

import { APP_SHORTCUT_METHOD } from '@contract';

/** The bootstrap's source (plain ES2017, run in the app's frame). */
export const APP_BOOTSTRAP = `(() => {
  'use strict';
  window.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || !(event.ctrlKey || event.metaKey)) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (!(key === 'k' && !event.shiftKey) && !(key === 'o' && event.shiftKey) && !(key === '.' && !event.shiftKey)) return;
    event.preventDefault();
    const params = { key: key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, shiftKey: event.shiftKey };
    window.parent.postMessage({ jsonrpc: '2.0', method: ${JSON.stringify(APP_SHORTCUT_METHOD)}, params: params }, '*');
  });
  const seal = (target, name) => {
    try { delete target[name]; } catch (e) {}
    try { Object.defineProperty(target, name, { value: undefined, writable: false, configurable: false, enumerable: false }); } catch (e) {}
  };
  const names = new Set(['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCRtpSender', 'RTCRtpReceiver',
    'RTCRtpTransceiver', 'RTCIceCandidate', 'RTCSessionDescription', 'RTCIceTransport', 'RTCDtlsTransport', 'RTCSctpTransport',
    'RTCCertificate', 'RTCDTMFSender', 'RTCRtpScriptTransform', 'RTCEncodedAudioFrame', 'RTCEncodedVideoFrame']);
  for (const name of Object.getOwnPropertyNames(window)) if (/^(webkit)?RTC/.test(name)) names.add(name);
  for (const name of names) seal(window, name);
  if (window.Element) seal(Element.prototype, 'setHTMLUnsafe');
  if (window.ShadowRoot) seal(ShadowRoot.prototype, 'setHTMLUnsafe');
  if (window.Document) seal(Document, 'parseHTMLUnsafe');
  const FRAMES = 'iframe,frame,object,embed';
  const allowed = (el) => {
    const tag = el.localName;
    if (tag !== 'iframe' && tag !== 'frame') return false;
    if (el.hasAttribute('srcdoc')) return false;
    return /^https?:\\/\\//i.test(el.getAttribute('src') || '');
  };
  const check = (node) => {
    if (!node || node.nodeType !== 1) return;
    const found = node.matches(FRAMES) ? [node] : [];
    for (const el of node.querySelectorAll(FRAMES)) found.push(el);
    for (const el of found) if (!allowed(el)) el.remove();
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') check(record.target);
      else for (const node of record.addedNodes) check(node);
    }
  });
  const watch = (root) => observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['src', 'srcdoc'] });
  watch(document);
  const attachShadow = Element.prototype.attachShadow;
  Object.defineProperty(Element.prototype, 'attachShadow', {
    value: function (init) { const root = attachShadow.call(this, init); watch(root); return root; },
    writable: false, configurable: false, enumerable: false,
  });
})();`;
