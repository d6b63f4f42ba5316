import { describe, expect, it } from 'vitest';
import { taskSupport, toolApp, visibleTo } from './tool-ui';

describe('tool-ui', () => {
  it('finds the app of a tool (the current key, else the deprecated flat one); a malformed one is no app', () => {
    expect(toolApp({ _meta: { ui: { resourceUri: 'ui://a/b.html' } } })).toEqual({
      resourceUri: 'ui://a/b.html',
      visibility: ['model', 'app'],
    });
    expect(toolApp({ _meta: { 'ui/resourceUri': 'ui://flat' } })?.resourceUri).toBe('ui://flat');
    expect(toolApp({ _meta: { ui: { resourceUri: 'https://evil.example/app.html' } } })).toBeUndefined();
    expect(toolApp({ _meta: { ui: { resourceUri: 42 } } })).toBeUndefined();
    expect(toolApp({})).toBeUndefined();
  });

  it('visibility: the declared audiences, else both', () => {
    expect(visibleTo({ _meta: { ui: { visibility: ['app'] } } }, 'model')).toBe(false);
    expect(visibleTo({ _meta: { ui: { visibility: ['app'] } } }, 'app')).toBe(true);
    expect(visibleTo({ _meta: { ui: { visibility: ['model'] } } }, 'app')).toBe(false);
    expect(visibleTo({}, 'model')).toBe(true);
    expect(visibleTo({ _meta: { ui: { visibility: ['nobody'] } } }, 'model')).toBe(true);
    expect(visibleTo({ _meta: { ui: { visibility: 'app' } } }, 'model')).toBe(true);
  });

  it('task support: required and optional run as tasks, anything else does not', () => {
    expect(taskSupport({ execution: { taskSupport: 'required' } })).toBe('required');
    expect(taskSupport({ execution: { taskSupport: 'optional' } })).toBe('optional');
    expect(taskSupport({ execution: { taskSupport: 'forbidden' } })).toBe('forbidden');
    expect(taskSupport({})).toBe('forbidden');
  });
});
