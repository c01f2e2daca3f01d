import type * as z from 'zod';
import type { PortfolioResponse } from '../../functions/chain/schemas';
import { SimClock, type ClockOptions } from './clock';
import type { AccountView, AddedDelegate, CreatedAccount, EventApplied, SimState, addDelegateRequest, createAccountRequest } from './controlSchemas';
import { FaultInjector } from './faults/faultInjector';
import { deriveKey, keyFromPrivate } from './keys';
import type { DayBlock } from './model/generateDay';
import { LruCache } from './model/lruCache';
import type { ModelEvent } from './model/events';
import { ModelAccount, type ModelCaches } from './model/modelAccount';
import { drawParams, type AccountProfile } from './model/params';
import { DAY_MS, MINUTE_MS, S } from './model/state';
import { executeTransaction, type TransactionOutcome } from './node/executeTransaction';
import { NodeLedger } from './node/ledger';
import { buildPortfolio } from './portfolio/buildPortfolio';
import { cents } from './portfolio/format';
import { formatWinRate, type WinRateFormat } from './portfolio/winRateFormat';
import { parseAddress, type PortfolioQuery } from './portfolio/query';
import { createRng, hashString, mixSeeds } from './prng';
import type { SavedSimState } from './savedSimState';
import { SimulatorError } from './simulatorError';

/** How the simulator is set up. */
export interface SimulatorOptions {
  /** Seed of every random draw (accounts, derived keys, faults). Default 1. */
  seed?: number;
  clock?: ClockOptions;
  /** HTTP status of a rejected transaction (its body is always `{"Err": ...}`). Default 400. */
  rejectionStatus?: number;
  /**
   * What `GET /portfolio` shows for an address nobody created: `generate` (default) invents a
   * history for it from the seed; `empty` answers empty curves.
   */
  unknownAccounts?: 'generate' | 'empty';
  /** Days of history of generated accounts, and the default for created ones. Default 30. */
  historyDays?: number;
  /** Generated days kept in memory across all accounts (about 3 KB each). Default 2000. */
  dayCacheSize?: number;
  /** Generated hours of minute detail kept in memory (about 7 KB each). Default 2000. */
  hourCacheSize?: number;
  /**
   * A state from `save()` to go on from: its seed, settings, accounts and ledger replace the
   * options above, and the clock starts at the later of its time and `clock.startMs` (default
   * real time), at `clock.speed`: simulated time never goes back.
   */
  saved?: SavedSimState;
}

/** Largest batch `POST /batch_transactions` accepts. */
export const MAX_BATCH = 100;

/**
 * The simulated chain without its HTTP surface: node ledger (nonces, delegates), indexer model
 * (equity and PnL histories), clock and fault profile. The HTTP server and tests both use it.
 */
export class Simulator {
  readonly seed: number;
  readonly clock: SimClock;
  readonly ledger: NodeLedger;
  readonly faults: FaultInjector;
  readonly unknownAccounts: 'generate' | 'empty';
  rejectionStatus: number;
  /** How `winRate` is written: a fraction `"0.4954"` (default), a percent number `"49.54"`, or `"49.54%"`. */
  winRateFormat: WinRateFormat = 'fraction';
  private readonly historyDays: number;
  private readonly firstGeneratedDay: number;
  private readonly caches: ModelCaches;
  private readonly models = new Map<string, ModelAccount>();
  private readonly created: string[] = [];
  private accountCounter = 0;
  private delegateCounter = 0;
  private orderCounter = 0;

  constructor(options: SimulatorOptions = {}) {
    const { saved } = options;
    this.seed = saved?.seed ?? options.seed ?? 1;
    if (!Number.isSafeInteger(this.seed) || this.seed < 0) throw new RangeError(`seed must be a non-negative integer, got ${this.seed}`);
    this.clock = new SimClock(saved ? { ...options.clock, startMs: Math.max(saved.nowMs, options.clock?.startMs ?? Date.now()) } : options.clock);
    this.rejectionStatus = saved?.rejectionStatus ?? options.rejectionStatus ?? 400;
    this.unknownAccounts = saved?.unknownAccounts ?? options.unknownAccounts ?? 'generate';
    this.historyDays = saved?.historyDays ?? options.historyDays ?? 30;
    this.firstGeneratedDay = saved?.firstGeneratedDay ?? Math.floor(this.clock.now() / DAY_MS) - this.historyDays;
    this.caches = {
      days: new LruCache<DayBlock>(options.dayCacheSize ?? 2_000),
      hours: new LruCache<Float64Array>(options.hourCacheSize ?? 2_000),
    };
    this.faults = new FaultInjector(this.seed);
    this.ledger = new NodeLedger(saved?.ledger);
    if (saved) {
      this.winRateFormat = saved.winRateFormat;
      this.accountCounter = saved.counters.accounts;
      this.delegateCounter = saved.counters.delegates;
      this.orderCounter = saved.counters.orders;
      this.created.push(...saved.created);
      for (const m of saved.models) {
        this.models.set(m.address, new ModelAccount(m.address, m.params, m.firstDay, this.caches, { events: m.events, prints: m.prints }));
      }
    }
  }

  /** What `options.saved` of a new simulator takes to go on from here (not the fault profile). */
  save(): SavedSimState {
    return {
      version: 1,
      seed: this.seed,
      nowMs: this.clock.now(),
      historyDays: this.historyDays,
      unknownAccounts: this.unknownAccounts,
      rejectionStatus: this.rejectionStatus,
      winRateFormat: this.winRateFormat,
      firstGeneratedDay: this.firstGeneratedDay,
      counters: { accounts: this.accountCounter, delegates: this.delegateCounter, orders: this.orderCounter },
      created: [...this.created],
      models: [...this.models.values()].map((m) => ({ address: m.address, firstDay: m.firstDay, params: { ...m.params }, ...m.scripted() })),
      ledger: this.ledger.entries(),
    };
  }

  /** Creates an account with a known key and a history of `historyDays` days. */
  createAccount(request: z.output<typeof createAccountRequest> = {}): CreatedAccount {
    this.accountCounter += 1;
    const label = request.label ?? `account-${this.accountCounter}`;
    const key = request.privateKey === undefined ? deriveKey(this.seed, `account:${label}`) : keyFromPrivate(request.privateKey);
    if (this.models.has(key.address)) throw new SimulatorError(409, `account ${key.address} already exists`);
    const firstDay = Math.floor(this.clock.now() / DAY_MS) - (request.historyDays ?? this.historyDays);
    const model = this.newModel(key.address, firstDay, request.capital, request.profile);
    this.created.push(key.address);
    return { address: key.address, privateKey: key.privateKey, label, historyStartMs: model.historyStartMs };
  }

  /** The `GET /portfolio` response. */
  portfolio(query: PortfolioQuery): PortfolioResponse {
    const response = buildPortfolio(this.model(query.account), query, this.clock.now());
    return { ...response, summary: { ...response.summary, winRate: formatWinRate(response.summary.winRate, this.winRateFormat) } };
  }

  /** Executes one `POST /transaction` body. */
  submitTransaction(body: unknown): TransactionOutcome {
    return executeTransaction(body, {
      ledger: this.ledger,
      nowMs: this.clock.now(),
      mint: (to, amount) => this.mint(to, amount),
      nextOrderId: () => (this.orderCounter += 1),
    });
  }

  /**
   * Executes a `POST /batch_transactions` body in order, stopping at the first rejection (those
   * before it stay applied). The result is the string `"Ok"`.
   */
  submitBatch(body: unknown): TransactionOutcome {
    if (!Array.isArray(body)) return { ok: false, error: 'expected a JSON array of transactions' };
    if (body.length === 0 || body.length > MAX_BATCH) {
      return { ok: false, error: `a batch holds 1 to ${MAX_BATCH} transactions, got ${body.length}` };
    }
    for (const [index, tx] of body.entries()) {
      const outcome = this.submitTransaction(tx);
      if (!outcome.ok) return { ok: false, error: `transaction ${index}: ${outcome.error}` };
    }
    return { ok: true, result: 'Ok' };
  }

  /** Current state of an account: latest snapshot, nonces, delegates. */
  accountView(address: string): AccountView {
    const now = this.clock.now();
    const model = this.requireModel(address);
    const snapshotMs = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const snapshot = model.snapshotAt(snapshotMs, now);
    return {
      address: model.address,
      historyStartMs: model.historyStartMs,
      snapshotMs,
      equity: money(snapshot[S.equity]),
      pnl: money(snapshot[S.pnl]),
      netFlows: money(snapshot[S.netFlows]),
      ...this.ledger.nonces(model.address),
      delegates: this.ledger.delegates(model.address),
    };
  }

  /** Authorizes a delegate directly (no transaction); derives a key pair when none is given. */
  addDelegate(owner: string, request: z.output<typeof addDelegateRequest>): AddedDelegate {
    const account = this.address(owner);
    const now = this.clock.now();
    let privateKey: string | null = null;
    let delegate: string;
    if (request.address !== undefined) {
      delegate = this.address(request.address);
    } else {
      this.delegateCounter += 1;
      const key =
        request.privateKey === undefined
          ? deriveKey(this.seed, `delegate:${account}:${request.name ?? `delegate-${this.delegateCounter}`}`)
          : keyFromPrivate(request.privateKey);
      delegate = key.address;
      privateKey = key.privateKey;
    }
    if (delegate === account) throw new SimulatorError(400, 'an account cannot be its own delegate');
    const expiryMs = request.expiresInMs === undefined ? (request.expiryMs ?? null) : now + request.expiresInMs;
    const record = { address: delegate, expiryMs, name: request.name ?? null, isWebClient: request.isWebClient ?? false };
    this.ledger.putDelegate(account, record);
    return { delegate: record, privateKey };
  }

  removeDelegate(owner: string, delegate: string): void {
    if (!this.ledger.removeDelegate(this.address(owner), this.address(delegate))) {
      throw new SimulatorError(404, `${delegate} is not a delegate of ${owner}`);
    }
  }

  /** A deposit (amount > 0) or withdrawal (amount < 0): equity moves, PnL does not. */
  flow(address: string, amount: number, atMs?: number): EventApplied {
    const model = this.requireModel(address);
    const { now, minute } = this.eventMinute(atMs);
    if (amount < 0) {
      const equity = model.snapshotAt(minute * MINUTE_MS, now)[S.equity] ?? 0;
      if (-amount > equity) {
        throw new SimulatorError(400, `cannot withdraw ${-amount}: equity at ${minute * MINUTE_MS} is ${money(equity)}`);
      }
    }
    return this.addEvent(model, { kind: 'flow', minute, amount }, now);
  }

  /** A trading loss of `pct` % of equity, at once or spread over `overMs`. */
  drawdown(address: string, pct: number, overMs?: number, atMs?: number): EventApplied {
    const model = this.requireModel(address);
    const { now, minute } = this.eventMinute(atMs);
    const event: ModelEvent =
      overMs === undefined
        ? { kind: 'shock', minute, pct }
        : { kind: 'drift', startMinute: minute - 1, endMinute: minute - 1 + Math.ceil(overMs / MINUTE_MS), totalPct: -pct };
    return this.addEvent(model, event, now);
  }

  /**
   * A bad print: the curve point of the next whole minute after `atMs` (default now) is served
   * off by `pct` % of its equity (up if positive), in equity and PnL, at every interval whose
   * point falls on it; the minute after is served as if nothing happened.
   */
  print(address: string, pct: number, atMs?: number): EventApplied {
    const model = this.requireModel(address);
    const { now, minute } = this.eventMinute(atMs);
    const effectiveMs = minute * MINUTE_MS;
    model.addPrint(effectiveMs, pct, now);
    const snapshot = model.snapshotAt(effectiveMs, now);
    const printed = ((snapshot[S.equity] ?? 0) * pct) / 100;
    return {
      address: model.address,
      effectiveMs,
      equity: money((snapshot[S.equity] ?? 0) + printed),
      pnl: money((snapshot[S.pnl] ?? 0) + printed),
      netFlows: money(snapshot[S.netFlows]),
    };
  }

  /** Sets an address's nonce lanes (e.g. to test stale nonces); returns them. */
  setNonce(address: string, nonce: number, deferredNonce?: number): { nonce: number; deferredNonce: number } {
    const account = this.address(address);
    this.ledger.setNonce(account, nonce, deferredNonce);
    return this.ledger.nonces(account);
  }

  state(): SimState {
    return {
      seed: this.seed,
      nowMs: this.clock.now(),
      speed: this.clock.speed,
      rejectionStatus: this.rejectionStatus,
      winRateFormat: this.winRateFormat,
      unknownAccounts: this.unknownAccounts,
      accounts: [...this.created],
      faults: this.faults.profile,
    };
  }

  /** The model of an account, generating one for an unknown address in `generate` mode. */
  model(address: string): ModelAccount | undefined {
    const existing = this.models.get(address);
    if (existing !== undefined || this.unknownAccounts === 'empty') return existing;
    return this.newModel(address, this.firstGeneratedDay, undefined, {});
  }

  private mint(to: string, amount: number): void {
    let model = this.model(to);
    if (model === undefined) {
      model = this.newModel(to, Math.floor(this.clock.now() / DAY_MS), 0, {});
      this.created.push(to);
    }
    this.flow(to, amount);
  }

  private addEvent(model: ModelAccount, event: ModelEvent, now: number): EventApplied {
    model.addEvent(event, now);
    const effectiveMs = (event.kind === 'drift' ? event.startMinute + 1 : event.minute) * MINUTE_MS;
    const snapshot = model.snapshotAt(effectiveMs, now);
    return {
      address: model.address,
      effectiveMs,
      equity: money(snapshot[S.equity]),
      pnl: money(snapshot[S.pnl]),
      netFlows: money(snapshot[S.netFlows]),
    };
  }

  /** Events happen at `atMs` (default now) and show from the next whole minute. */
  private eventMinute(atMs: number | undefined): { now: number; minute: number } {
    const now = this.clock.now();
    const at = atMs ?? now;
    if (at < now) throw new SimulatorError(400, `atMs ${at} is in the past (now is ${now})`);
    return { now, minute: Math.floor(at / MINUTE_MS) + 1 };
  }

  private newModel(address: string, firstDay: number, capital: number | undefined, profile: AccountProfile = {}): ModelAccount {
    const hash = mixSeeds(this.seed, hashString(address.toLowerCase()));
    const model = new ModelAccount(address, drawParams(createRng(hash), hash, capital, profile), firstDay, this.caches);
    this.models.set(address, model);
    return model;
  }

  private requireModel(address: string): ModelAccount {
    const model = this.model(this.address(address));
    if (model === undefined) throw new SimulatorError(404, `unknown account ${address}; create it first`);
    return model;
  }

  private address(text: string): string {
    const address = parseAddress(text);
    if (address === undefined) throw new SimulatorError(400, `not a 0x-prefixed 20-byte hex address: "${text.slice(0, 64)}"`);
    return address;
  }
}

function money(value: number | undefined): number {
  return cents(value ?? 0) / 100;
}
