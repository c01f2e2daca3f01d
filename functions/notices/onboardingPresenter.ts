import { worstFirst, type OnboardingBreach } from '../domain/onboardingBreaches';
import type { EventPresenter } from './eventPresenter';
import type { NoticeEmail } from './noticeEmail';

/** The breaches of one onboarding batch one recipient or channel is told of, under the batch's id. */
export interface OnboardingEvent {
  /** `onboardingBatchId(trackedSince)`. */
  readonly id: string;
  readonly breaches: readonly OnboardingBreach[];
  /** When the batch was added (its accounts' tracking start). */
  readonly trackedSince: number;
}

/** What the onboarding email shows besides the breaches: who it is for, when, and their links. */
export interface OnboardingMail {
  readonly recipient: string;
  readonly now: number;
  readonly unsubscribeUrl: string;
  readonly preferencesUrl: string;
}

function percent(value: number): string {
  return `${value.toFixed(2)}%`;
}

/** How an account is named in the notice: its label and address, or its address. */
function accountName(breach: Pick<OnboardingBreach, 'address' | 'label'>): string {
  return breach.label ? `${breach.label} (${breach.address})` : breach.address;
}

/**
 * The one notice about the accounts of a batch already past a drawdown level when tracking began:
 * one field per account (worst first), its drawdown and the deepest level it was past; its email
 * (`onboarding-breaches`) lists the same rows. No incident: these breaches
 * predate tracking, and the levels beyond them page as any breach does.
 */
export const onboardingPresenter: EventPresenter<OnboardingEvent, NoticeEmail<'onboarding-breaches'>, OnboardingMail> = {
  head: { type: 'drawdown.onboarding', category: 'drawdown', email: 'onboarding-breaches', record: 'onboarding-breaches' },
  present({ id, breaches, trackedSince }) {
    const sorted = worstFirst(breaches);
    const first = sorted[0];
    if (!first) throw new RangeError('an onboarding notice needs at least one account');
    const n = sorted.length;
    return {
      id,
      type: 'drawdown.onboarding',
      category: 'drawdown',
      severity: 'warning',
      title: `${n} account${n === 1 ? ' was' : 's were'} already past a drawdown level when tracking began`,
      summary:
        'These levels were breached before the accounts were tracked, so no alert fired for them and none repeats daily: ' +
        'they show as open alerts in the reports. A deeper level alerts as usual, and a level alerts again once it has recovered.',
      fields: sorted.map((b) => ({ label: accountName(b), value: `${percent(b.drawdownPct)} drawdown, past the ${b.level}% level` })),
      links: [],
      account: n === 1 ? { address: first.address, label: first.label } : { address: first.address, label: `${n} accounts` },
      at: trackedSince,
      chart: null,
      incident: null,
      details: {
        trackedSince,
        accounts: sorted.map((b) => ({ address: b.address, label: b.label, drawdownPct: b.drawdownPct, level: b.level, levels: b.levels })),
      },
    };
  },
  email({ breaches, trackedSince }, mail) {
    return {
      kind: 'onboarding-breaches',
      view: {
        generatedAtMs: mail.now,
        links: { unsubscribeUrl: mail.unsubscribeUrl, preferencesUrl: mail.preferencesUrl, statusUrl: null },
        recipient: mail.recipient,
        trackedSinceMs: trackedSince,
        rows: worstFirst(breaches).map((b) => ({
          account: { address: b.address, label: b.label },
          drawdownPct: Math.min(100, b.drawdownPct),
          levelPct: b.level,
          levelsPct: [...b.levels],
        })),
      },
    };
  },
};
