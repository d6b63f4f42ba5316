import { describe, expect, it } from 'vitest';
import { buildAppCsp } from './app-csp';

const OWN = ['http://127.0.0.1:4000', 'http://127.0.0.1:4001'];

describe('buildAppCsp', () => {
  it('with nothing declared: no network, no nested frames, no <base>, no plugins, no form posts', () => {
    const { header, view } = buildAppCsp(undefined, OWN);
    expect(view).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [], refused: [] });
    const directives = new Map(header.split('; ').map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]));
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('connect-src')).toBe("'none'");
    expect(directives.get('frame-src')).toBe("'none'");
    expect(directives.get('child-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    expect(directives.get('script-src')).toBe("'self' 'unsafe-inline'");
    expect(header).not.toContain('unsafe-eval');
  });

  it('puts each declared kind where it belongs', () => {
    const { header } = buildAppCsp(
      {
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.cdn.example.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://cdn.example.com/'],
      },
      OWN,
    );
    expect(header).toContain('connect-src https://api.example.com wss://live.example.com;');
    expect(header).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example.com;");
    expect(header).toContain('img-src data: blob: https://*.cdn.example.com;');
    expect(header).toContain('frame-src https://www.youtube.com;');
    expect(header).toContain('base-uri https://cdn.example.com;');
    expect(header).not.toContain('api.example.com wss://live.example.com https://*.cdn'); // no mixing
  });

  it('refuses injections, keywords, wildcards beyond a subdomain, other schemes and Patchbay’s own origins', () => {
    const bad = [
      "'unsafe-eval'",
      'https://a.example; script-src *',
      'https://a.example https://b.example',
      '*',
      'https://*',
      'http://127.0.0.1:*',
      'data:',
      'javascript:alert(1)',
      'http://127.0.0.1:4000',
      'ws://localhost:4001',
      'WS://127.0.0.1:4000',
      42,
    ];
    const { header, view } = buildAppCsp({ connectDomains: bad }, OWN);
    expect(view.connectDomains).toEqual([]);
    expect(view.refused).toHaveLength(bad.length);
    expect(header).toContain("connect-src 'none'");
  });

  it('reads at most 50 entries of a list', () => {
    const many = Array.from({ length: 80 }, (_, i) => `https://h${i}.example.com`);
    expect(buildAppCsp({ resourceDomains: many }, OWN).view.resourceDomains).toHaveLength(50);
  });
});
