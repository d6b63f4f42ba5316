import { describe, expect, it } from 'vitest';
import { responseIdOf } from './oversized-response';

describe('responseIdOf', () => {
  it('finds the id of a response, whether serialized id-first or result-first', () => {
    expect(responseIdOf({ head: '{"jsonrpc":"2.0","id":12,"result":{"content":[{"text":"aaaa', tail: 'aaaa"}]}}' })).toBe(12);
    expect(responseIdOf({ head: '{"result":{"content":[{"text":"aaaa', tail: 'aaa"}]},"jsonrpc":"2.0","id":"req-7"}' })).toBe('req-7');
    expect(responseIdOf({ head: '{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"xxx', tail: 'xxx"}}' })).toBe(3);
  });

  it('never guesses an id for something that is not recognisably a response', () => {
    // A server request carries an id from the server's own id space: answering it would fail the wrong call.
    expect(
      responseIdOf({ head: '{"method":"sampling/createMessage","params":{"x":"yyy', tail: 'yy"},"jsonrpc":"2.0","id":5}' }),
    ).toBeUndefined();
    expect(responseIdOf({ head: '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"zz', tail: 'zz"}}' })).toBeUndefined();
    expect(responseIdOf({ head: '{"result":{"text":"aaa', tail: 'aaa"}}' })).toBeUndefined();
  });
});
