/**
 * Whether a snapshot differs from the last one sent, remembered as a digest of its JSON.
 *
 * Why a digest: the tool-offers snapshot lists every Ready server's tools (50 servers of
 * server-everything: ≈ 500 KB of JSON). Kept as the JSON, the last one sent was the largest thing the
 * area held, ≈ 10 KB of heap per server; a digest is 44 characters whatever the fleet.
 */
import { createHash } from 'node:crypto';

export class LastSent {
  private digest = '';

  /** True (and remembered) when `json` differs from the last JSON given; false when it is the same. */
  changed(json: string): boolean {
    const digest = createHash('sha256').update(json).digest('base64');
    if (digest === this.digest) return false;
    this.digest = digest;
    return true;
  }

  /** What is kept between snapshots (for the size bound's test). */
  get kept(): string {
    return this.digest;
  }
}
