import { eventWindow, type ModelEvent } from './events';
import { LOG_RETURN_OFFSET, NEXT_OFFSET, generateDay, initialSnapshot, newDayBlock, type DayBlock } from './generateDay';
import type { LruCache } from './lruCache';
import type { AccountParams } from './params';
import { DAY_MS, HOUR_MS, HOURS_PER_DAY, MINUTE_MS, MINUTES_PER_HOUR, STRIDE } from './state';
import { walkHour } from './walkHour';

/** Caches shared by every account of a simulator. */
export interface ModelCaches {
  days: LruCache<DayBlock>;
  /** Minute detail of one hour (`MINUTES_PER_HOUR * STRIDE` numbers). */
  hours: LruCache<Float64Array>;
}

/** Receives one snapshot: the `STRIDE` numbers of `data` from `offset`. Read them, do not keep them. */
export type SnapshotVisitor = (timestamp: number, data: Float64Array, offset: number) => void;

let nextId = 0;
/** Where days that are only stepped through (to reach a later midnight) are generated. */
const scratch = newDayBlock();

/**
 * One account of the indexer model. History starts at a midnight and is generated lazily:
 * days at hourly resolution, in order (only the midnight snapshots are kept), and the minutes
 * of an hour only when a snapshot inside it is asked for. Events can only be added after now,
 * so every snapshot up to now is immutable.
 */
export class ModelAccount {
  private readonly id = nextId++;
  private readonly events: ModelEvent[] = [];
  /** Bad prints: the minute (ms) whose curve point is served off by this percent of its equity. */
  private readonly prints = new Map<number, number>();
  private version = 0;
  /** Final midnight snapshots, `STRIDE` numbers per day from `firstDay`; `finalDays` are filled. */
  private dayStarts: Float64Array;
  private finalDays = 1;

  constructor(
    readonly address: string,
    readonly params: AccountParams,
    /** Day (since the epoch) of the first snapshot. */
    readonly firstDay: number,
    private readonly caches: ModelCaches,
    /** What a saved simulator had added to it (`scripted()`), restored without the checks against now. */
    scripted: { readonly events: readonly ModelEvent[]; readonly prints: readonly (readonly [number, number])[] } = { events: [], prints: [] },
  ) {
    this.dayStarts = new Float64Array(32 * STRIDE);
    this.dayStarts.set(initialSnapshot(params));
    this.events.push(...scripted.events.map((e) => ({ ...e })));
    for (const [ms, pct] of scripted.prints) this.prints.set(ms, pct);
  }

  /** The events and bad prints added so far (what a saved simulator keeps; the history follows from them and the parameters). */
  scripted(): { events: ModelEvent[]; prints: [number, number][] } {
    return { events: this.events.map((e) => ({ ...e })), prints: [...this.prints] };
  }

  /** Time of the first snapshot, a midnight UTC. */
  get historyStartMs(): number {
    return this.firstDay * DAY_MS;
  }

  /** Adds an event; it must start after the minute that contains `nowMs`. */
  addEvent(event: ModelEvent, nowMs: number): void {
    const first = event.kind === 'drift' ? event.startMinute + 1 : event.minute;
    if (first <= Math.floor(nowMs / MINUTE_MS)) throw new RangeError('an event cannot change snapshots up to now');
    this.events.push(event);
    this.version += 1;
  }

  /**
   * Serves the curve point of minute `ms` (after the minute that contains `nowMs`) off by `pct` %
   * of its equity, in equity and PnL alike, as a bad print would; the account's state, the
   * minutes around it and the summary are unchanged.
   */
  addPrint(ms: number, pct: number, nowMs: number): void {
    if (ms <= Math.floor(nowMs / MINUTE_MS) * MINUTE_MS) throw new RangeError('a print cannot change snapshots up to now');
    this.prints.set(ms, pct);
  }

  /** The bad print at minute `ms`, percent of equity (0: none). */
  printAt(ms: number): number {
    return this.prints.get(ms) ?? 0;
  }

  /** A copy of the snapshot at `ms` (a whole minute, not before history start). */
  snapshotAt(ms: number, nowMs: number): Float64Array {
    let copy = new Float64Array(STRIDE);
    this.forEachSnapshot(ms, MINUTE_MS, ms, nowMs, (_t, data, offset) => {
      copy = data.slice(offset, offset + STRIDE);
    });
    return copy;
  }

  /**
   * Visits the snapshots at `first`, `first + step`, ... up to `last` (whole minutes, not
   * before history start), in order, touching each generated day and hour once.
   */
  forEachSnapshot(first: number, step: number, last: number, nowMs: number, visit: SnapshotVisitor): void {
    if (first % MINUTE_MS !== 0 || step % MINUTE_MS !== 0 || step <= 0 || first < this.historyStartMs) {
      throw new RangeError(`no snapshots from ${first} every ${step} ms`);
    }
    let blockDay = Number.NaN;
    let block: DayBlock | undefined;
    let detailHour = Number.NaN;
    let detail: Float64Array | undefined;
    for (let t = first; t <= last; t += step) {
      const day = Math.floor(t / DAY_MS);
      if (t === day * DAY_MS) {
        const index = day - this.firstDay;
        if (this.finalize(index, nowMs)) visit(t, this.dayStarts, index * STRIDE);
        else visit(t, this.day(day - 1, nowMs), NEXT_OFFSET);
        continue;
      }
      const hour = Math.floor(t / HOUR_MS);
      if (t === hour * HOUR_MS) {
        if (day !== blockDay || block === undefined) {
          block = this.day(day, nowMs);
          blockDay = day;
        }
        visit(t, block, (hour - day * HOURS_PER_DAY) * STRIDE);
        continue;
      }
      if (hour !== detailHour || detail === undefined) {
        detail = this.hourDetail(hour, nowMs);
        detailHour = hour;
      }
      visit(t, detail, ((t - hour * HOUR_MS) / MINUTE_MS) * STRIDE);
    }
  }

  /** Extends the final midnight snapshots up to `index` if it is not after now; false otherwise. */
  private finalize(index: number, nowMs: number): boolean {
    while (this.finalDays <= index) {
      const previousDay = this.firstDay + this.finalDays - 1;
      // A midnight after now may still change with events added later: it is never kept.
      if ((previousDay + 1) * DAY_MS > nowMs) return false;
      const cached = this.caches.days.get(this.key(previousDay, true));
      const block = cached ?? generateDay(this.params, previousDay, this.dayStarts.subarray((this.finalDays - 1) * STRIDE), this.events, scratch);
      const next = block.subarray(NEXT_OFFSET, NEXT_OFFSET + STRIDE);
      if ((this.finalDays + 1) * STRIDE > this.dayStarts.length) {
        const grown = new Float64Array(this.dayStarts.length * 2);
        grown.set(this.dayStarts);
        this.dayStarts = grown;
      }
      this.dayStarts.set(next, this.finalDays * STRIDE);
      this.finalDays += 1;
    }
    return true;
  }

  private dayStart(day: number, nowMs: number): Float64Array {
    const index = day - this.firstDay;
    if (index < 0) throw new RangeError(`day ${day} is before history`);
    if (this.finalize(index, nowMs)) return this.dayStarts.subarray(index * STRIDE, (index + 1) * STRIDE);
    return this.day(day - 1, nowMs).subarray(NEXT_OFFSET, NEXT_OFFSET + STRIDE);
  }

  private day(day: number, nowMs: number): DayBlock {
    const key = this.key(day, (day + 1) * DAY_MS <= nowMs);
    const cached = this.caches.days.get(key);
    if (cached !== undefined) return cached;
    const block = generateDay(this.params, day, this.dayStart(day, nowMs), this.events);
    this.caches.days.set(key, block);
    return block;
  }

  private hourDetail(hour: number, nowMs: number): Float64Array {
    const key = this.key(hour, (hour + 1) * HOUR_MS <= nowMs);
    const cached = this.caches.hours.get(key);
    if (cached !== undefined) return cached;
    const day = Math.floor(hour / HOURS_PER_DAY);
    const h = hour - day * HOURS_PER_DAY;
    const block = this.day(day, nowMs);
    const detail = new Float64Array(MINUTES_PER_HOUR * STRIDE);
    const minute = hour * MINUTES_PER_HOUR;
    walkHour(
      this.params,
      hour,
      block[LOG_RETURN_OFFSET + h] ?? 0,
      block.subarray(h * STRIDE, (h + 1) * STRIDE),
      eventWindow(this.events, minute, minute + MINUTES_PER_HOUR),
      detail,
    );
    this.caches.hours.set(key, detail);
    return detail;
  }

  /** Cache key: a final block never changes; any other depends on the events so far. */
  private key(index: number, final: boolean): string {
    return `${this.id}:${index}:${final ? 'final' : this.version}`;
  }
}
