import { describe, expect, it } from 'vitest';
import {
  describeDrops,
  holdKeyOf,
  NotificationGate,
  peekNotificationMethod,
  peekProgressToken,
  type DropReport,
} from './notification-gate';
import { waitFor } from '../wait';

interface Item {
  method: string;
  token?: number;
  n: number;
}

/** A gate over plain items, a clock the test moves, and what it released and reported. */
function gate(budget = { ratePerSecond: 10, burst: 3 }) {
  let now = 0;
  const released: Item[] = [];
  const reports: DropReport[] = [];
  const g = new NotificationGate<Item>({
    budget,
    now: () => now,
    release: (item) => released.push(item),
    holdKey: (method, item) =>
      holdKeyOf(
        method,
        () => item.token,
        () => `${item.method}`,
      ),
    onDropped: (report) => reports.push(report),
    reportIntervalMs: 20,
  });
  return { g, released, reports, advance: (ms: number) => (now += ms) };
}

const log = (n: number): Item => ({ method: 'notifications/message', n });
const progress = (token: number, n: number): Item => ({ method: 'notifications/progress', token, n });

describe('NotificationGate', () => {
  it('lets a burst through, then drops log messages beyond the rate and reports how many, by method', async () => {
    const { g, reports, advance } = gate();
    const admitted = Array.from({ length: 10 }, (_, i) => g.admit('notifications/message', log(i)));
    expect(admitted).toEqual([true, true, true, false, false, false, false, false, false, false]);
    advance(100); // one token back at 10 a second
    expect(g.admit('notifications/message', log(10))).toBe(true);
    expect(g.admit('notifications/message', log(11))).toBe(false);
    await waitFor(() => reports.length === 1, { what: 'the drop report' });
    expect(reports[0]).toMatchObject({ count: 8, byMethod: { 'notifications/message': 8 } });
    expect(describeDrops('flood', reports[0])).toBe(
      '8 messages dropped from "flood": notifications arrived faster than 10 a second (notifications/message 8)',
    );
  });

  it('keeps the latest progress per token and lets it out before the next response, in order', () => {
    const { g, released, reports } = gate({ ratePerSecond: 1, burst: 1 });
    expect(g.admit('notifications/progress', progress(1, 1))).toBe(true);
    for (let n = 2; n <= 50; n++) expect(g.admit('notifications/progress', progress(1, n))).toBe(false);
    expect(g.admit('notifications/progress', progress(2, 7))).toBe(false);
    expect(released).toEqual([]);
    g.beforeOther(); // a response arrives: the held progress goes first, whatever the budget
    expect(released.map((i) => [i.token, i.n])).toEqual([
      [1, 50],
      [2, 7],
    ]);
    g.close();
    expect(reports).toEqual([expect.objectContaining({ count: 48, byMethod: { 'notifications/progress': 48 } })]);
    expect(describeDrops('s', reports[0])).toMatch(/the latest progress of each call was kept$/);
  });

  it('releases what it held once the budget allows, even if the server falls silent', async () => {
    const { g, released, advance } = gate({ ratePerSecond: 1000, burst: 1 });
    g.admit('notifications/tools/list_changed', { method: 'notifications/tools/list_changed', n: 1 });
    expect(g.admit('notifications/tools/list_changed', { method: 'notifications/tools/list_changed', n: 2 })).toBe(false);
    advance(10);
    await waitFor(() => released.length === 1, { what: 'the held list_changed' });
    expect(released[0].n).toBe(2);
  });

  it('holds a bounded number of distinct notifications and drops the rest', () => {
    const reports: DropReport[] = [];
    const g = new NotificationGate<number>({
      budget: { ratePerSecond: 1, burst: 1 },
      now: () => 0,
      release: () => undefined,
      holdKey: (_method, n) => String(n),
      onDropped: (report) => reports.push(report),
      maxHeld: 5,
    });
    for (let n = 0; n < 20; n++) g.admit('notifications/resources/updated', n);
    g.close();
    expect(reports[0].count).toBe(20 - 1 - 5);
  });
});

describe('peeking at raw lines', () => {
  const line = (text: string) => Buffer.from(text);

  it('names the method of a line that can only be a notification, without parsing it', () => {
    expect(peekNotificationMethod(line('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"x"}}'))).toBe(
      'notifications/message',
    );
    expect(peekNotificationMethod(line('{ "method" : "notifications/progress" , "jsonrpc":"2.0"}'))).toBe('notifications/progress');
    // Requests and responses carry an id: never taken for notifications.
    expect(peekNotificationMethod(line('{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"}'))).toBeUndefined();
    expect(peekNotificationMethod(line('{"jsonrpc":"2.0","id":1,"result":{"method":"x"}}'))).toBeUndefined();
    // "method" inside a string is escaped, so not the key; an escaped method name is left to the parser.
    expect(peekNotificationMethod(line('{"jsonrpc":"2.0","result":"{\\"method\\":\\"x\\"}"}'))).toBeUndefined();
    expect(peekNotificationMethod(line('{"method":"a\\"b"}'))).toBeUndefined();
  });

  it('gives the same answers for lines in the usual shape (the fast path a flood takes)', () => {
    const usual = '{"jsonrpc":"2.0","method":';
    expect(peekNotificationMethod(line(`${usual}"notifications/progress","params":{"progressToken":3}}`))).toBe('notifications/progress');
    expect(peekNotificationMethod(line(`${usual}"notifications/custom/x","params":{}}`))).toBe('notifications/custom/x');
    // A request written method-first still has its id (after the method, or deep inside): kept.
    expect(peekNotificationMethod(line(`${usual}"sampling/createMessage","params":{},"id":5}`))).toBeUndefined();
    expect(peekNotificationMethod(line(`${usual}"roots/list","id":"a"}`))).toBeUndefined();
    expect(peekNotificationMethod(line(`${usual}"notifications/message","params":{"data":{"id":1}}}`))).toBeUndefined();
    expect(peekNotificationMethod(line(`${usual}"a\\"b","params":{}}`))).toBeUndefined();
  });

  it('reads a progress token as written, for coalescing', () => {
    expect(peekProgressToken(line('{"params":{"progressToken":42,"progress":1}}'))).toBe('42');
    expect(peekProgressToken(line('{"params":{"progressToken": "tok-1" ,"progress":1}}'))).toBe('"tok-1"');
    expect(peekProgressToken(line('{"params":{"progress":1}}'))).toBeUndefined();
  });
});
