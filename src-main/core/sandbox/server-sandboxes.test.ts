import { describe, expect, it } from 'vitest';
import { describeSandbox } from './server-sandboxes';

const f = (path: string, readOnly = false) => ({ path, readOnly });

describe('describeSandbox', () => {
  it('says in words what a sandboxed server sees', () => {
    expect(describeSandbox([f('/a'), f('/b')], { enabled: true, network: 'blocked', hosts: [] })).toBe(
      'Sandboxed: sees 2 shared folders; network blocked',
    );
    expect(describeSandbox([f('/a')], { enabled: true, network: 'allowed', hosts: [] })).toBe(
      'Sandboxed: sees 1 shared folder; network allowed',
    );
    expect(describeSandbox([], { enabled: true, network: 'hosts', hosts: ['api.example.com'] })).toBe(
      'Sandboxed: sees no shared folders; network only to api.example.com',
    );
    expect(describeSandbox([f('/a'), f('/b', true)], { enabled: true, network: 'blocked', hosts: [] })).toBe(
      'Sandboxed: sees 2 shared folders (1 read-only); network blocked',
    );
    expect(describeSandbox([f('/a', true)], { enabled: true, network: 'blocked', hosts: [] })).toBe(
      'Sandboxed: sees 1 shared folder, read-only; network blocked',
    );
  });
});
