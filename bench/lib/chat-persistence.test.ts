import { describe, expect, it } from 'vitest';
import { tempDir } from '../../src-main/test-support/temp-dir';
import { openDatabase } from '../../src-main/core/store/database';
import { measureMessagePersistence, seedConversation } from './chat-persistence';
import { MessageRepository } from '../../src-main/core/chat/message-repository';

describe('bench support', () => {
  it('measures a streamed answer against a bare insert', async () => {
    const result = await measureMessagePersistence({ samples: 15, dir: tempDir() });
    console.log('[chat persistence]', JSON.stringify(result));
    expect(result.writesPerMessage).toBe(12);
    expect(result.ratio).toBeGreaterThan(0);
    expect(result.bareInsertMs).toBeGreaterThan(0);
  });

  it('seeds a large conversation whose newest page reads fast', () => {
    const dir = tempDir();
    const { conversationId } = seedConversation(dir, { messages: 20_000 });
    const { db } = openDatabase(dir);
    const t = performance.now();
    const page = new MessageRepository(db).page(conversationId, undefined, 100);
    const ms = performance.now() - t;
    db.close();
    console.log(`[chat seed] newest page of 20,000 messages read in ${ms.toFixed(2)} ms`);
    expect(page.messages.at(-1)?.seq).toBe(20_000);
    expect(page.messages).toHaveLength(100);
    expect(page.hasMore).toBe(true);
  });
});
