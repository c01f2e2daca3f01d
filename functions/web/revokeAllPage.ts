import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { batchPending, MAX_REVOKE_ALL_BATCH, MAX_REVOKE_ALL_KEYS, type RevokeAllUnit } from '../domain/revokeAllUnit';
import { batchLinkClosed, revokeAllNextStep, type RevokeAllNextStep } from '../domain/revokeAllNextStep';
import type { LinkReader } from '../links/linkReader';
import { revokeAllJobSchema, type RevokeAllJob } from '../messages/revokeAllJob';
import type { MessageQueue } from '../queue/messageQueue';
import { sendAll } from '../queue/sendAll';
import type { Log } from '../shared/observability';
import type { AccountsRepository } from '../store/accountsRepository';
import type { DelegateViewRepository } from '../store/delegateViewRepository';
import type { RevokeAllRepository } from '../store/revokeAllRepository';
import type { CsrfTokens } from './csrfToken';
import { checkSameOrigin, originHeadersOf } from './sameOrigin';
import type { WebRequest } from './webRequest';
import type { ChannelsRepository } from '../store/channelsRepository';
import { withdrawnChannelLink, type WithdrawnLinkView } from './withdrawnChannelLink';

/** The ports of the revoke-all page. It signs nothing: each delegate is queued for the signing side. */
export interface RevokeAllPageDeps {
  /** Reads revoke-all links with public keys only: the page cannot make one. */
  readonly links: Pick<LinkReader, 'read' | 'urlFor'>;
  readonly csrf: CsrfTokens;
  readonly publicBaseUrl: string;
  readonly accounts: Pick<AccountsRepository, 'get'>;
  readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  readonly batches: Pick<RevokeAllRepository, 'get' | 'submit'>;
  /** The channel a chat's link was posted to: its link epoch withdraws the link. */
  readonly channels: Pick<ChannelsRepository, 'get'>;
  /** The revoke-all queue (SQS FIFO grouped by account in AWS, in-process locally). */
  readonly queue: MessageQueue<RevokeAllJob>;
  readonly now: () => number;
  readonly log: Log;
  /** Keys one form carries and one link revokes over its pages; default `MAX_REVOKE_ALL_KEYS` and `MAX_REVOKE_ALL_BATCH` (tests make them small). */
  readonly limits?: RevokeAllLimits;
}

/** How many keys a revoke-all form carries, and a link revokes over all its pages. */
export interface RevokeAllLimits {
  readonly keysPerPage: number;
  readonly keysPerLink: number;
}

const DEFAULT_LIMITS: RevokeAllLimits = { keysPerPage: MAX_REVOKE_ALL_KEYS, keysPerLink: MAX_REVOKE_ALL_BATCH };

/** A delegate as the page lists it. */
export interface RevokeAllKey {
  readonly address: string;
  readonly name: string | null;
  readonly expiryMs: number | null;
  readonly isWebClient: boolean;
}

/** The account a revoke-all link is for. */
export interface RevokeAllAccount {
  readonly address: string;
  readonly label: string | null;
  readonly timezone: string;
}

/**
 * The keys an account still lists beyond a revoke-all link's batch (more than a page held, or
 * added since): how many, and the form revoking the next page of them with the same link, offered
 * once the batch has settled while the link works and its batch has room (`MAX_REVOKE_ALL_BATCH`).
 */
export interface RevokeAllRest {
  readonly count: number;
  /** The keys the form removes (the next `MAX_REVOKE_ALL_KEYS` by address); empty without a form. */
  readonly next: readonly RevokeAllKey[];
  readonly form: { token: string; keys: string; csrf: string } | null;
  /** The batch holds `perLink` keys, the most one link revokes: the rest needs a new link. */
  readonly full: boolean;
  readonly perLink: number;
}

/** A delegate's line on the result page. */
export interface RevokeAllRow {
  readonly key: RevokeAllKey;
  readonly unit: RevokeAllUnit | undefined;
  /** What the key calls for now (`revokeAllNextStep`; `null`: removed or still queued): the retry form and the advice both read it. */
  readonly next: RevokeAllNextStep | null;
}

/** Every page of `/revoke-all` (rendered by `revokeAllViews.ts`). */
export type RevokeAllPageView =
  | {
      kind: 'confirm';
      account: RevokeAllAccount;
      /** The keys this page removes: the first `MAX_REVOKE_ALL_KEYS` by address. */
      keys: readonly RevokeAllKey[];
      /** The account's other listed keys, offered a page at a time once these are done. */
      more: number;
      token: string;
      csrf: string;
      linkExpiresAt: number;
      now: number;
    }
  | {
      kind: 'result';
      account: RevokeAllAccount;
      rows: readonly RevokeAllRow[];
      /** Some delegates are still queued or running: the page reloads itself. */
      pending: boolean;
      /** The link's own URL (the page reloads it). */
      selfUrl: string;
      /** A form re-submitting the delegates that sent nothing and may be tried again; `null` when none, or when the link was withdrawn. */
      retry: { token: string; keys: string; csrf: string } | null;
      /** The link's channel withdrew it after it was used: the batch is shown as it stands and nothing is submitted again. */
      withdrawn: WithdrawnLinkView | null;
      /** The account is no longer tracked: the batch is shown as it stands and nothing is submitted again. */
      untracked: boolean;
      /** The account's keys still listed that this link's batch has not included (none for an account no longer tracked). */
      rest: RevokeAllRest;
    }
  | { kind: 'nothing-to-revoke'; account: RevokeAllAccount }
  | { kind: 'not-configured'; account: RevokeAllAccount }
  | { kind: 'not-tracked' }
  | { kind: 'link-expired'; expiredAt: number }
  /** A chat's link whose channel withdrew it (`channels revoke-links`, `channels remove`) before it was used. */
  | WithdrawnLinkView
  | { kind: 'link-invalid'; reason: string }
  | { kind: 'forbidden'; reason: string }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'method-not-allowed' };

const keysFieldSchema = z
  .string()
  .transform((text) => text.split(','))
  .pipe(z.array(addressSchema).min(1).max(MAX_REVOKE_ALL_KEYS))
  .refine((keys) => new Set(keys).size === keys.length, 'a delegate appears twice');

/**
 * The `/revoke-all` endpoint. `GET ?token=` lists every delegate the link would remove, with a
 * form bound (anti-CSRF value) to exactly those keys, and changes nothing; once something was
 * submitted it shows each delegate's result instead, reloading while work is pending, with a form
 * re-submitting only the delegates that sent nothing. `POST` (same origin and CSRF rules as
 * `/revoke`) marks each bound delegate queued, unless it is already queued, sent, gone or unknown,
 * queues one job per newly marked delegate, in the order shown, and answers at once. A chat's link
 * its channel withdrew answers `link-withdrawn` on GET and POST when it was never used; once used,
 * both show its batch's results as they stand (no retry form) and queue nothing.
 */
export async function revokeAllPage(deps: RevokeAllPageDeps, request: WebRequest): Promise<RevokeAllPageView> {
  if (request.method === 'GET' || request.method === 'HEAD') return show(deps, request.query.get('token') ?? undefined);
  if (request.method === 'POST') return submit(deps, request);
  return { kind: 'method-not-allowed' };
}

async function show(deps: RevokeAllPageDeps, token: string | undefined): Promise<RevokeAllPageView> {
  const link = deps.links.read('revoke-all', token, deps.now());
  if (link.kind === 'expired') return { kind: 'link-expired', expiredAt: link.expiredAt };
  if (link.kind === 'invalid') return { kind: 'link-invalid', reason: link.reason };
  const claims = link.claims;
  const withdrawn = await withdrawnChannelLink(deps.channels, claims);
  const batch = await deps.batches.get(claims.tokenId);
  // Withdrawn before it was used, the link does nothing; used, it still says what became of each key.
  if (withdrawn && batch === null) return withdrawn;
  const found = await accountOf(deps, claims.account);
  if (!found) return batch ? untrackedResult(deps, token ?? '', claims, batch.units, withdrawn) : { kind: 'not-tracked' };
  if (!found.hasSigner) return { kind: 'not-configured', account: found.account };
  if (batch) return resultView(deps, token ?? '', claims.tokenId, found.account, await delegateKeys(deps, found.account.address), batch.units, withdrawn);
  const listed = (await delegateKeys(deps, found.account.address)).listed;
  if (listed.length === 0) return { kind: 'nothing-to-revoke', account: found.account };
  const keys = listed.slice(0, (deps.limits ?? DEFAULT_LIMITS).keysPerPage);
  return {
    kind: 'confirm',
    account: found.account,
    keys,
    more: listed.length - keys.length,
    token: token ?? '',
    csrf: csrfFor(
      deps,
      claims.tokenId,
      keys.map((k) => k.address),
    ),
    linkExpiresAt: claims.expiresAt,
    now: deps.now(),
  };
}

async function submit(deps: RevokeAllPageDeps, request: WebRequest): Promise<RevokeAllPageView> {
  const origin = checkSameOrigin(originHeadersOf(request), deps.publicBaseUrl);
  if (origin.kind === 'cross-origin') return { kind: 'forbidden', reason: origin.reason };
  if (request.form.kind !== 'form') return { kind: 'bad-request', reason: request.form.kind === 'unsupported' ? request.form.reason : 'the form is empty' };
  const fields = request.form.fields;
  const token = fields.get('token') ?? '';
  const link = deps.links.read('revoke-all', token, deps.now());
  if (link.kind === 'expired') return { kind: 'link-expired', expiredAt: link.expiredAt };
  if (link.kind === 'invalid') return { kind: 'link-invalid', reason: link.reason };
  const claims = link.claims;
  const keysText = fields.get('keys') ?? '';
  if (!deps.csrf.verify('revoke-all', bindingOf(claims.tokenId, keysText), fields.get('csrf'))) {
    return { kind: 'forbidden', reason: 'the confirmation form is missing or altered' };
  }
  const keys = keysFieldSchema.safeParse(keysText);
  if (!keys.success) return { kind: 'bad-request', reason: 'the form lists no valid delegates' };
  const withdrawn = await withdrawnChannelLink(deps.channels, claims);
  const used = withdrawn ? await deps.batches.get(claims.tokenId) : null;
  if (withdrawn && used === null) return withdrawn;
  const found = await accountOf(deps, claims.account);
  if (!found) {
    const batch = used ?? (await deps.batches.get(claims.tokenId));
    return batch ? untrackedResult(deps, token, claims, batch.units, withdrawn) : { kind: 'not-tracked' };
  }
  if (!found.hasSigner) return { kind: 'not-configured', account: found.account };
  // A withdrawn link's batch is shown as it stands: nothing is marked or queued again.
  if (withdrawn && used) return resultView(deps, token, claims.tokenId, found.account, await delegateKeys(deps, found.account.address), used.units, withdrawn);
  // A link revokes at most keysPerLink keys over all its pages.
  const { keysPerLink } = deps.limits ?? DEFAULT_LIMITS;
  const before = used ?? (await deps.batches.get(claims.tokenId));
  const holds = new Set(Object.keys(before?.units ?? {}));
  const adding = keys.data.filter((k) => !holds.has(k)).length;
  if (holds.size + adding > keysPerLink) {
    return { kind: 'bad-request', reason: `this link has revoked the most keys one link does (${keysPerLink}): use a new link for the others` };
  }

  const jobs: { id: string; body: RevokeAllJob; groupId: string; deduplicationId: string }[] = [];
  for (const delegate of keys.data) {
    const submitted = await deps.batches.submit(claims.tokenId, { account: found.account.address, expiresAt: claims.expiresAt }, delegate);
    if (submitted.kind !== 'queued') continue;
    jobs.push({
      id: `${jobs.length}`,
      groupId: found.account.address,
      deduplicationId: `${claims.tokenId}:${delegate}:${submitted.attempt}`,
      body: revokeAllJobSchema.parse({
        kind: 'revoke-all-unit',
        account: found.account.address,
        delegate,
        tokenId: claims.tokenId,
        attempt: submitted.attempt,
        expiresAt: claims.expiresAt,
        token,
      }),
    });
  }
  // A unit marked queued whose job was not sent stays "queued" on the page; sendAll throws, the page shows the generic failure.
  if (jobs.length > 0) await sendAll(deps.queue, jobs);
  deps.log.info('revoke-all submitted', { account: found.account.address, bound: keys.data.length, queued: jobs.length });
  const batch = await deps.batches.get(claims.tokenId);
  return resultView(deps, token, claims.tokenId, found.account, await delegateKeys(deps, found.account.address), batch?.units ?? {}, null);
}

function resultView(
  deps: RevokeAllPageDeps,
  token: string,
  tokenId: string,
  account: RevokeAllAccount,
  delegates: DelegateKeys,
  units: Readonly<Record<string, RevokeAllUnit>>,
  withdrawn: WithdrawnLinkView | null,
  untracked = false,
): RevokeAllPageView {
  const byAddress = new Map(delegates.known.map((k) => [k.address, k]));
  // Whether this link can still submit: not withdrawn, the account still tracked, no unit refused for the link itself.
  const linkWorks = withdrawn === null && !untracked && !batchLinkClosed(units);
  const rows = Object.keys(units)
    .sort()
    .map((address) => ({
      key: byAddress.get(address) ?? { address, name: null, expiryMs: null, isWebClient: false },
      unit: units[address],
      next: revokeAllNextStep(units[address], linkWorks),
    }));
  const retryable = rows.filter((r) => r.next === 'retry-on-page').map((r) => r.key.address);
  const pending = batchPending(units);
  const others = untracked ? [] : delegates.listed.filter((k) => units[k.address] === undefined);
  const { keysPerPage, keysPerLink } = deps.limits ?? DEFAULT_LIMITS;
  const room = Math.max(0, keysPerLink - Object.keys(units).length);
  // The next page of keys once this one has settled, while the link works and its batch has room.
  const next = linkWorks && !pending ? others.slice(0, Math.min(keysPerPage, room)) : [];
  const rest: RevokeAllRest = {
    count: others.length,
    next,
    form: keysForm(
      deps,
      token,
      tokenId,
      next.map((k) => k.address),
    ),
    full: others.length > 0 && room === 0,
    perLink: keysPerLink,
  };
  return {
    kind: 'result',
    account,
    rows,
    pending,
    selfUrl: deps.links.urlFor('revoke-all', token),
    retry: keysForm(deps, token, tokenId, retryable),
    withdrawn,
    untracked,
    rest,
  };
}

/**
 * A used link of an account no longer tracked: what became of each key, as it stands (not "nothing was
 * changed"), in UTC and without the account's label, which went with it; nothing is submitted again.
 */
async function untrackedResult(
  deps: RevokeAllPageDeps,
  token: string,
  claims: { readonly tokenId: string; readonly account: string },
  units: Readonly<Record<string, RevokeAllUnit>>,
  withdrawn: WithdrawnLinkView | null,
): Promise<RevokeAllPageView> {
  const account = { address: claims.account, label: null, timezone: 'UTC' };
  return resultView(deps, token, claims.tokenId, account, await delegateKeys(deps, claims.account), units, withdrawn, true);
}

/** What the anti-CSRF value binds: the link and the exact keys of the form, in order. */
function bindingOf(tokenId: string, keys: string): string {
  return `${tokenId}\n${keys}`;
}

/** A form submitting `keys` on the link (its anti-CSRF value bound to exactly them); `null` for none. */
function keysForm(deps: RevokeAllPageDeps, token: string, tokenId: string, keys: readonly string[]): { token: string; keys: string; csrf: string } | null {
  return keys.length === 0 ? null : { token, keys: keys.join(','), csrf: csrfFor(deps, tokenId, keys) };
}

function csrfFor(deps: RevokeAllPageDeps, tokenId: string, keys: readonly string[]): string {
  return deps.csrf.issue('revoke-all', bindingOf(tokenId, keys.join(',')));
}

async function accountOf(deps: RevokeAllPageDeps, address: string): Promise<{ account: RevokeAllAccount; hasSigner: boolean } | null> {
  const account = await deps.accounts.get(address);
  if (!account) return null;
  return { account: { address: account.address, label: account.label, timezone: account.timezone }, hasSigner: account.signer !== null };
}

/** An account's delegates as collection last saw them, each list in address order. */
interface DelegateKeys {
  /** Every delegate seen, removed ones included (names for the result page). */
  readonly known: readonly RevokeAllKey[];
  /** The delegates still listed. */
  readonly listed: readonly RevokeAllKey[];
}

async function delegateKeys(deps: RevokeAllPageDeps, account: string): Promise<DelegateKeys> {
  const seen = [...(await deps.delegates.listForAccount(account))].sort((a, b) => (a.delegate < b.delegate ? -1 : a.delegate > b.delegate ? 1 : 0));
  return { known: seen.map(keyOf), listed: seen.filter((d) => d.removedAt === null).map(keyOf) };
}

function keyOf(d: { delegate: string; name: string | null; expiryMs: number | null; isWebClient: boolean }): RevokeAllKey {
  return { address: d.delegate, name: d.name, expiryMs: d.expiryMs, isWebClient: d.isWebClient };
}
