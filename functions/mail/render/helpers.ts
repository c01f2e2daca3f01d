import type Handlebars from 'handlebars';
import type { HelperOptions } from 'handlebars';
import {
  accountName,
  formatCountdown,
  formatDelta,
  formatDuration,
  formatMoney,
  formatNumber,
  formatPercent,
  formatTime,
  formatValue,
  shortAddress,
  toneOf,
  truncate,
  type Better,
  type NumberFormatOptions,
  type SignDisplay,
  type TimeStyle,
  type Unit,
} from './format';

/** What every template's root context carries besides the view. */
export interface TemplateRoot {
  /** The recipient's IANA time zone; every time is shown in it. */
  timeZone: string;
  /** "Now" of the email; countdowns are relative to it. */
  generatedAtMs: number;
}

type HandlebarsInstance = typeof Handlebars;

const UNITS = new Set<string>(['usd', 'percent', 'ratio', 'count']);
const BETTER = new Set<string>(['higher', 'lower', 'neutral']);
const SIGNS = new Set<string>(['auto', 'always', 'never']);
const TIME_STYLES = new Set<string>(['datetime', 'date', 'time', 'day']);

// Helpers get their positional arguments followed by the options object.
function split(args: unknown[]): { params: unknown[]; options: HelperOptions } {
  return { params: args.slice(0, -1), options: args[args.length - 1] as HelperOptions };
}

function root(options: HelperOptions): TemplateRoot {
  return (options.data as { root: TemplateRoot }).root;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function numberOptions(hash: Record<string, unknown>): NumberFormatOptions {
  const out: NumberFormatOptions = {};
  if (typeof hash.sign === 'string' && SIGNS.has(hash.sign)) out.sign = hash.sign as SignDisplay;
  if (typeof hash.decimals === 'number') out.decimals = hash.decimals;
  if (hash.trim === true) out.trimZeros = true;
  return out;
}

function unitOf(value: unknown): Unit {
  if (typeof value === 'string' && UNITS.has(value)) return value as Unit;
  throw new Error(`unknown unit ${JSON.stringify(value)}`);
}

function betterOf(value: unknown): Better {
  return typeof value === 'string' && BETTER.has(value) ? (value as Better) : 'higher';
}

/**
 * Registers the formatting helpers on a Handlebars instance. Times use `@root.timeZone`;
 * countdowns are relative to `@root.generatedAtMs`.
 *
 * - `{{money x sign="always" decimals=0}}`, `{{percent x}}`, `{{number x decimals=1}}`, `{{metricValue x unit}}`; `trim=true` drops trailing zeros
 * - `{{delta d unit better}}`: an HTML `<span class="delta delta-good|bad|neutral">▲ …</span>`;
 *   `{{deltaText d unit better}}`: the same as plain `+…`/`−…` text
 * - `{{tone x}}`: `good` / `bad` / `neutral` by sign, for class names
 * - `{{time ms "datetime|date|time|day"}}`, `{{countdown expiryMs}}`, `{{duration ms}}`,
 *   `(expiresWithin expiryMs days)`: whether an expiry falls within `days` of `@root.generatedAtMs`
 * - `{{shortAddress a}}`, `{{accountName account}}`, `{{delegateName d}}`, `{{delegateKind kind}}`,
 *   `{{truncate s 40}}`, `{{plural n "day" "days"}}`, `{{revokeAllLabel n}}`
 * - `(eq a b)`, `(gt a b)`, `(isNumber x)`, `(choose cond a b)`, `(subtract a b)` (floored at 0),
 *   `(outcomeAccent outcome)`: the accent colour of a revocation result
 * - `{{spanNoun span}}` (`day`, `week`, `month`) and `{{spanTitle span}}` (`Daily report`, `Weekly
 *   summary`, `Monthly summary`): how a report names the span it covers
 */
export function registerHelpers(hbs: HandlebarsInstance): void {
  const helper = (name: string, fn: (params: unknown[], options: HelperOptions) => unknown): void => {
    hbs.registerHelper(name, (...args: unknown[]) => {
      const { params, options } = split(args);
      return fn(params, options);
    });
  };
  const orDash = (value: unknown, format: (n: number) => string): string => {
    const n = num(value);
    return n === null ? '—' : format(n);
  };

  helper('money', ([v], o) => orDash(v, (n) => formatMoney(n, numberOptions(o.hash))));
  helper('percent', ([v], o) => orDash(v, (n) => formatPercent(n, numberOptions(o.hash))));
  helper('number', ([v], o) => orDash(v, (n) => formatNumber(n, numberOptions(o.hash))));
  helper('metricValue', ([v, unit], o) => formatValue(num(v), unitOf(unit), numberOptions(o.hash)));
  helper('delta', ([d, unit, better]) => {
    const { text, tone } = formatDelta(num(d), unitOf(unit), betterOf(better), 'arrow');
    return new hbs.SafeString(`<span class="delta delta-${tone}">${hbs.escapeExpression(text)}</span>`);
  });
  helper('deltaText', ([d, unit, better]) => formatDelta(num(d), unitOf(unit), betterOf(better), 'sign').text);
  helper('tone', ([v]) => toneOf(num(v) ?? 0));
  helper('time', ([at, style], o) => {
    const chosen = typeof style === 'string' && TIME_STYLES.has(style) ? (style as TimeStyle) : 'datetime';
    return typeof at === 'number' || typeof at === 'string' ? formatTime(at, root(o).timeZone, chosen) : '—';
  });
  helper('countdown', ([expiry], o) => formatCountdown(num(expiry), root(o).generatedAtMs));
  helper('expiresWithin', ([expiry, days], o) => {
    const e = num(expiry);
    return e !== null && typeof days === 'number' && e - root(o).generatedAtMs <= days * 86_400_000;
  });
  helper('duration', ([ms]) => orDash(ms, formatDuration));
  helper('shortAddress', ([a]) => (typeof a === 'string' ? shortAddress(a) : ''));
  helper('accountName', ([account]) => accountName(account as { address: string; label: string | null }));
  helper('delegateName', ([d]) => {
    const name = (d as { name: string | null }).name?.trim();
    return name ? truncate(name, 80) : 'Unnamed key';
  });
  helper('delegateKind', ([kind]) => (kind === 'web-session' ? 'web session' : 'API key'));
  helper('truncate', ([s, max]) => (typeof s === 'string' ? truncate(s, typeof max === 'number' ? max : 80) : ''));
  helper('plural', ([n, one, many]) => (n === 1 ? one : many));
  helper('revokeAllLabel', ([n]) => `Revoke all ${String(num(n) ?? 0)} API ${num(n) === 1 ? 'key' : 'keys'}`);
  helper('eq', ([a, b]) => a === b);
  helper('choose', ([condition, yes, no]) => (condition ? yes : no));
  helper('isNumber', ([v]) => num(v) !== null);
  helper('subtract', ([a, b]) => Math.max(0, (num(a) ?? 0) - (num(b) ?? 0)));
  helper('outcomeAccent', ([outcome]) =>
    outcome === 'revoked' || outcome === 'already-revoked' ? 'success' : outcome === 'unconfirmed' ? 'warning' : 'danger',
  );
  helper('spanNoun', ([span]) => (span === 'week' || span === 'month' ? span : 'day'));
  helper('spanTitle', ([span]) => (span === 'week' ? 'Weekly summary' : span === 'month' ? 'Monthly summary' : 'Daily report'));
  helper('inc', ([n]) => (num(n) ?? 0) + 1);
  helper('upper', ([s]) => (typeof s === 'string' ? s.toUpperCase() : ''));
  helper('gt', ([a, b]) => typeof a === 'number' && typeof b === 'number' && a > b);
}
