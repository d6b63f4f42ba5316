/** The per-message observers: every plugin that observes a hook hears it, in order, whatever another one does. */
import { describe, expect, it, vi } from 'vitest';
import { mergeCapabilities, streamObservers, type ConnectionPlugin } from './connection-plugins';

describe('streamObservers', () => {
  it('calls each plugin observing the wire or stderr, in order, and a throwing plugin stops neither the others nor the caller', () => {
    const heard: string[] = [];
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const plugins: ConnectionPlugin[] = [
      {
        onWire: () => {
          throw new Error('broken plugin');
        },
        onStderrLine: () => {
          throw new Error('broken plugin');
        },
      },
      {},
      { onWire: (server, direction, message, bytes, json) => heard.push(`wire ${server.name} ${direction} ${bytes} ${json}`) },
      { onStderrLine: (server, line) => heard.push(`stderr ${server.name} ${line}`) },
    ];
    const observers = streamObservers(plugins);
    const server = { id: 's1', name: 'Echo' };
    observers.onWire(server, 'in', { jsonrpc: '2.0', id: 1, result: {} }, 37, '{"jsonrpc":"2.0","id":1,"result":{}}');
    observers.onStderrLine(server, 'ready');
    expect(heard).toEqual(['wire Echo in 37 {"jsonrpc":"2.0","id":1,"result":{}}', 'stderr Echo ready']);
    expect(quiet).toHaveBeenCalledTimes(2);
    expect(String(quiet.mock.calls[0][1])).toContain('broken plugin');
    quiet.mockRestore();
  });
});

describe('mergeCapabilities', () => {
  it('merges extensions per id (MCP Apps and skills both declared), other capabilities per key', () => {
    const merged = mergeCapabilities([
      { capabilities: { roots: { listChanged: true } } },
      { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
      { capabilities: { extensions: { 'io.modelcontextprotocol/skills': {} } } },
      {},
    ]);
    expect(merged).toEqual({
      roots: { listChanged: true },
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] }, 'io.modelcontextprotocol/skills': {} },
    });
  });
});
