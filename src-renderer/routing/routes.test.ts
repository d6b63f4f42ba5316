import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute, SERVER_TABS, SETTINGS_SECTIONS, type Route } from './routes';

describe('routes', () => {
  const places: [string, Route][] = [
    ['#/chat', { page: 'chat' }],
    ['#/chat/c-1', { page: 'chat', conversationId: 'c-1' }],
    ['#/servers', { page: 'servers' }],
    ['#/servers/s-1/overview', { page: 'servers', serverId: 's-1', tab: 'overview' }],
    ['#/servers/s-1/tools', { page: 'servers', serverId: 's-1', tab: 'tools' }],
    ['#/servers/s-1/tools/get-sum', { page: 'servers', serverId: 's-1', tab: 'tools', tool: 'get-sum' }],
    ['#/servers/s-1/logs', { page: 'servers', serverId: 's-1', tab: 'logs' }],
    ['#/roots', { page: 'roots' }],
    ['#/logs', { page: 'logs' }],
    ['#/logs/s-1', { page: 'logs', serverId: 's-1' }],
    ['#/logs/s-1/protocol', { page: 'logs', serverId: 's-1', stream: 'protocol' }],
    ['#/settings', { page: 'settings' }],
    ['#/settings/providers', { page: 'settings', section: 'providers' }],
  ];

  it.each(places)('%s ⇄ its route', (hash, route) => {
    expect(parseRoute(hash)).toEqual({ route });
    expect(formatRoute(route)).toBe(hash);
  });

  it('every server tab and settings section has an address', () => {
    for (const tab of SERVER_TABS) expect(parseRoute(`#/servers/x/${tab}`).route).toEqual({ page: 'servers', serverId: 'x', tab });
    for (const section of SETTINGS_SECTIONS) expect(parseRoute(`#/settings/${section}`).route).toEqual({ page: 'settings', section });
  });

  it('encodes ids and tool names, so any character survives the round trip', () => {
    const route: Route = { page: 'servers', serverId: 'a b/c', tab: 'tools', tool: 'ns/tool?x=1#frag' };
    const hash = formatRoute(route);
    expect(hash).toBe('#/servers/a%20b%2Fc/tools/ns%2Ftool%3Fx%3D1%23frag');
    expect(parseRoute(hash)).toEqual({ route });
  });

  it('an empty address is Chat; a server without a tab is its Overview; slashes at the ends do not matter', () => {
    expect(parseRoute('')).toEqual({ route: { page: 'chat' } });
    expect(parseRoute('#/')).toEqual({ route: { page: 'chat' } });
    expect(parseRoute('#/servers/s-1')).toEqual({ route: { page: 'servers', serverId: 's-1', tab: 'overview' } });
    expect(parseRoute('#servers/')).toEqual({ route: { page: 'servers' } });
  });

  it('an address it does not know falls back to the nearest page it does, and says so', () => {
    expect(parseRoute('#/nowhere')).toEqual({ route: { page: 'chat' }, problem: 'Patchbay has no page at “#/nowhere”.' });
    expect(parseRoute('#/servers/s-1/bogus').route).toEqual({ page: 'servers', serverId: 's-1', tab: 'overview' });
    expect(parseRoute('#/servers/s-1/resources/x').route).toEqual({ page: 'servers', serverId: 's-1', tab: 'resources' });
    expect(parseRoute('#/logs/s-1/nonsense').route).toEqual({ page: 'logs', serverId: 's-1' });
    expect(parseRoute('#/settings/nope').route).toEqual({ page: 'settings' });
    expect(parseRoute('#/roots/extra').route).toEqual({ page: 'roots' });
    expect(parseRoute('#/chat/a/b').route).toEqual({ page: 'chat' });
    expect(parseRoute('#/chat/%E0%A4%A').route).toEqual({ page: 'chat' }); // a malformed escape
    for (const hash of ['#/nowhere', '#/servers/s-1/bogus', '#/chat/%E0%A4%A']) expect(parseRoute(hash).problem).toMatch(/no page at/);
  });
});
