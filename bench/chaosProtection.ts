/**
 * The protection scenario of the chaos run (`npm run bench:chaos`, `PROTECTION_SCENARIO`): a dozen
 * armed accounts cross their kill-switch levels together, and what became of each decision:
 * revoked, refused or failed, told once, nothing revoked twice.
 */
import { accountSettingsSchema } from '../functions/domain/account';
import { decisionSettlement } from '../functions/domain/decisionSettlement';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import type { Repositories } from '../functions/store/repositories';
import { readKillSwitchState } from '../functions/store/killSwitchStateItem';
import type { SimControlClient } from '../local/sim';
import { PROTECTION_SCENARIO, type AcceptedEmail } from './chaosFaults';

/** One armed account of the scenario: its address, recipient and keys. */
export interface ArmedAccount {
  readonly address: string;
  readonly email: string;
  readonly keys: readonly string[];
}

/**
 * Creates the scenario's accounts on the simulator (keys from the seed and their labels, so both
 * days have the same), two API keys each, their loss scheduled at `start + dropAtMs`; tracks them
 * armed (`--kill-switch 30 --kill-switch-confirm now`, owner key `env:CHAOS_OWNER_<i>` in `signerEnv`).
 */
export async function armScenario(control: SimControlClient, repos: Repositories, signerEnv: Record<string, string>, start: number): Promise<ArmedAccount[]> {
  const armed: ArmedAccount[] = [];
  for (let i = 0; i < PROTECTION_SCENARIO.accounts; i++) {
    const created = await control.createAccount({ label: `chaos-armed-${i}`, historyDays: 30 });
    const keys: string[] = [];
    for (let k = 0; k < PROTECTION_SCENARIO.keysPerAccount; k++)
      keys.push((await control.addDelegate(created.address, { name: `bot-${k}`, expiresInMs: 30 * 86_400_000 })).delegate.address);
    await control.drawdown(created.address, { pct: PROTECTION_SCENARIO.dropPct, atMs: start + PROTECTION_SCENARIO.dropAtMs });
    signerEnv[`CHAOS_OWNER_${i}`] = created.privateKey;
    const email = `armed${i}@example.com`;
    const settings = accountSettingsSchema.parse({
      address: created.address,
      email,
      interval: PROTECTION_SCENARIO.interval,
      delegateWatch: '1h',
      reportAt: '23:30',
      timezone: 'UTC',
      signer: `env:CHAOS_OWNER_${i}`,
      killSwitch: PROTECTION_SCENARIO.levelPct,
      killSwitchConfirm: 'now',
    });
    await repos.accounts.create(newTrackedAccount(settings, start));
    armed.push({ address: created.address, email, keys });
  }
  return armed;
}

/** What became of the scenario's decisions at the end of a day. */
export interface ProtectionFigures {
  readonly accounts: number;
  /** Kill switches that fired (a decision queued). */
  readonly decisions: number;
  /** Decisions with every key revoked, refused by the breaker, refused otherwise, failed (a key failed: aged, the chain refused), not settled. */
  readonly revoked: number;
  readonly refusedByBreaker: number;
  readonly refused: number;
  readonly failed: number;
  readonly unsettled: number;
  /** Keys revoked on the chain, and keys for which more than one transaction was signed. */
  readonly keysRevoked: number;
  readonly keysSignedTwice: number;
  /** Result notices SES accepted, per (decision, recipient): decisions told, and told more than once. */
  readonly told: number;
  readonly toldTwice: number;
  /** From the loss showing on the chain to the first and last kill switch firing, and to the last decision's result, ms (`null`: none). */
  readonly firstFiredAfterMs: number | null;
  readonly lastFiredAfterMs: number | null;
  readonly lastResultAfterMs: number | null;
}

/** Reads the scenario's decisions, their settlements, the chain's keys and the audit trail, and the result emails accepted. */
export async function protectionFigures(
  repos: Repositories,
  control: SimControlClient,
  armed: readonly ArmedAccount[],
  accepted: readonly AcceptedEmail[],
  start: number,
): Promise<ProtectionFigures> {
  let decisions = 0;
  let revoked = 0;
  let refusedByBreaker = 0;
  let refused = 0;
  let failed = 0;
  let unsettled = 0;
  let keysRevoked = 0;
  let keysSignedTwice = 0;
  let told = 0;
  let toldTwice = 0;
  let lastSettled: number | null = null;
  const fired: number[] = [];
  for (const account of armed) {
    const { state } = await readKillSwitchState(repos.alerts, account.address);
    const listed = new Set((await control.account(account.address)).delegates.map((d) => d.address.toLowerCase()));
    keysRevoked += account.keys.filter((k) => !listed.has(k.toLowerCase())).length;
    const intents = (await repos.audit.listForAccount(account.address, 100)).filter((r) => r.kind === 'intent');
    for (const key of account.keys) if (intents.filter((r) => r.delegate?.toLowerCase() === key.toLowerCase()).length > 1) keysSignedTwice++;
    if (state?.status !== 'revoking') continue;
    decisions++;
    const decision = await repos.decisions.get(state.decisionId);
    if (decision) fired.push(decision.createdAt);
    const settlement = decision && decisionSettlement(decision, await repos.decisions.units(decision));
    if (!settlement) {
      unsettled++;
      continue;
    }
    if (settlement.count.failed > 0) failed++;
    else if (settlement.units.some((u) => u.refusal === 'breaker-open')) refusedByBreaker++;
    else if (settlement.count.refused > 0) refused++;
    else revoked++;
    lastSettled = Math.max(lastSettled ?? 0, settlement.settledAt);
    const sends = accepted.filter((a) => a.eventId === `decision-result#${state.decisionId}` && a.destinations.some((d) => d === account.email));
    if (sends.length > 0) told++;
    if (sends.length > 1) toldTwice++;
  }
  const shown = start + PROTECTION_SCENARIO.dropAtMs + 60_000;
  const after = (at: number | undefined) => (at === undefined ? null : at - shown);
  return {
    accounts: armed.length,
    decisions,
    revoked,
    refusedByBreaker,
    refused,
    failed,
    unsettled,
    keysRevoked,
    keysSignedTwice,
    told,
    toldTwice,
    firstFiredAfterMs: after(fired.length === 0 ? undefined : Math.min(...fired)),
    lastFiredAfterMs: after(fired.length === 0 ? undefined : Math.max(...fired)),
    lastResultAfterMs: after(lastSettled ?? undefined),
  };
}
