import { describe, expect, it } from 'vitest';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { drawdown } from '../../../functions/domain/drawdown';
import { bucketSeriesKey, CurvesRepository } from '../../../functions/store/curvesRepository';
import { StoreError } from '../../../functions/store/errors';
import { storedSeries } from '../../../functions/store/storedSeries';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

const T0 = 3_000_000_000_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FAR = T0 + 365 * DAY;
const A0 = T0 - (T0 % DAY);

describe('curve points with a placed step (DynamoDB Local)', () => {
  const tables = testTables();
  const repo = () => new CurvesRepository(tables.client, tables.prefix, { now: () => T0 });
  const table = () => tableName(tables.prefix, 'curves');

  it("round-trips a refined and a conservative step, exactly, in the point's slot", async () => {
    const account = testAddress(41);
    const refined = { r: -0.16556291390728478, placement: 'refined' as const, fromTs: A0 };
    const conservative = { r: -0.25, placement: 'conservative' as const, fromTs: A0 + HOUR, favourable: -0.0887 };
    await repo().putPoints(
      account,
      '1h',
      [
        { ts: A0, equity: '110000', pnl: '0' },
        { ts: A0 + HOUR, equity: '282500', pnl: '-27500', step: refined },
        { ts: A0 + 2 * HOUR, equity: '211875', pnl: '-98125', step: conservative },
      ],
      FAR,
    );
    const read = await repo().queryRange(account, '1h', A0, A0 + 2 * HOUR);
    expect(read.map((p) => p.step)).toEqual([undefined, refined, conservative]);
    const items = await tables.client.send(
      new QueryCommand({ TableName: table(), KeyConditionExpression: 'series = :s', ExpressionAttributeValues: { ':s': bucketSeriesKey(account, '1h') } }),
    );
    expect(items.Items?.[0]).toMatchObject({ p0: '110000|0', p1: `282500|-27500|r|${refined.r}|${HOUR}`, p2: '211875|-98125|c|-0.25|3600000|-0.0887' });
    // The drawdown reads the stored return, not the formula on the two points.
    expect(drawdown(storedSeries(read.slice(0, 2)))?.currentPct).toBeCloseTo(16.556, 3);
  });

  it('a slot written before placed steps reads as it did, with the conservative return computed on read', async () => {
    const account = testAddress(42);
    await tables.client.send(
      new PutCommand({
        TableName: table(),
        Item: { series: bucketSeriesKey(account, '1h'), ts: A0, expiresAt: FAR / 1000, p0: '110000|0', p1: '282500|-27500' },
      }),
    );
    const read = await repo().queryRange(account, '1h', A0, A0 + HOUR);
    expect(read).toEqual([
      { ts: A0, equity: '110000', pnl: '0' },
      { ts: A0 + HOUR, equity: '282500', pnl: '-27500' },
    ]);
    // The deposit placed at the end of the hour: the loss on 110k, not diluted by the 200k.
    expect(drawdown(storedSeries(read))?.currentPct).toBeCloseTo(25, 9);
  });

  it('refuses a step that does not end at its point or holds a bad value, and a stored slot with a malformed step', async () => {
    const account = testAddress(43);
    const write = (step: unknown) => repo().putPoints(account, '1h', [{ ts: A0 + HOUR, equity: '1', pnl: '0', step } as never], FAR);
    await expect(write({ r: -0.1, placement: 'refined', fromTs: A0 + HOUR })).rejects.toThrow(StoreError);
    await expect(write({ r: Number.NaN, placement: 'refined', fromTs: A0 })).rejects.toThrow(StoreError);
    await expect(write({ r: -0.1, placement: 'guessed', fromTs: A0 })).rejects.toThrow(StoreError);
    await expect(write({ r: -0.1, placement: 'refined', fromTs: A0, favourable: 0 })).rejects.toThrow(StoreError);
    expect(await repo().queryRange(account, '1h', 0, FAR)).toEqual([]);
    for (const slot of ['1|0|x|-0.1|3600000', '1|0|r|abc|3600000', '1|0|r|-0.1|0', '1|0|r|-0.1', '1|0|r|-0.1|3600000|0.2']) {
      const bad = testAddress(44);
      await tables.client.send(new PutCommand({ TableName: table(), Item: { series: bucketSeriesKey(bad, '1h'), ts: A0, expiresAt: FAR / 1000, p1: slot } }));
      await expect(repo().queryRange(bad, '1h', 0, FAR), slot).rejects.toThrow(/invalid p1/);
    }
  });
});
