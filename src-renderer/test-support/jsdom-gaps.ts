/**
 * What jsdom lacks and Radix's Select and Switch call (layout and pointer APIs a browser has). They
 * measure or scroll only; doing nothing here changes no behaviour the tests look at.
 */
globalThis.ResizeObserver ??= class ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.setPointerCapture ??= () => undefined;
Element.prototype.releasePointerCapture ??= () => undefined;

/*
 * jsdom has no layout, so a virtualised list (the tool list, a turn's Timeline) would measure 0 px and show no row: it gets the
 * height of its `max-height` (the rows stay virtualised: a long list still renders a window of it).
 */
const VIRTUALISED = ['tool-list-scroller', 'timeline-scroller'];
const realClientHeight = Object.getOwnPropertyDescriptor(Element.prototype, 'clientHeight');
Object.defineProperty(Element.prototype, 'clientHeight', {
  configurable: true,
  get(this: Element) {
    if (VIRTUALISED.some((name) => this.classList.contains(name))) return parseInt((this as HTMLElement).style.maxHeight, 10) || 420;
    return realClientHeight?.get?.call(this) ?? 0;
  },
});
