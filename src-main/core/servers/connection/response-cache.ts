import { InMemoryResponseCacheStore, type CacheKey, type CacheScope } from '@modelcontextprotocol/client';

/**
 * The SDK client's response cache, reduced to the version probe's answer.
 *
 * The SDK would keep a JSON copy of every list and resource it fetched. Patchbay holds the catalog
 * itself (one copy: `ServerConnection.catalog`) and hands the SDK the called tool's definition on
 * each `callTool`, which is all the SDK read its cached `tools/list` for; the rest it never serves
 * back (its default freshness is zero). So nothing but the probe's answer is stored.
 */
export class ProbeOnlyCacheStore extends InMemoryResponseCacheStore {
  override set(key: CacheKey, entry: { value: string; expiresAt?: number; scope?: CacheScope }): number {
    return key.method === 'server/discover' ? super.set(key, entry) : 0;
  }
}
