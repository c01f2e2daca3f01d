import { describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../../../functions/domain/channel';
import { CachedChannelList } from '../../../functions/store/cachedChannelList';

function source(lists: readonly (readonly string[] | Error)[]) {
  let reads = 0;
  return {
    reads: () => reads,
    list: () => {
      const next = lists[Math.min(reads++, lists.length - 1)]!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next.map((name) => ({ name }) as ChannelRecord));
    },
  };
}

describe('CachedChannelList', () => {
  it('reads the channels once per ttl, and again once it has run out', async () => {
    let now = 1_000;
    const repo = source([['a'], ['a', 'b']]);
    const cached = new CachedChannelList(repo, 5_000, () => now);
    const names = async () => (await cached.list()).map((c) => c.name);
    expect(await Promise.all([names(), names(), names()])).toEqual([['a'], ['a'], ['a']]);
    now += 4_999;
    expect(await names()).toEqual(['a']);
    expect(repo.reads()).toBe(1);
    now += 1;
    expect(await names(), 'a channel added is seen once the ttl ran out').toEqual(['a', 'b']);
    expect(repo.reads()).toBe(2);
  });

  it('keeps no failed read, and reads every time with a ttl of 0', async () => {
    const failing = source([new Error('throttled'), ['a']]);
    const cached = new CachedChannelList(failing, 5_000, () => 0);
    await expect(cached.list()).rejects.toThrow('throttled');
    expect((await cached.list()).map((c) => c.name)).toEqual(['a']);
    const uncached = source([['a']]);
    const every = new CachedChannelList(uncached, 0, () => 0);
    await every.list();
    await every.list();
    expect(uncached.reads()).toBe(2);
  });
});
