import type { BeginOutcome, DeliveryIntent } from '../functions/store/deliveryRepository';
import type { TrackedAccount } from '../functions/domain/account';
import type { StoredCurvePoint } from '../functions/store/curvesRepository';
import type { DelegateView } from '../functions/store/delegateViewRepository';
import type { ReportRecord } from '../functions/store/reportRecordsRepository';
import type { Snapshot } from '../functions/store/snapshotsRepository';
import type { ReportDeps } from '../functions/services/report/send/reportDeps';

/** One account's stored data. */
export interface StoredAccountData {
  readonly account: TrackedAccount;
  /** Oldest first. */
  readonly points: StoredCurvePoint[];
  /** Oldest first. */
  readonly snapshots: Snapshot[];
  readonly delegates: DelegateView[];
}

/**
 * The repositories the report job reads, held in memory with the same contracts (ranges,
 * "newest before", conditional schedule writes, exactly-once deliveries, report records), so the benchmark
 * measures building, rendering and sending rather than a local database's latency.
 */
export function memoryReportRepos(data: readonly StoredAccountData[]): ReportDeps['repos'] {
  const byAddress = new Map<string, StoredAccountData>(data.map((d) => [d.account.address, { ...d, account: { ...d.account } }]));
  const deliveries = new Map<string, 'in-progress' | 'sent' | 'failed'>();
  const records = new Map<string, ReportRecord[]>();
  const find = (address: string) => byAddress.get(address);
  return {
    // The delivery history is not what the benchmark measures.
    history: { recordDelivery: async () => {} },
    accounts: {
      get: async (address) => {
        const found = find(address);
        return found ? { ...found.account } : null;
      },
      getMany: async (addresses) => addresses.flatMap((address) => (find(address) ? [{ ...find(address)!.account }] : [])),
    },
    schedule: {
      setNextReportAt: async (address, next, expected) => {
        const found = find(address);
        if (!found || (expected !== undefined && found.account.nextReportAt !== expected)) return { kind: 'lost' };
        found.account.nextReportAt = next;
        return { kind: 'set' };
      },
    },
    curves: {
      queryRange: async (address, _interval, fromMs, toMs) => (find(address)?.points ?? []).filter((p) => p.ts >= fromMs && p.ts <= toMs),
    },
    reportRecords: {
      latestBefore: async (address, timeZone, coveredDate) =>
        [...(records.get(address) ?? [])]
          .filter((r) => r.timeZone === timeZone && r.coveredDate < coveredDate)
          .sort((a, b) => (a.coveredDate < b.coveredDate ? -1 : 1))
          .at(-1) ?? null,
      put: async (record) => {
        const list = (records.get(record.address) ?? []).filter((r) => r.timeZone !== record.timeZone || r.coveredDate !== record.coveredDate);
        records.set(record.address, [...list, record]);
      },
    },
    delegates: {
      listForAccount: async (address) => [...(find(address)?.delegates ?? [])],
    },
    deliveries: {
      get: async (eventId: string) => {
        const status = deliveries.get(eventId);
        return status === undefined ? null : { eventId, kind: 'daily-report', account: '', recipients: [], status, startedAt: 0, attempts: 1 };
      },
      begin: async (eventId: string, _intent: DeliveryIntent): Promise<BeginOutcome> => {
        const status = deliveries.get(eventId);
        if (status === 'sent') return { kind: 'already-sent', sesMessageId: '' };
        if (status === 'in-progress') return { kind: 'in-progress', retryAfterMs: Number.POSITIVE_INFINITY };
        deliveries.set(eventId, 'in-progress');
        return { kind: 'new', leaseUntil: Number.POSITIVE_INFINITY };
      },
      holds: () => true,
      complete: async (eventId) => void deliveries.set(eventId, 'sent'),
      fail: async (eventId) => void deliveries.set(eventId, 'failed'),
    },
    suppressions: {
      filter: async (emails) => [...emails],
    },
    preferences: {
      filter: async (emails) => [...emails],
    },
    // No recipient records: every address follows its accounts' schedules.
    recipients: {
      get: async () => null,
      getMany: async () => new Map(),
    },
    // The benchmark sends reports, not jobs: nothing to record.
    reportLedger: {
      finish: async () => ({ kind: 'finished' as const }),
      noteFailure: async () => undefined,
    },
  };
}
