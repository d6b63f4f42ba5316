/** Requests of one kind a server may have waiting at once; older ones are forgotten (their bars get no link). */
const MAX_WAITING = 100;

/**
 * A server's own requests (sampling, elicitation) by JSON-RPC id, from the wire until the question
 * each raises is asked: a question carries no request id, so it takes the oldest unclaimed request of
 * its server and kind (the handlers ask in the order the requests arrive). A request answered without
 * a question (a policy that blocks, a limit) is forgotten with its answer.
 */
export class ServerRequestIds {
  private readonly waiting = new Map<string, string[]>();

  arrived(serverId: string, method: string, id: string | number): void {
    const kind = KIND_OF_METHOD[method];
    if (!kind) return;
    const key = `${serverId}\n${kind}`;
    const ids = this.waiting.get(key) ?? [];
    ids.push(String(id));
    if (ids.length > MAX_WAITING) ids.shift();
    this.waiting.set(key, ids);
  }

  /** The host answered a server's request: it no longer waits for a question. */
  answered(serverId: string, id: string | number): void {
    for (const kind of KINDS) {
      const ids = this.waiting.get(`${serverId}\n${kind}`);
      const at = ids?.indexOf(String(id)) ?? -1;
      if (at >= 0) ids!.splice(at, 1);
    }
  }

  /** The request a question of this kind was asked for, if its id was seen. */
  claim(serverId: string, kind: 'sampling' | 'elicitation'): string | undefined {
    return this.waiting.get(`${serverId}\n${kind}`)?.shift();
  }

  /** A server gone: its requests with it. */
  forgetServer(serverId: string): void {
    for (const kind of KINDS) this.waiting.delete(`${serverId}\n${kind}`);
  }
}

const KIND_OF_METHOD: Record<string, 'sampling' | 'elicitation'> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
};
const KINDS = ['sampling', 'elicitation'] as const;
