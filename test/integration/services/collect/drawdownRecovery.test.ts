import { describe, expect, it } from 'vitest';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import type { NotifyEvent } from '../../../../functions/messages/notifyMessage';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { drawdownPoll } from '../../../support/collect/drawdownPoll';
import { createRepositories } from '../../../../functions/store/repositories';
import { testTables } from '../../../support/testTables';

const HOUR = 3_600_000;
/** After the machine's date, so DynamoDB Local's TTL sweep leaves the points alone. */
const START = Date.UTC(2030, 2, 2);

/**
 * A drawdown's recovery past the hysteresis raises a `drawdown-recovered` event for the level the
 * alert named (it resolves that incident on a pager), once, on the stored curves (DynamoDB Local).
 */
describe('drawdown recovery events (DynamoDB Local)', () => {
  const tables = testTables();
  let now = START;
  const repos = () => createRepositories(tables.client, tables.prefix, { now: () => now });
  const settings = accountSettingsSchema.parse({
    address: '0x00000000000000000000000000000000000000e7',
    email: 'recover@example.com',
    interval: '1h',
    drawdown: '5,10,20',
  });
  let equity = 100_000;
  let pnl = 0;

  /** One more hourly point after a trading return `r`, then the poll's evaluation, committed. */
  const poll = async (r: number): Promise<NotifyEvent[]> => {
    now += HOUR;
    pnl += equity * r;
    equity *= 1 + r;
    await repos().curves.putPoints(settings.address, '1h', [{ ts: now, equity: String(equity), pnl: String(pnl) }], now + DEFAULT_COLLECT_SETTINGS.retentionMs);
    const account = (await repos().accounts.get(settings.address))!;
    const pending = await drawdownPoll(repos(), account, now, now);
    await pending.commit();
    return pending.events;
  };

  it('a 12% loss names the 10% level; climbing back below 9% resolves it once, and below 4% nothing (5% was never named)', async () => {
    await repos().accounts.create(newTrackedAccount(settings, START));
    expect(await poll(0)).toEqual([]);
    const fired = await poll(-0.12);
    expect(fired).toMatchObject([{ kind: 'drawdown', notice: 'fired', level: 10 }]);

    const recovered = await poll(0.04); // 0.88 * 1.04 = 0.9152: 8.5% below the peak
    expect(recovered).toEqual([
      {
        kind: 'drawdown-recovered',
        eventId: `drawdown:${settings.address}:10:recovered:${START + 2 * HOUR}`,
        account: settings.address,
        at: now,
        level: 10,
        drawdownPct: expect.closeTo(8.48, 1) as unknown,
        equityNow: equity,
        asOf: now,
      },
    ]);
    expect(await poll(0), 'the recovery is raised once').toEqual([]);
    expect(await poll(0.06), '5% recovers too, but no notice named it').toEqual([]);
  });
});
