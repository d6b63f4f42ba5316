import { describe, expect, it } from 'vitest';
import { boundedJson } from './bounded-json';
import { PATTERNS_ONLY, REDACTED, Redactor } from './redactor';

describe('Redactor', () => {
  it('replaces the secret values it was given, also as they appear inside JSON strings', () => {
    const redactor = new Redactor(['hunter2-secret', 'with "quotes" \\ inside']);
    expect(redactor.redact('token is hunter2-secret, twice: hunter2-secret')).toBe(`token is ${REDACTED}, twice: ${REDACTED}`);
    const json = JSON.stringify({ env: 'with "quotes" \\ inside' });
    expect(redactor.redact(json)).toBe(`{"env":"${REDACTED}"}`);
    expect(JSON.parse(redactor.redact(json))).toEqual({ env: REDACTED });
  });

  it('keeps one patterns-only redactor for servers without secrets, and redactors sharing the patterns stay independent', () => {
    expect(Redactor.forSecrets([])).toBe(PATTERNS_ONLY);
    expect(Redactor.forSecrets(['ab'])).toBe(PATTERNS_ONLY);
    const a = Redactor.forSecrets(['alpha-secret']);
    const b = Redactor.forSecrets(['beta-secret']);
    expect(a).not.toBe(PATTERNS_ONLY);
    // Alternating servers, several matches per line: each line is redacted whole, with its own secrets only.
    for (let i = 0; i < 3; i++) {
      expect(a.redact('alpha-secret sk-ant-api03-AbCdEf0123456789 beta-secret sk-ant-api03-AbCdEf0123456789')).toBe(
        `${REDACTED} ${REDACTED} beta-secret ${REDACTED}`,
      );
      expect(b.redact('alpha-secret Authorization: Bearer abcdefghijklmnop beta-secret')).toBe(
        `alpha-secret Authorization: ${REDACTED} ${REDACTED}`,
      );
      expect(PATTERNS_ONLY.redact('no secret here')).toBe('no secret here');
    }
  });

  it('ignores secrets too short to search for, and leaves ordinary text alone', () => {
    const redactor = new Redactor(['ab', '']);
    const text = 'about a basic bearer of news; the apiKey schema {"type":"string"}; progressToken: 5';
    expect(redactor.redact(text)).toBe(text);
  });

  it('redacts API key shapes and authorization headers in any stream format', () => {
    const redactor = new Redactor();
    const cases: [string, string][] = [
      ['key sk-ant-api03-AbCdEf0123456789_xyz here', `key ${REDACTED} here`],
      ['OPENAI=sk-proj-abcdefghijklmnop1234', `OPENAI=${REDACTED}`],
      ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', `Authorization: ${REDACTED}`],
      ['authorization=Basic dXNlcjpwYXNzd29yZA==', `authorization=${REDACTED}`],
      ['{"headers":{"Authorization":"Bearer abc.def.ghi"}}', `{"headers":{"Authorization":"${REDACTED}"}}`],
      ['"x-api-key": "k-123456"', `"x-api-key": "${REDACTED}"`],
      ['GET /v1?api_key=abcdef123&x=1', `GET /v1?api_key=${REDACTED}&x=1`],
      ['sending Bearer abcdefghijklmnopqrstuvwxyz', `sending Bearer ${REDACTED}`],
      ['gh token ghp_abcdefghijklmnopqrstuvwxyz0123', `gh token ${REDACTED}`],
    ];
    for (const [input, output] of cases) expect(redactor.redact(input)).toBe(output);
  });

  it('leaves no part of a secret that straddles a size cap, given its margin', () => {
    const secret = 'S3CRET-VALUE-0123456789';
    const redactor = new Redactor([secret]);
    const message = { text: `${'x'.repeat(95)}${secret}${'y'.repeat(200)}` };
    const max = 110;
    const json = boundedJson(message, max + redactor.margin);
    const kept = redactor.redact(json.text).slice(0, max);
    expect(kept).not.toContain('S3CRET');
    expect(kept.endsWith('[R')).toBe(true); // the cut falls inside the marker, not the secret
  });
});

describe('boundedJson', () => {
  it('matches JSON.stringify when within budget, pretty or compact', () => {
    const value = { a: [1, 'two', { three: null }], b: {}, c: [], d: true, e: undefined };
    expect(boundedJson(value, 10_000)).toEqual({ text: JSON.stringify(value, null, 2), truncated: false });
    expect(boundedJson(value, 10_000, 0)).toEqual({ text: JSON.stringify(value), truncated: false });
  });

  it('stops at the budget without serializing the rest of a huge value', () => {
    // A flat string, as JSON.parse makes them ('z'.repeat builds a rope that any slice must flatten first).
    const huge = { result: { content: [{ type: 'text', text: Buffer.alloc(10 * 1024 * 1024, 'z').toString() }] } };
    const started = performance.now();
    const out = boundedJson(huge, 64 * 1024);
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBe(64 * 1024);
    expect(out.text.startsWith('{\n  "result": {')).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
