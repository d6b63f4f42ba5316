import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir';
import { DEFAULT_WINDOW_STATE, fitToDisplays, MIN_WINDOW_SIZE, WindowStateStore, type Rect, type WindowState } from './window-state';

const laptop: Rect = { x: 0, y: 0, width: 1440, height: 875 };
const monitorRight: Rect = { x: 1440, y: 0, width: 2560, height: 1400 };
const state = (overrides: Partial<WindowState>): WindowState => ({ ...DEFAULT_WINDOW_STATE, ...overrides });

describe('WindowStateStore', () => {
  it('starts from the defaults, and remembers the normal bounds and how the window was shown', () => {
    const store = new WindowStateStore(tempDir());
    expect(store.load()).toEqual(DEFAULT_WINDOW_STATE);
    store.save({ x: 100.4, y: 50, width: 1000, height: 700 }, { maximized: true, fullScreen: false });
    expect(new WindowStateStore(store.file.replace(/\/window-state\.json$/, '')).load()).toEqual({
      x: 100,
      y: 50,
      width: 1000,
      height: 700,
      maximized: true,
      fullScreen: false,
    });
    // Written by rename: no temporary file is left beside it.
    expect(fs.readdirSync(store.file.replace(/\/window-state\.json$/, ''))).toEqual(['window-state.json']);
  });

  it('never saves a window smaller than the app lays out in', () => {
    const store = new WindowStateStore(tempDir());
    store.save({ x: 0, y: 0, width: 10, height: 10 }, { maximized: false, fullScreen: false });
    expect(store.load()).toMatchObject(MIN_WINDOW_SIZE);
  });

  it('falls back to the defaults for a broken or hand-edited file', () => {
    const store = new WindowStateStore(tempDir());
    fs.writeFileSync(store.file, '{ not json');
    expect(store.load()).toEqual(DEFAULT_WINDOW_STATE);
    fs.writeFileSync(store.file, JSON.stringify({ width: 'wide', height: 700, maximized: false, fullScreen: false }));
    expect(store.load()).toEqual(DEFAULT_WINDOW_STATE);
  });
});

describe('fitToDisplays', () => {
  it('keeps a window where it was when its title bar is on a display', () => {
    const onMonitor = state({ x: 1600, y: 100, width: 1800, height: 1000 });
    expect(fitToDisplays(onMonitor, [laptop, monitorRight])).toEqual(onMonitor);
    // Partly off the edge is fine while the title bar can still be grabbed.
    const hanging = state({ x: 1300, y: 10, width: 1200, height: 800 });
    expect(fitToDisplays(hanging, [laptop])).toEqual(hanging);
  });

  it('centres a window whose display is gone, at most as large as the display left', () => {
    const onMonitor = state({ x: 1600, y: 100, width: 1800, height: 1000 });
    expect(fitToDisplays(onMonitor, [laptop])).toEqual({ width: 1440, height: 875, maximized: false, fullScreen: false });
    // Above the screen, with only the window's body visible: the title bar cannot be grabbed.
    expect(fitToDisplays(state({ x: 100, y: -500, width: 800, height: 600 }), [laptop])).toEqual({
      width: 800,
      height: 600,
      maximized: false,
      fullScreen: false,
    });
  });

  it('keeps the flags, leaves an unpositioned state centred, and never shrinks below the minimum', () => {
    expect(fitToDisplays(state({ maximized: true }), [laptop])).toEqual({ width: 1200, height: 800, maximized: true, fullScreen: false });
    expect(fitToDisplays(state({}), [{ x: 0, y: 0, width: 640, height: 400 }])).toMatchObject(MIN_WINDOW_SIZE);
    expect(fitToDisplays(state({ x: 5, y: 5 }), [])).toEqual(state({ x: 5, y: 5 }));
  });
});
