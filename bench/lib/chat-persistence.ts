/**
 * Chat persistence arms for `npm run bench` (bench/areas.ts and bench/scenarios/chat-ui.ts run them).
 *
 * - `measureMessagePersistence`: the cost of persisting one streamed answer the way the chat does
 *   (first content appended, a checkpoint per second of streaming, a durable finish) against a bare
 *   better-sqlite3 INSERT of the same final content, on databases opened exactly as the app opens
 *   them (WAL, synchronous=FULL; the app's database with its checkpoint worker, as the host runs it).
 *   Samples alternate A/B; medians and the worst single call.
 * - `seedConversation`: writes a conversation of N messages straight into a data directory (one
 *   transaction), for the "open a 100,000-message conversation" and scrolling scenarios.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ChatBlock } from '@contract';
import { DATABASE_FILE, openDatabase } from '../../src-main/core/store/database';
import { WalCheckpointer } from '../../src-main/core/store/wal-checkpointer';
import { ConversationRepository } from '../../src-main/core/chat/conversation-repository';
import { MessageRepository } from '../../src-main/core/chat/message-repository';

export interface PersistenceOptions {
  /** Answers measured per arm (default 40). */
  samples?: number;
  /** Characters of the final answer (default 8,000). */
  chars?: number;
  /** Seconds the answer streams, i.e. time-based checkpoints (default 10). */
  streamSeconds?: number;
  /** Where the two databases go (default: a temp dir, removed afterwards). */
  dir?: string;
}

export interface PersistenceResult {
  /** Median ms of one bare INSERT of the final content, synchronous=FULL (the app's setting). */
  bareInsertMs: number;
  /** The same bare INSERT with synchronous=NORMAL (no fsync): the cheapest possible write. */
  bareRelaxedInsertMs: number;
  /** Median ms of all writes persisting one streamed answer (append + checkpoints + finish). */
  streamedMessageMs: number;
  /** streamedMessageMs / bareInsertMs (target ≤ 3). */
  ratio: number;
  /** streamedMessageMs / bareRelaxedInsertMs: the stricter comparison, for the record. */
  ratioVsRelaxedInsert: number;
  /** Longest single synchronous write of the streamed path, ms (target ≤ 5: the main thread's block). */
  worstBlockMs: number;
  /** Writes per streamed answer. */
  writesPerMessage: number;
  samples: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** See the module comment. Run it on an otherwise idle process. */
export async function measureMessagePersistence(options: PersistenceOptions = {}): Promise<PersistenceResult> {
  const samples = options.samples ?? 40;
  const chars = options.chars ?? 8_000;
  const seconds = options.streamSeconds ?? 10;
  const root = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-chat-'));
  const app = openDatabase(path.join(root, 'app'));
  const bare = openDatabase(path.join(root, 'bare'), {
    migrations: ['CREATE TABLE bare (id INTEGER PRIMARY KEY, content TEXT NOT NULL);'],
  });
  const checkpointer = new WalCheckpointer(app.db, { file: path.join(root, 'app', DATABASE_FILE) });
  try {
    const conversation = new ConversationRepository(app.db).create('bench', new Date());
    const messages = new MessageRepository(app.db);
    const insert = bare.db.prepare<[string]>('INSERT INTO bare (content) VALUES (?)');
    const text = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars);
    const final = JSON.stringify([{ type: 'text', text }]);

    const bareMs: number[] = [];
    const relaxedMs: number[] = [];
    const streamedMs: number[] = [];
    let worst = 0;
    const timed = (fn: () => void) => {
      const t = performance.now();
      fn();
      const ms = performance.now() - t;
      worst = Math.max(worst, ms);
      return ms;
    };
    for (let i = 0; i < samples; i++) {
      const t = performance.now();
      insert.run(final);
      bareMs.push(performance.now() - t);
      bare.db.pragma('synchronous = NORMAL');
      const r = performance.now();
      insert.run(final);
      relaxedMs.push(performance.now() - r);
      bare.db.pragma('synchronous = FULL');

      let total = 0;
      let id = 0;
      const slice = (k: number): ChatBlock[] => [{ type: 'text', text: text.slice(0, Math.ceil((chars * k) / (seconds + 1))) }];
      total += timed(() => {
        id = messages.append(
          { conversationId: conversation.id, role: 'assistant', content: slice(0), status: 'streaming' },
          new Date(),
          false,
        ).id;
      });
      for (let s = 1; s <= seconds; s++) total += timed(() => messages.checkpoint(id, slice(s), new Date()));
      total += timed(() =>
        messages.finish(id, { content: [{ type: 'text', text }], status: 'complete', stopReason: 'end_turn' }, new Date()),
      );
      streamedMs.push(total);
    }
    const bareInsertMs = median(bareMs);
    const streamedMessageMs = median(streamedMs);
    const bareRelaxedInsertMs = median(relaxedMs);
    return {
      bareInsertMs,
      bareRelaxedInsertMs,
      streamedMessageMs,
      ratio: streamedMessageMs / bareInsertMs,
      ratioVsRelaxedInsert: streamedMessageMs / bareRelaxedInsertMs,
      worstBlockMs: worst,
      writesPerMessage: seconds + 2,
      samples,
    };
  } finally {
    await checkpointer.close();
    app.db.close();
    bare.db.close();
    if (!options.dir) fs.rmSync(root, { recursive: true, force: true });
  }
}

export interface SeedOptions {
  /** Messages to write (default 100,000). */
  messages?: number;
  title?: string;
}

/**
 * Writes one conversation of `messages` messages (alternating user / assistant, markdown with code,
 * a tool call and its result every 50 messages) into the database of `dataDir`. Returns its id.
 * Run it before starting the web host on that directory.
 */
export function seedConversation(dataDir: string, options: SeedOptions = {}): { conversationId: string; messages: number } {
  const count = options.messages ?? 100_000;
  const { db } = openDatabase(dataDir);
  try {
    const id = crypto.randomUUID();
    const at = new Date().toISOString();
    const insert = db.prepare<[string, number, string, string, string, string]>(
      "INSERT INTO chat_messages (conversation_id, seq, role, content, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'complete', ?, ?)",
    );
    db.transaction(() => {
      db.prepare('INSERT INTO conversations (id, title, message_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(
        id,
        options.title ?? `Benchmark (${count.toLocaleString('en-US')} messages)`,
        count,
        at,
        at,
      );
      for (let seq = 1; seq <= count; seq++) {
        insert.run(id, seq, seq % 2 ? 'user' : 'assistant', JSON.stringify(seedContent(seq)), at, at);
      }
    })();
    return { conversationId: id, messages: count };
  } finally {
    db.close();
  }
}

function seedContent(seq: number): ChatBlock[] {
  if (seq % 2) return [{ type: 'text', text: `Question ${seq}: how do I sum the numbers in column ${seq % 7}?` }];
  if (seq % 50 === 0) {
    return [
      { type: 'text', text: `Let me compute that (answer ${seq}).` },
      {
        type: 'tool_use',
        id: `toolu_${seq}`,
        name: 'Everything_demo__get-sum',
        input: { a: seq, b: 1 },
        serverId: 'bench',
        serverName: 'Everything (demo)',
        toolName: 'get-sum',
      },
    ];
  }
  return [
    {
      type: 'text',
      text: `Answer **${seq}**: use a loop.\n\n\`\`\`ts\nconst total = rows.reduce((sum, row) => sum + row[${seq % 7}], 0);\n\`\`\`\n\n- fast\n- simple`,
    },
  ];
}
