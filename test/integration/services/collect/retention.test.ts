import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { BUCKET_SLOTS } from '../../../../functions/store/curveBucket';
import { bucketSeriesKey } from '../../../../functions/store/curvesRepository';
import { tableName } from '../../../../functions/store/tableDefinitions';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';

const DAY = 86_400_000;

/** What a poll stores expires on its own clock: curve points after the product's 400 days, snapshots after 35. */
describe('retention of what collection stores', () => {
  const h = pipelineHarness();

  async function expiries(table: 'curves' | 'snapshots', key: string, value: string): Promise<number[]> {
    const out = await h.tables.client.send(
      new QueryCommand({ TableName: tableName(h.tables.prefix, table), KeyConditionExpression: `${key} = :v`, ExpressionAttributeValues: { ':v': value } }),
    );
    return (out.Items ?? []).map((item) => Number(item['expiresAt']) * 1000);
  }

  it('curve points keep the 400-day retention; snapshots expire after 35 days', async () => {
    expect(DEFAULT_COLLECT_SETTINGS.retentionMs).toBe(400 * DAY);
    expect(DEFAULT_COLLECT_SETTINGS.snapshotRetentionMs).toBe(35 * DAY);
    const { address } = await h.track('retention', { interval: '1h' }, CALM);
    await h.pipeline.runCycle({ kind: 'due' });
    const now = h.now();
    const curves = await expiries('curves', 'series', bucketSeriesKey(address, '1h'));
    const snapshots = await expiries('snapshots', 'address', address);
    const points = (await h.repos.curves.countAndNewest(address, '1h')).count;
    expect(points).toBeGreaterThan(100);
    // Buckets of 12 hours: the first and last may be partly filled.
    expect(curves.length).toBeGreaterThanOrEqual(Math.ceil(points / BUCKET_SLOTS));
    expect(curves.length).toBeLessThanOrEqual(Math.ceil(points / BUCKET_SLOTS) + 1);
    expect(snapshots).toHaveLength(1);
    for (const at of curves) expect(at - now).toBeGreaterThanOrEqual(400 * DAY);
    for (const at of curves) expect(at - now).toBeLessThan(400 * DAY + 1_000);
    expect(snapshots[0]! - now).toBeGreaterThanOrEqual(35 * DAY);
    expect(snapshots[0]! - now).toBeLessThan(35 * DAY + 1_000);
    expect((await h.repos.snapshots.latest(address))?.cursorMs).toBeGreaterThan(0);
  });
});
