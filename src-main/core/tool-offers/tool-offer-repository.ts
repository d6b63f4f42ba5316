import type Database from 'better-sqlite3';

/** The user's choices for one tool. */
export interface ToolChoice {
  offered: boolean;
  pinned: boolean;
}

interface OfferRow {
  tool_name: string;
  offered: number;
  pinned: number;
}

/**
 * The `tool_offers` and `tool_offer_defaults` tables: per server and tool name, whether it is offered
 * to the model and pinned; per server, whether tools seen for the first time are offered.
 */
export class ToolOfferRepository {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      forServer: db.prepare<[string], OfferRow>('SELECT tool_name, offered, pinned FROM tool_offers WHERE server_id = ?'),
      // First sight: a tool that already has a row keeps it (it disappeared and came back).
      firstSeen: db.prepare<[string, string, number]>(
        'INSERT INTO tool_offers (server_id, tool_name, offered, pinned) VALUES (?, ?, ?, 0) ON CONFLICT DO NOTHING',
      ),
      offered: db.prepare<[string, string, number]>(
        'INSERT INTO tool_offers (server_id, tool_name, offered, pinned) VALUES (?, ?, ?, 0) ON CONFLICT DO UPDATE SET offered = excluded.offered',
      ),
      pinned: db.prepare<[string, string, number, number]>(
        'INSERT INTO tool_offers (server_id, tool_name, offered, pinned) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET pinned = excluded.pinned',
      ),
      defaults: db.prepare<[], { server_id: string; offer_new: number }>('SELECT server_id, offer_new FROM tool_offer_defaults'),
      setDefault: db.prepare<[string, number]>(
        'INSERT INTO tool_offer_defaults (server_id, offer_new) VALUES (?, ?) ON CONFLICT DO UPDATE SET offer_new = excluded.offer_new',
      ),
      forgetOffers: db.prepare<[string]>('DELETE FROM tool_offers WHERE server_id = ?'),
      forgetDefault: db.prepare<[string]>('DELETE FROM tool_offer_defaults WHERE server_id = ?'),
    };
    this.recordFirstSight = db.transaction((serverId: string, tools: readonly string[], offered: boolean) => {
      for (const tool of tools) this.statements.firstSeen.run(serverId, tool, offered ? 1 : 0);
    });
  }

  /** Records tools seen for the first time with `offered`; tools with a row already keep theirs. */
  readonly recordFirstSight: (serverId: string, tools: readonly string[], offered: boolean) => void;

  /** The choices stored for a server's tools, by tool name. */
  choices(serverId: string): Map<string, ToolChoice> {
    const rows = this.statements.forServer.all(serverId);
    return new Map(rows.map((row) => [row.tool_name, { offered: row.offered === 1, pinned: row.pinned === 1 }]));
  }

  setOffered(serverId: string, tool: string, offered: boolean): void {
    this.statements.offered.run(serverId, tool, offered ? 1 : 0);
  }

  /** Pins (or unpins) a tool; a tool pinned before it had a row is offered. */
  setPinned(serverId: string, tool: string, pinned: boolean): void {
    this.statements.pinned.run(serverId, tool, 1, pinned ? 1 : 0);
  }

  /** Per server id, whether its new tools are offered (only servers whose default was set). */
  offerNew(): Record<string, boolean> {
    return Object.fromEntries(this.statements.defaults.all().map((row) => [row.server_id, row.offer_new === 1]));
  }

  setOfferNew(serverId: string, offerNew: boolean): void {
    this.statements.setDefault.run(serverId, offerNew ? 1 : 0);
  }

  /** The server was removed: its choices go with it. */
  forgetServer(serverId: string): void {
    this.statements.forgetOffers.run(serverId);
    this.statements.forgetDefault.run(serverId);
  }
}
