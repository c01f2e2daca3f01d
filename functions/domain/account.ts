import * as z from 'zod';
import { addressSchema, type Address } from './address';
import { INTERVALS, type Interval } from './interval';
import { DEFAULT_WARN_DAYS } from './delegateAlerts';
import { CLOCK_TIME } from './reportPlan';
import { signerRefSchema } from './signerRef';
import { timeZoneNameSchema } from './timeZoneName';
import type { PollFailure } from './pollFailure';
import { revokeUnknownModeSchema, type RevokeUnknownMode } from './revokeUnknownMode';

/** An account's settings, as validated from user input. */
export interface AccountSettings {
  /** EIP-55 checksummed. */
  address: Address;
  /** One or more recipients, deduplicated (case-insensitively), domains lowercased. */
  emails: string[];
  label: string | null;
  interval: Interval;
  /** Drawdown alert levels in percent, ascending; `[]` turns drawdown alerts off. */
  drawdownThresholds: number[];
  /** Local time of the daily report, `HH:MM`. */
  reportAt: string;
  /** IANA zone name, as the user gave it (case fixed; legacy aliases mapped, abbreviations refused). */
  timezone: string;
  /** Days before a delegate's expiry to warn at, descending; `[]` turns the warnings off. */
  expiryWarnDays: number[];
  /** `kms:...` or `env:...`; `null` means no one-click revocation. */
  signer: string | null;
  /** How often delegates are checked, apart from the curve polls; `null` (`none`): with each curve poll. */
  delegateWatch: Interval | null;
  /** Kill switch: the flow-adjusted drawdown (percent) at which every delegate is revoked automatically; `null`: off. */
  killSwitch: number | null;
  /** `wait`: the level must still hold at the next evaluation, at least one interval later; `now`: act on the first. */
  killSwitchConfirm: KillSwitchConfirm;
  /** Delegates the kill switch never revokes (checksummed). */
  keepDelegates: Address[];
  /** Whether the kill switch keeps (`keep`) or revokes web-session keys (`isWebClient`). */
  killSwitchWebSessions: KillSwitchWebSessions;
  /** Dry run: the notice of what it would revoke, and nothing revoked. */
  killSwitchDryRun: boolean;
  /** What happens to a delegate nobody announced (see `revokeUnknownMode`); `off` by default. */
  revokeUnknown: RevokeUnknownMode;
}

/** How a kill-switch crossing is confirmed. */
export type KillSwitchConfirm = 'wait' | 'now';
/** What the kill switch does with web-session keys. */
export type KillSwitchWebSessions = 'keep' | 'revoke';

/** Health of an account's data collection. */
export type AccountStatus = 'ok' | 'stale' | 'failing';

/**
 * A tracked account: its settings plus the bookkeeping of scheduling and collection health.
 * The collection cursor and the last successful poll time are not kept here: they are those of
 * the account's latest snapshot (`cursorMs`, `polledAt`/`fetchedAt`), the poll's commit record.
 */
export type TrackedAccount = AccountSettings & {
  createdAt: number;
  status: AccountStatus;
  statusReason: string | null;
  /**
   * When a one-off poll is pending (the first poll, or a full re-fetch after an interval change);
   * `null` while the account simply follows its regular slots (see `domain/schedule`).
   */
  nextDueAt: number | null;
  nextReportAt: number;
  consecutiveErrors: number;
  consecutiveEmptyPolls: number;
  /** Whether any poll ran yet (succeeded or failed); `false` until the first one: the account is `new`. */
  polled: boolean;
  /** The latest failed poll (kept after recovery); the last poll failed while `consecutiveErrors > 0`. */
  lastFailure: PollFailure | null;
};

export const DEFAULT_SETTINGS = {
  interval: '1h',
  drawdownThresholds: [5, 10, 20],
  reportAt: '08:00',
  timezone: 'UTC',
  expiryWarnDays: [...DEFAULT_WARN_DAYS],
  delegateWatch: '5m',
  killSwitchConfirm: 'wait',
  killSwitchWebSessions: 'keep',
  revokeUnknown: 'off',
} as const satisfies Partial<AccountSettings>;

/** The kill-switch settings of an account that has none (the defaults). */
export const KILL_SWITCH_OFF = {
  killSwitch: null,
  killSwitchConfirm: 'wait',
  keepDelegates: [],
  killSwitchWebSessions: 'keep',
  killSwitchDryRun: false,
} as const satisfies Pick<AccountSettings, 'killSwitch' | 'killSwitchConfirm' | 'keepDelegates' | 'killSwitchWebSessions' | 'killSwitchDryRun'>;

const NONE = /^(none|off)$/i;
const MAX_EMAILS = 50;

/** Lists arrive as arrays or as text separated by `,` or `;` (CSV import); `none`/`off` is the empty list. */
function splitList(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (NONE.test(value.trim())) return [];
  return value
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function numberFrom(v: number | string): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const m = /^\s*([+-]?(\d+(\.\d*)?|\.\d+))\s*%?\s*$/.exec(v);
  return m ? Number(m[1]) : null;
}

/**
 * A number given as a number or as text (`12`, `12.5%`). `problem` words what is wrong with it,
 * if anything (`n` is `null` when it is not a number at all).
 */
function numberInput(problem: (n: number | null, v: number | string) => string | undefined, params?: { error: string }) {
  return z.union([z.number(), z.string()], params).transform((v, ctx) => {
    const n = numberFrom(v);
    const message = problem(n, v);
    if (message !== undefined) ctx.addIssue({ code: 'custom', message });
    return n ?? 0;
  });
}

/** A list of up to 10 numbers (`item`), each once, sorted by `order`. */
function numberList(item: ReturnType<typeof numberInput>, words: { error: string; tooMany: string }, order: (a: number, b: number) => number) {
  return z.preprocess(
    splitList,
    z
      .array(item, { error: words.error })
      .max(10, words.tooMany)
      .transform((list) => [...new Set(list)].sort(order)),
  );
}

const email = z
  .string()
  .trim()
  .pipe(z.email({ error: (iss) => `${JSON.stringify(iss.input)} is not a valid email address` }))
  .transform((s) => {
    const at = s.lastIndexOf('@');
    return `${s.slice(0, at)}@${s.slice(at + 1).toLowerCase()}`;
  });

const emails = z.preprocess(
  splitList,
  z
    .array(email, { error: 'give one or more email addresses' })
    .min(1, 'give at least one email address')
    .transform((list) => list.filter((e, i) => list.findIndex((x) => x.toLowerCase() === e.toLowerCase()) === i))
    .refine((list) => list.length <= MAX_EMAILS, `at most ${MAX_EMAILS} recipients`),
);

const threshold = numberInput((n, v) => {
  if (n === null) return `${JSON.stringify(v)} is not a number`;
  return n > 0 && n < 100 ? undefined : `${n} must be greater than 0 and less than 100 (percent)`;
});

const thresholds = numberList(threshold, { error: 'give percent levels such as 5,10,20 (or none)', tooMany: 'at most 10 levels' }, (a, b) => a - b);

const warnDay = numberInput((n, v) =>
  n === null || !Number.isInteger(n) || n < 1 || n > 365 ? `${JSON.stringify(v)} is not a whole number of days from 1 to 365` : undefined,
);

const warnDays = numberList(warnDay, { error: 'give days such as 14,7,3,1 (or none)', tooMany: 'at most 10 warning days' }, (a, b) => b - a);

const interval = z.enum(INTERVALS, { error: `must be one of ${INTERVALS.join(', ')}` });

const delegateWatch = z.preprocess(
  (v) => (typeof v === 'string' && NONE.test(v.trim()) ? null : typeof v === 'string' ? v.trim() : v),
  z.enum(INTERVALS, { error: `must be one of ${INTERVALS.join(', ')} or none` }).nullable(),
);

const reportAt = z
  .string({ error: 'must be a time of day, HH:MM' })
  .trim()
  .transform((s) => (/^\d:\d\d$/.test(s) ? `0${s}` : s))
  .refine((s) => CLOCK_TIME.test(s), { error: (iss) => `${JSON.stringify(iss.input)} is not a time of day (HH:MM, 24-hour)` });

const label = z
  .string({ error: 'must be text' })
  .trim()
  .max(64, 'at most 64 characters')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters');

const address = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a hex address') })
  .trim()
  .pipe(addressSchema);

const killSwitch = z.preprocess(
  (v) => (typeof v === 'string' && NONE.test(v.trim()) ? null : v),
  numberInput(
    (n, v) => {
      if (n === null) return `${JSON.stringify(v)} is not a percent (or off)`;
      return n > 0 && n < 100 ? undefined : `${n} must be greater than 0 and less than 100 (percent), or off`;
    },
    { error: 'give a percent such as 30, or off' },
  ).nullable(),
);

/** `next` is `wait` by the CLI's other name for it: confirmed at the next evaluation. */
const killSwitchConfirm = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .trim()
          .toLowerCase()
          .replace(/^next$/, 'wait')
      : v,
  z.enum(['wait', 'now'], { error: 'must be now, or next (also called wait)' }),
);

const keepDelegates = z.preprocess(
  splitList,
  z
    .array(address, { error: 'give delegate addresses separated by "," (or none)' })
    .max(100, 'at most 100 kept delegates')
    .transform((list) => [...new Set(list)]),
);

const killSwitchWebSessions = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.enum(['keep', 'revoke'], { error: 'must be keep or revoke' }),
);

const onOff = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const t = v.trim().toLowerCase();
    return t === 'on' || t === 'true' ? true : t === 'off' || t === 'false' ? false : v;
  },
  z.boolean({ error: 'must be on or off' }),
);

/** Option and CSV column names (`email`, `report-at`, ...) mapped to field names; `''` and `null` mean "not given". */
const ALIASES: Readonly<Record<string, string>> = { email: 'emails', drawdown: 'drawdownThresholds', keepDelegate: 'keepDelegates' };

function fieldKey(name: string): string {
  const camel = name.trim().replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return ALIASES[camel] ?? camel;
}

function normalizeKeys(input: unknown, keepEmpty: readonly string[] = []): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const key = fieldKey(k);
    const empty = v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    if (!empty) out[key] = v;
    else if (keepEmpty.includes(key)) out[key] = null;
  }
  return out;
}

/**
 * Settings of a new account, from the CLI (`accounts add`) or an import row. Accepts the option
 * and CSV names (`email`, `drawdown`, `report-at`, `expiry-warn-days`) as well as the field
 * names; lists as arrays or as text separated by `,` or `;`. Missing or empty values take the
 * defaults (`DEFAULT_SETTINGS`). Unknown keys are ignored.
 */
const settingsObject = z.object({
  address,
  emails,
  label: label.nullable().default(null),
  interval: interval.default(DEFAULT_SETTINGS.interval),
  drawdownThresholds: thresholds.default([...DEFAULT_SETTINGS.drawdownThresholds]),
  reportAt: reportAt.default(DEFAULT_SETTINGS.reportAt),
  timezone: timeZoneNameSchema.default(DEFAULT_SETTINGS.timezone),
  expiryWarnDays: warnDays.default([...DEFAULT_SETTINGS.expiryWarnDays]),
  signer: signerRefSchema.nullable().default(null),
  delegateWatch: delegateWatch.default(DEFAULT_SETTINGS.delegateWatch),
  killSwitch: killSwitch.default(null),
  killSwitchConfirm: killSwitchConfirm.default(DEFAULT_SETTINGS.killSwitchConfirm),
  keepDelegates: keepDelegates.default([]),
  killSwitchWebSessions: killSwitchWebSessions.default(DEFAULT_SETTINGS.killSwitchWebSessions),
  killSwitchDryRun: onOff.default(false),
  revokeUnknown: revokeUnknownModeSchema.default(DEFAULT_SETTINGS.revokeUnknown),
});

export const accountSettingsSchema = z.preprocess((v) => normalizeKeys(v), settingsObject) satisfies z.ZodType<AccountSettings>;

/** A change of settings (`accounts update`): only the given fields; `''` for `label` or `signer` removes it. */
export type AccountSettingsPatch = Partial<Omit<AccountSettings, 'address'>>;

/** Validates an `accounts update` patch with the same rules and messages as `accountSettingsSchema`, without defaults. */
export const accountSettingsPatchSchema = z.preprocess(
  (v) => normalizeKeys(v, ['label', 'signer']),
  z.object({
    emails: emails.optional(),
    label: label.nullable().optional(),
    interval: interval.optional(),
    drawdownThresholds: thresholds.optional(),
    reportAt: reportAt.optional(),
    timezone: timeZoneNameSchema.optional(),
    expiryWarnDays: warnDays.optional(),
    signer: signerRefSchema.nullable().optional(),
    delegateWatch: delegateWatch.optional(),
    killSwitch: killSwitch.optional(),
    killSwitchConfirm: killSwitchConfirm.optional(),
    keepDelegates: keepDelegates.optional(),
    killSwitchWebSessions: killSwitchWebSessions.optional(),
    killSwitchDryRun: onOff.optional(),
    revokeUnknown: revokeUnknownModeSchema.optional(),
  }),
) satisfies z.ZodType<{ [K in keyof AccountSettingsPatch]?: AccountSettingsPatch[K] | undefined }>;

const OPTION_NAMES: Readonly<Record<string, string>> = {
  emails: 'email',
  drawdownThresholds: 'drawdown',
  reportAt: 'report-at',
  expiryWarnDays: 'expiry-warn-days',
  delegateWatch: 'delegate-watch',
  keepDelegates: 'keep-delegate',
};

/**
 * The kill switch's settings in a few words, for `accounts show` and `status`: `off`, or the
 * level with its confirmation, web sessions, kept keys and dry run.
 */
export function killSwitchText(
  a: Pick<AccountSettings, 'killSwitch' | 'killSwitchConfirm' | 'keepDelegates' | 'killSwitchWebSessions' | 'killSwitchDryRun'>,
): string {
  if (a.killSwitch === null) return 'off';
  return [
    `${a.killSwitch}%`,
    a.killSwitchConfirm === 'now' ? 'acts on the first evaluation' : 'confirmed at the next evaluation',
    a.killSwitchWebSessions === 'keep' ? 'web sessions kept' : 'web sessions revoked',
    a.keepDelegates.length === 0 ? null : `keeps ${a.keepDelegates.join(', ')}`,
    a.killSwitchDryRun ? 'DRY RUN (revokes nothing)' : null,
  ]
    .filter((part) => part !== null)
    .join('; ');
}

/** The setting fields, in the order of the CLI options and import columns (`address` first). */
export const SETTING_FIELDS = Object.keys(settingsObject.shape) as (keyof AccountSettings)[];

/** The field a CLI option or import column names (`report-at`, `reportAt` -> `reportAt`), or `null` for an unknown name. */
export function settingFieldOf(column: string): keyof AccountSettings | null {
  const key = fieldKey(column);
  return (SETTING_FIELDS as string[]).includes(key) ? (key as keyof AccountSettings) : null;
}

/** The option and import column name of a field (`reportAt` -> `report-at`, `emails` -> `email`). */
export function columnOf(field: string): string {
  return OPTION_NAMES[field] ?? field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** One line per problem, naming the option as the user typed it: `email: "x" is not a valid email address`. */
export function describeSettingsError(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const field = String(i.path[0] ?? 'settings');
      return `${columnOf(field)}: ${i.message}`;
    })
    .join('\n');
}
