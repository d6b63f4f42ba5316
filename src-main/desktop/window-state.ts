/**
 * The window's size and position, remembered between launches in `window-state.json` in the data
 * directory, and fitted to the displays there are now (a laptop undocked from its second screen must
 * not open Patchbay off-screen). Pure Node: the Electron glue passes the displays' work areas in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The smallest window the app lays out sensibly in. */
export const MIN_WINDOW_SIZE = { width: 720, height: 480 } as const;
const DEFAULT_SIZE = { width: 1200, height: 800 } as const;

const WindowStateSchema = z.object({
  /** Absent: centred on the primary display. */
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(MIN_WINDOW_SIZE.width).max(100_000),
  height: z.number().int().min(MIN_WINDOW_SIZE.height).max(100_000),
  maximized: z.boolean(),
  fullScreen: z.boolean(),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = { ...DEFAULT_SIZE, maximized: false, fullScreen: false };

/** Of the window's top edge (where its title bar is), this much must be on a display to be grabbed. */
const GRAB_WIDTH = 100;
const GRAB_HEIGHT = 32;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * The remembered state fitted to today's displays: kept where it is when its title bar can still be
 * grabbed on one of them; else centred (no position) on the primary one. Either way no larger than
 * the work area it ends up on. `workAreas[0]` is the primary display.
 */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (workAreas.length === 0) return state;
  let target = workAreas[0];
  let positioned = state.x !== undefined && state.y !== undefined;
  if (positioned) {
    const titleBar: Rect = { x: state.x!, y: state.y!, width: state.width, height: GRAB_HEIGHT };
    const host = workAreas.find((area) => {
      const shared = overlap(titleBar, area);
      return shared.width >= Math.min(GRAB_WIDTH, state.width) && shared.height >= GRAB_HEIGHT / 2;
    });
    if (host) target = host;
    else positioned = false;
  }
  const width = Math.max(MIN_WINDOW_SIZE.width, Math.min(state.width, target.width));
  const height = Math.max(MIN_WINDOW_SIZE.height, Math.min(state.height, target.height));
  const fitted: WindowState = { width, height, maximized: state.maximized, fullScreen: state.fullScreen };
  return positioned ? { ...fitted, x: state.x, y: state.y } : fitted;
}

/** Reads and writes the remembered state; a missing, unreadable or hand-broken file means the defaults. */
export class WindowStateStore {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'window-state.json');
  }

  load(): WindowState {
    try {
      const parsed = WindowStateSchema.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data : DEFAULT_WINDOW_STATE;
    } catch {
      return DEFAULT_WINDOW_STATE;
    }
  }

  /**
   * Saves the window's normal (not maximized) bounds and how it was shown. Written to a temporary
   * file and renamed, so a crash mid-write leaves the previous state, never half a file.
   */
  save(normalBounds: Rect, flags: { maximized: boolean; fullScreen: boolean }): void {
    const state: WindowState = {
      x: Math.round(normalBounds.x),
      y: Math.round(normalBounds.y),
      width: Math.max(MIN_WINDOW_SIZE.width, Math.round(normalBounds.width)),
      height: Math.max(MIN_WINDOW_SIZE.height, Math.round(normalBounds.height)),
      ...flags,
    };
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`);
      fs.renameSync(temporary, this.file);
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      throw error;
    }
  }
}
