import { describe, expect, it } from 'vitest';
import { traceHeadersOf } from './trace-headers';

const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('trace headers for remote servers', () => {
  it('copies _meta.traceparent (and tracestate) of a request body to headers', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'x', _meta: { traceparent: parent, tracestate: 'pb=1' } },
    });
    expect(traceHeadersOf(body)).toEqual([
      ['traceparent', parent],
      ['tracestate', 'pb=1'],
    ]);
  });

  it('adds nothing for a body without one, a malformed one, or a body that is not text', () => {
    expect(traceHeadersOf(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))).toBeUndefined();
    expect(traceHeadersOf(JSON.stringify({ params: { _meta: { traceparent: '00-zz-yy-01' } } }))).toBeUndefined();
    expect(traceHeadersOf(JSON.stringify({ params: { _meta: { traceparent: `${parent}\r\nX-Evil: 1` } } }))).toBeUndefined();
    expect(traceHeadersOf(undefined)).toBeUndefined();
    expect(traceHeadersOf(new Uint8Array(3))).toBeUndefined();
  });
});
