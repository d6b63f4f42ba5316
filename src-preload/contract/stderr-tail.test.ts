import { describe, expect, it } from 'vitest';
import { formatStderrTail, splitStderrTail } from './stderr-tail';

describe('a failure reason and the stderr lines the host appended to it', () => {
  it('splits the block off again, lines as the server wrote them', () => {
    const lines = ['Error: boom', '    at main (/srv/index.js:3:9)', ''];
    const reason = `Server "echo" exited during startup (exit code 1).${formatStderrTail(lines)}`;
    expect(splitStderrTail(reason)).toEqual({
      summary: 'Server "echo" exited during startup (exit code 1).',
      tail: ['Error: boom', '    at main (/srv/index.js:3:9)'],
    });
  });

  it('leaves a reason without the block whole', () => {
    expect(formatStderrTail(['  ', ''])).toBe('');
    expect(splitStderrTail('Server "echo" needs you to sign in (example.com).')).toEqual({
      summary: 'Server "echo" needs you to sign in (example.com).',
      tail: [],
    });
  });
});
