import { screen, type BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';
import { fitToDisplays, MIN_WINDOW_SIZE, type WindowStateStore } from '../desktop/window-state';

/** How long the window must rest after a move or resize before its state is written. */
const SAVE_DELAY_MS = 500;

/** The remembered size and position, fitted to today's displays, as window options. */
export function rememberedWindowOptions(store: WindowStateStore): {
  options: BrowserWindowConstructorOptions;
  maximized: boolean;
  fullScreen: boolean;
} {
  const primary = screen.getPrimaryDisplay();
  const areas = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea);
  const state = fitToDisplays(store.load(), areas);
  return {
    options: {
      width: state.width,
      height: state.height,
      x: state.x,
      y: state.y,
      minWidth: MIN_WINDOW_SIZE.width,
      minHeight: MIN_WINDOW_SIZE.height,
    },
    maximized: state.maximized,
    fullScreen: state.fullScreen,
  };
}

/** Writes the window's state after it moved or resized (debounced) and when it closes. */
export function keepWindowState(window: BrowserWindow, store: WindowStateStore, onError: (error: unknown) => void): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (window.isDestroyed()) return;
    try {
      store.save(window.getNormalBounds(), { maximized: window.isMaximized(), fullScreen: window.isFullScreen() });
    } catch (error) {
      onError(error);
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY_MS);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize', 'enter-full-screen', 'leave-full-screen'] as const) {
    window.on(event as 'resize', later);
  }
  window.on('close', save);
}
