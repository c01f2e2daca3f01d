import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChainClient } from '../functions/chain/ports';
import { newCurvePoints } from '../functions/services/collect/newCurvePoints';
import { seriesKey } from '../functions/store/curvesRepository';
import { tableName } from '../functions/store/tableDefinitions';

/** What the naive collector did for its sample of accounts. */
export interface NaiveRun {
  readonly accounts: number;
  readonly wallMs: number;
  /** Points (timestamps) written, each with its own `PutItem`. */
  readonly points: number;
}

/**
 * The baseline the pipeline is measured against: one account after another, the whole history
 * fetched again on every poll (`from=0`, `to=0`), one `PutItem` per point (equity and PnL of one
 * timestamp in one item, as the real store keeps them) and one for the summary, with no
 * batching, no cursor and no concurrency. It writes to its own tables under `prefix`.
 */
export async function runNaiveCollector(
  deps: { chain: ChainClient; client: DynamoDBDocumentClient; prefix: string; now: number; retentionMs: number },
  addresses: readonly string[],
): Promise<NaiveRun> {
  const curves = tableName(deps.prefix, 'curves');
  const snapshots = tableName(deps.prefix, 'snapshots');
  const expiresAt = Math.floor((deps.now + deps.retentionMs) / 1000);
  const started = performance.now();
  let points = 0;
  for (const address of addresses) {
    const page = await deps.chain.getPortfolio({ account: address, from: 0, to: 0, interval: '1h' });
    for (const point of newCurvePoints(page.equity, page.pnl, null)) {
      await deps.client.send(new PutCommand({ TableName: curves, Item: { series: seriesKey(address, '1h'), ...point, expiresAt } }));
      points++;
    }
    await deps.client.send(new PutCommand({ TableName: snapshots, Item: { address, polledAt: deps.now, summary: page.summary, expiresAt } }));
  }
  return { accounts: addresses.length, wallMs: performance.now() - started, points };
}
