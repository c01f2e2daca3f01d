import type { SimControlClient } from './controlClient';
import { deriveKey } from './keys';
import { SimulatorError } from './simulatorError';

/** A delegate of a demo account. */
export interface DemoDelegate {
  address: string;
  /** Its key, for signing as the delegate (local demo only). */
  privateKey: string | null;
  name: string | null;
  expiryMs: number | null;
  isWebClient: boolean;
}

/** A demo account, its owner key and its delegates. */
export interface DemoAccount {
  /** `steady`: delegates, one expiring soon; `drawdown`: heading into a loss; `withdrawal`: about to withdraw most of its equity. */
  role: 'steady' | 'drawdown' | 'withdrawal';
  label: string;
  address: string;
  privateKey: string;
  delegates: DemoDelegate[];
}

/** Timing and size of the demo's scripted events (simulated time). */
export interface DemoOptions {
  /** Loss of the drawdown account, percent. Default 25. */
  drawdownPct?: number;
  /** How long the drawdown takes from now. Default 4 minutes. */
  drawdownOverMs?: number;
  /** Share of equity the withdrawal account takes out. Default 0.6. */
  withdrawalFraction?: number;
  /** When the withdrawal happens, from now. Default 90 seconds. */
  withdrawalInMs?: number;
}

const DAY_MS = 86_400_000;

/** The demo accounts' labels, from which (with the seed) their keys are derived. */
const DEMO_LABELS: Readonly<Record<DemoAccount['role'], string>> = { steady: 'demo-steady', drawdown: 'demo-drawdown', withdrawal: 'demo-withdrawal' };

/**
 * The demo accounts of a simulator that already has them (one restored from a saved state), as
 * they are now: owner keys derived from the seed and label, delegates as the node lists them
 * (keys of those the simulator derived by name; null for others). Null when it has none of
 * them; some but not all of them is an error.
 */
export async function findDemo(control: SimControlClient): Promise<DemoAccount[] | null> {
  const { seed, accounts } = await control.state();
  const roles = Object.entries(DEMO_LABELS) as [DemoAccount['role'], string][];
  const found = roles.map(([role, label]) => ({ role, label, ...deriveKey(seed, `account:${label}`) })).filter((a) => accounts.includes(a.address));
  if (found.length === 0) return null;
  if (found.length < roles.length) throw new SimulatorError(409, `the simulator holds only ${found.map((a) => a.label).join(', ')} of the demo accounts`);
  return Promise.all(
    found.map(async (a) => ({
      ...a,
      delegates: (await control.account(a.address)).delegates.map((d) => {
        const derived = d.name === null ? null : deriveKey(seed, `delegate:${a.address}:${d.name}`);
        return { ...d, privateKey: derived?.address === d.address ? derived.privateKey : null };
      }),
    })),
  );
}

/**
 * Creates the demo accounts through the control API: one with a bot delegate that expires in
 * three days and a web-client delegate, one heading into a drawdown over the next minutes, one
 * that makes a large withdrawal shortly (which must not look like a loss). Keys and histories
 * are deterministic for the simulator's seed and clock; on a simulator that already has them it
 * fails with a 409 `SimControlError`.
 */
export async function setUpDemo(control: SimControlClient, options: DemoOptions = {}): Promise<DemoAccount[]> {
  const steady = await control.createAccount({
    label: DEMO_LABELS.steady,
    capital: 25_000,
    historyDays: 30,
    profile: { annualDrift: 0.35, annualVolatility: 0.4 },
  });
  const steadyDelegates = [
    await delegate(control, steady.address, { name: 'trading-bot', expiresInMs: 3 * DAY_MS }),
    await delegate(control, steady.address, { name: 'web-session', expiresInMs: 30 * DAY_MS, isWebClient: true }),
  ];

  const falling = await control.createAccount({
    label: DEMO_LABELS.drawdown,
    capital: 50_000,
    historyDays: 30,
    profile: { annualDrift: 0.2, annualVolatility: 0.5 },
  });
  const fallingDelegates = [await delegate(control, falling.address, { name: 'market-maker', expiresInMs: 60 * DAY_MS })];
  await control.drawdown(falling.address, { pct: options.drawdownPct ?? 25, overMs: options.drawdownOverMs ?? 4 * 60_000 });

  const withdrawing = await control.createAccount({
    label: DEMO_LABELS.withdrawal,
    capital: 120_000,
    historyDays: 30,
    profile: { annualDrift: 0.1, annualVolatility: 0.3 },
  });
  const withdrawingDelegates = [await delegate(control, withdrawing.address, { name: 'hedger', expiryMs: null })];
  const { equity } = await control.account(withdrawing.address);
  const amount = Math.floor(equity * (options.withdrawalFraction ?? 0.6) * 100) / 100;
  // From the clock as it is now: under --fast a slow set-up (a loaded machine) would otherwise schedule it in the past.
  const { nowMs: scheduledFrom } = await control.clock();
  await control.withdraw(withdrawing.address, { amount, atMs: scheduledFrom + (options.withdrawalInMs ?? 90_000) });

  return [
    { role: 'steady', ...owner(steady), delegates: steadyDelegates },
    { role: 'drawdown', ...owner(falling), delegates: fallingDelegates },
    { role: 'withdrawal', ...owner(withdrawing), delegates: withdrawingDelegates },
  ];
}

async function delegate(control: SimControlClient, owner: string, request: Parameters<SimControlClient['addDelegate']>[1]): Promise<DemoDelegate> {
  const added = await control.addDelegate(owner, request);
  return { ...added.delegate, privateKey: added.privateKey };
}

function owner(account: { label: string; address: string; privateKey: string }): Pick<DemoAccount, 'label' | 'address' | 'privateKey'> {
  return { label: account.label, address: account.address, privateKey: account.privateKey };
}
