/**
 * Stands in for `mnemonist/lru-cache` in the Lambda bundles (`LAMBDA_STUBS`): the DynamoDB
 * client's endpoint-discovery cache (`@aws-sdk/endpoint-cache`) keeps its entries in one and uses
 * `get`, `set`, `has`, `peek` and `clear`; a `Map` in insertion order does the same in a few
 * lines instead of ~7 KB (tested against mnemonist's).
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
