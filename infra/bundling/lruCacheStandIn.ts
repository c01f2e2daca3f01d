/**
 * Stands in for `mnemonist/lru-cache` in the Lambda bundles (an alias of `LAMBDA_ALIASES`, no
 * rewriting): the DynamoDB client's endpoint-discovery cache (`@aws-sdk/endpoint-cache`) keeps its
 * entries in one and uses `get`, `set`, `has`, `peek` and `clear`; a `Map` in insertion order does
 * the same.
 *
 * - Upstream: `node_modules/mnemonist/lru-cache.js` (with `utils/typed-arrays.js`, `utils/iterables.js`).
 * - Saves 6.9 KB minified in every bundle holding the DynamoDB client (all nine).
 * - Verified against mnemonist 0.38.3 (as imported by @aws-sdk/endpoint-cache 3.972.11), call for
 *   call, by `test/infra/bundling/lruCacheStandIn.test.ts`; on a bump that test is the check, and deleting
 *   the alias is the way out.
 */
export default class LRUCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!(Number.isFinite(capacity) && capacity > 0)) throw new Error('LRUCache: capacity should be positive number.');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value, without making it more recently used. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Sets the value as the most recently used; evicts the least recently used beyond capacity. */
  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return this;
  }

  clear(): void {
    this.entries.clear();
  }
}
