import { describe, expect, it } from 'vitest';
import { HostCallError } from '@contract';
import { messageOf } from './call-errors';

describe('messageOf', () => {
  it('says what the contract refused in the schema’s own words, never the method or field paths', () => {
    const refused = new HostCallError('invalid_input', 'Invalid input for renameConversation: title: At most 200 characters', [
      { path: ['title'], message: 'At most 200 characters' },
    ]);
    expect(messageOf(refused)).toBe('At most 200 characters');
  });

  it('keeps any other message as it is', () => {
    expect(messageOf(new HostCallError('forbidden', 'Web mode cannot open files.'))).toBe('Web mode cannot open files.');
    expect(messageOf(new Error('Server "memory" is not running.'))).toBe('Server "memory" is not running.');
  });
});
