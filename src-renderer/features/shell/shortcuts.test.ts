import { afterEach, describe, expect, it } from 'vitest';
import { shortcutFor, type KeyPress } from './shortcuts';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
  target: document.body,
  ...extra,
});

function element(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  return host.querySelector('[data-target]')!;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('shortcutFor', () => {
  it('Ctrl is the modifier elsewhere, Cmd on macOS', () => {
    expect(shortcutFor(press('k', { ctrlKey: true }), false)).toBe('palette');
    expect(shortcutFor(press('k', { metaKey: true }), false)).toBeNull();
    expect(shortcutFor(press('k', { metaKey: true }), true)).toBe('palette');
    expect(shortcutFor(press('k', { ctrlKey: true }), true)).toBeNull();
    expect(shortcutFor(press('K', { ctrlKey: true }), false)).toBe('palette'); // Caps Lock
  });

  it('new conversation is Ctrl/Cmd+Shift+O; stop is Ctrl/Cmd+.', () => {
    expect(shortcutFor(press('O', { ctrlKey: true, shiftKey: true }), false)).toBe('new-conversation');
    expect(shortcutFor(press('o', { ctrlKey: true }), false)).toBeNull(); // the browser's Open file stays the browser's
    expect(shortcutFor(press('.', { ctrlKey: true }), false)).toBe('stop');
    expect(shortcutFor(press('.', { metaKey: true }), true)).toBe('stop');
    expect(shortcutFor(press('k', { ctrlKey: true, altKey: true }), false)).toBeNull();
  });

  it('/ focuses the message box, except while typing in a field', () => {
    expect(shortcutFor(press('/'), false)).toBe('focus-message');
    for (const html of [
      '<input data-target>',
      '<textarea data-target></textarea>',
      '<select data-target></select>',
      '<div contenteditable="true" data-target></div>',
    ]) {
      expect(shortcutFor(press('/', { target: element(html) }), false)).toBeNull();
    }
    expect(shortcutFor(press('/', { target: element('<button data-target>x</button>') }), false)).toBe('focus-message');
  });

  it('Escape stops only in the message box, and only when nothing there used it (the / menu closing)', () => {
    const box = element('<textarea data-message-box data-target></textarea>');
    expect(shortcutFor(press('Escape', { target: box }), false)).toBe('stop');
    expect(shortcutFor(press('Escape', { target: box, defaultPrevented: true }), false)).toBeNull();
    expect(shortcutFor(press('Escape', { target: element('<input data-target>') }), false)).toBeNull();
    expect(shortcutFor(press('Escape'), false)).toBeNull();
  });

  it('a dialog owns the keyboard; only the palette’s own shortcut closes the palette', () => {
    const inDialog = element('<div role="dialog"><input data-target></div>');
    expect(shortcutFor(press('k', { ctrlKey: true, target: inDialog }), false)).toBeNull();
    expect(shortcutFor(press('/', { target: element('<div role="alertdialog"><button data-target></button></div>') }), false)).toBeNull();
    const inPalette = element('<div role="dialog" class="modal palette"><input data-target></div>');
    expect(shortcutFor(press('k', { ctrlKey: true, target: inPalette }), false)).toBe('palette');
    expect(shortcutFor(press('O', { ctrlKey: true, shiftKey: true, target: inPalette }), false)).toBeNull();
  });
});
