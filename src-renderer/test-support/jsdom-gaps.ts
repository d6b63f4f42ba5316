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
