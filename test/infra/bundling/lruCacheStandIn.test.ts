import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import LRUCache from '../../../infra/bundling/lruCacheStandIn';

describe("the stand-in for mnemonist's LRU cache (aliased in every bundle that holds the DynamoDB client)", () => {
  const MnemonistLru = createRequire(import.meta.url)('mnemonist/lru-cache') as new (capacity: number) => {
    get(k: string): unknown;
    peek(k: string): unknown;
    has(k: string): boolean;
    set(k: string, v: unknown): unknown;
    clear(): void;
    size: number;
  };

  it('answers a random sequence of calls exactly as mnemonist does', () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    const ours = new LRUCache<string, number>(5);
    const theirs = new MnemonistLru(5);
    for (let i = 0; i < 2_000; i++) {
      const key = `k${random(9)}`;
      const op = random(10);
      if (op < 4) expect(ours.get(key), `get ${key} at ${i}`).toBe(theirs.get(key));
      else if (op < 6) expect(ours.peek(key), `peek ${key} at ${i}`).toBe(theirs.peek(key));
      else if (op < 7) expect(ours.has(key), `has ${key} at ${i}`).toBe(theirs.has(key));
      else if (op < 9) {
        ours.set(key, i);
        theirs.set(key, i);
      } else {
        ours.clear();
        theirs.clear();
      }
      expect(ours.size).toBe(theirs.size);
    }
  });
});
