import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHANNEL_TEST_KEPT_MS, DeskChannelTestRepository, RECENT_CHANNEL_TESTS } from '../../../functions/store/deskChannelTestRepository';
import { testTables } from '../../support/testTables';

describe('DeskChannelTestRepository: the latest tests', () => {
  const tables = testTables();
  const at = Date.UTC(2030, 0, 1);
  const repo = (now = at) => new DeskChannelTestRepository(tables.client, tables.prefix, { now: () => now });
  const test = (channel: string, when = at) => ({ channel, by: 'ops@example.com', at: when, outcome: 'sent', message: 'delivered (HTTP 200)' }) as const;

  it('keeps the latest 20 of tests recorded at once, each in a slot of its own (none lost to another)', async () => {
    const channels = Array.from({ length: 25 }, (_, i) => `race-${i}`);
    await Promise.all(channels.map((channel) => repo().record(randomUUID(), test(channel))));
    const recent = await repo().recent();
    expect(recent).toHaveLength(RECENT_CHANNEL_TESTS);
    expect(new Set(recent.map((t) => t.channel)).size).toBe(RECENT_CHANNEL_TESTS);
    for (const t of recent) expect(channels).toContain(t.channel);
    // Each is also kept as its own record.
    const id = randomUUID();
    await repo().record(id, test('own-record'));
    expect(await repo().get(id)).toEqual(test('own-record'));
    expect((await repo().recent())[0]?.channel).toBe('own-record');
  });

  it('drops tests past the 90 days kept when read', async () => {
    await repo().record(randomUUID(), test('aging'));
    expect((await repo(at + CHANNEL_TEST_KEPT_MS - 1).recent()).map((t) => t.channel)).toContain('aging');
    expect((await repo(at + CHANNEL_TEST_KEPT_MS + 1).recent()).map((t) => t.channel)).not.toContain('aging');
  });
});
