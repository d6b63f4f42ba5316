#!/usr/bin/env node
// A 2026-era (protocol 2026-07-28) server that needs the client's roots for one tool: `list-roots`
// answers its first call with an `input_required` result embedding a `roots/list` request, and the
// retried call (carrying `inputResponses`) with the roots it received, as JSON text.

import process from 'node:process';
import { createInterface } from 'node:readline';

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const respond = (id, result) => write({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } });
const fail = (id, code, message, data) => write({ jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } });
const tools = [{ name: 'list-roots', description: 'Shows the roots the client shares', inputSchema: { type: 'object' } }];

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  process.stderr.write(`<- ${message.method ?? 'response'}\n`);
  if (message.id === undefined || message.method === undefined) return;
  const version = message.params?._meta?.[VERSION_KEY];
  if (message.method === 'initialize' || version !== '2026-07-28') {
    return fail(message.id, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: version ?? null });
  }
  switch (message.method) {
    case 'server/discover':
      return respond(message.id, {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-roots', version: '1.0.0' } },
      });
    case 'tools/list':
      return respond(message.id, { tools, ttlMs: 0, cacheScope: 'private' });
    case 'tools/call': {
      const answer = message.params.inputResponses?.roots;
      if (!answer) {
        return write({
          jsonrpc: '2.0',
          id: message.id,
          result: { resultType: 'input_required', inputRequests: { roots: { method: 'roots/list' } }, requestState: 'need-roots' },
        });
      }
      return respond(message.id, { content: [{ type: 'text', text: JSON.stringify(answer.roots) }] });
    }
    default:
      return fail(message.id, -32601, 'Method not found');
  }
});
lines.on('close', () => process.exit(0));
