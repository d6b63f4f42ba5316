import { describe, expect, it } from 'vitest';
import { describeSandbox } from './server-sandboxes';

describe('describeSandbox', () => {
  it('says in words what a sandboxed server sees', () => {
    expect(describeSandbox(2, { enabled: true, network: 'blocked', hosts: [] })).toBe('Sandboxed: sees 2 shared folders; network blocked');
    expect(describeSandbox(1, { enabled: true, network: 'allowed', hosts: [] })).toBe('Sandboxed: sees 1 shared folder; network allowed');
    expect(describeSandbox(0, { enabled: true, network: 'hosts', hosts: ['api.example.com'] })).toBe(
      'Sandboxed: sees no shared folders; network only to api.example.com',
    );
  });
});
