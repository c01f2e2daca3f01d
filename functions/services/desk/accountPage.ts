import type { TrackedAccount } from '../../domain/account';
import type { DayFigures } from '../../domain/dayFigures';
import { dayFiguresByDate, type DatedFigures } from '../../domain/dayFiguresByDate';
import { delegateStanding, type DelegateStanding } from '../../domain/delegateStanding';
import { deskChart, type DeskChart } from '../../domain/deskChart';
import { drawdown, type DrawdownResult } from '../../domain/drawdown';
import { DRAWDOWN_RULE, drawdownStateSchema, snoozeStateSchema } from '../../domain/drawdownState';
import { killSwitchStateSchema, type KillSwitchState } from '../../domain/killSwitchDecision';
import type { KillSwitchProgress } from '../../domain/killSwitchProgress';
import { addDays, localDate, localDayBounds } from '../../domain/localTime';
import { protectionArming, type Arming } from '../../domain/protectionArming';
import { recipientSnoozesStateSchema } from '../../domain/recipientSnoozes';
import { buildReportModel, type ReportModel } from '../../domain/reportModel';
import { shownStatus, type ShownStatus } from '../../domain/shownStatus';
import { withoutUrls } from '../../shared/withoutUrls';
import { RECIPIENT_SNOOZES_RULE, SNOOZE_RULE } from '../../store/alertStateRepository';
import { KILL_SWITCH_RULE } from '../../store/killSwitchStateItem';
import { storedReportInput } from '../../domain/composeReport';
import { readAccountSeries, type AccountSeries, type DeskWindow } from './accountSeries';
import type { DeskStores } from './deskStores';
import type { HistoryPage } from '../../store/accountHistoryRepository';
import type { AlertHistoryEntry } from '../../domain/alertHistoryEntry';
import type { DeliveryHistoryEntry } from '../../domain/deliveryHistoryEntry';
import { protectionHistory, readDecisionsPage, type ProtectionHistory } from './protectionHistory';

/** How many points the server-drawn charts of a page draw at most (the client asks the API for more). */
export const PAGE_CHART_POINTS = 1_200;
/** How many local days the PnL calendar shows at most. */
export const CALENDAR_DAYS = 35;
/** How many events of the alert history, and how many deliveries, a page shows (older ones a page further). */
export const HISTORY_PAGE = 25;

/** Where each paged section of the page starts: a position read from its "Older" cursor, `null` for the newest. */
export interface AccountPagePositions {
  readonly alerts: string | null;
  readonly deliveries: string | null;
  readonly decisions: string | null;
}

/** One drawdown level of an account and where its alert stands. */
export interface LevelView {
  readonly level: number;
  readonly status: 'armed' | 'breached';
  readonly breachedAt: number | null;
  readonly lastSentAt: number | null;
}

/** A listed delegate as the keys section shows it. */
export interface KeyView {
  readonly address: string;
  readonly name: string | null;
  readonly kind: 'api-key' | 'web-session';
  readonly expiryMs: number | null;
  readonly firstSeenAt: number;
  readonly standing: DelegateStanding;
}

/** Everything an account's page shows, from stored data only. */
export interface AccountPage {
  readonly account: TrackedAccount;
  readonly status: ShownStatus;
  readonly statusReason: string | null;
  readonly lastPollAt: number | null;
  readonly asOf: number | null;
  readonly window: DeskWindow;
  readonly series: AccountSeries;
  /** The server-drawn charts' points (downsampled to {@link PAGE_CHART_POINTS}). */
  readonly chart: DeskChart;
  /** The drawdown now over the drawdown window: the alerts', `status`'s and the emails' figure. */
  readonly drawdown: DrawdownResult | null;
  readonly levels: readonly LevelView[];
  readonly killSwitch: {
    readonly levelPct: number | null;
    readonly arming: Arming;
    readonly state: KillSwitchState | null;
    readonly progress: KillSwitchProgress | null;
  };
  /** The account-wide snooze (an operator's), and each recipient's own (email to until), both only while they last. */
  readonly snoozes: { readonly account: number | null; readonly recipients: Readonly<Record<string, number>> };
  /** The local days of the calendar, oldest first, each as the daily report measures it. */
  readonly calendar: readonly DatedFigures[];
  /** The day asked for (`?day=`), as the daily report's composition builds it from stored data; `null` when none was asked. */
  readonly day: { readonly date: string; readonly figures: DayFigures | null; readonly model: ReportModel } | null;
  readonly keys: readonly KeyView[];
  /** The kill switch's state in `accounts show`'s words, and a page of automatic decisions with their outcome and evidence. */
  readonly protection: ProtectionHistory;
  /** Levels fired and recovered, snoozes set and lifted, newest first ({@link HISTORY_PAGE} a page). */
  readonly alertHistory: HistoryPage<AlertHistoryEntry>;
  /** What was sent about the account, to whom and where, and how it ended, newest first. */
  readonly deliveries: HistoryPage<DeliveryHistoryEntry>;
}

/** Reads an account's page at `now` for `window` (and the calendar day `day`, a local date, when given); each history section from its position. */
export async function accountPage(
  stores: DeskStores,
  account: TrackedAccount,
  window: DeskWindow,
  day: string | null,
  now: number,
  positions: AccountPagePositions = { alerts: null, deliveries: null, decisions: null },
): Promise<AccountPage> {
  const [series, rules, snapshot, views, known, alertHistory, deliveries, decisions] = await Promise.all([
    readAccountSeries(stores, account, window, now),
    stores.alerts.listWithControls(account.address),
    stores.snapshots.latest(account.address),
    stores.delegates.listForAccount(account.address),
    stores.knownDelegates.read(account.address),
    stores.history.alerts(account.address, HISTORY_PAGE, positions.alerts),
    stores.history.deliveries(account.address, HISTORY_PAGE, positions.deliveries),
    readDecisionsPage(stores, account.address, positions.decisions),
  ]);
  const shown = shownStatus(account, now, withoutUrls, snapshot ? snapshot.polledAt : null);
  const rule = (name: string) => rules.find((r) => r.rule === name)?.state;
  const levelStates = drawdownStateSchema.safeParse(rule(DRAWDOWN_RULE));
  const stored = levelStates.success ? levelStates.data.levels : {};
  const ks = killSwitchStateSchema.safeParse(rule(KILL_SWITCH_RULE));
  const protection = protectionHistory(decisions, account, ks.success ? ks.data : null);
  const accountSnooze = snoozeStateSchema.safeParse(rule(SNOOZE_RULE));
  const recipientSnoozes = recipientSnoozesStateSchema.safeParse(rule(RECIPIENT_SNOOZES_RULE));
  const today = localDate(now, account.timezone);
  const firstRead = series.read[0];
  const calendarFrom = firstRead ? localDate(firstRead.timestamp, account.timezone) : today;
  const from = addDays(today, 1 - CALENDAR_DAYS) > calendarFrom ? addDays(today, 1 - CALENDAR_DAYS) : calendarFrom;
  return {
    account,
    status: shown.status,
    statusReason: shown.reason,
    lastPollAt: snapshot ? (snapshot.fetchedAt ?? snapshot.polledAt) : null,
    asOf: series.read.at(-1)?.timestamp ?? null,
    window,
    series,
    chart: deskChart(series.series, series.underwater, PAGE_CHART_POINTS),
    drawdown: drawdown(series.history),
    levels: account.drawdownThresholds.map((level) => {
      const state = stored[String(level)];
      return { level, status: state?.status ?? 'armed', breachedAt: state?.breachedAt ?? null, lastSentAt: state?.lastSentAt ?? null };
    }),
    killSwitch: {
      levelPct: account.killSwitch,
      arming: protectionArming(account, 'kill-switch'),
      state: ks.success ? ks.data : null,
      progress: protection.killSwitchProgress,
    },
    snoozes: {
      account: accountSnooze.success && accountSnooze.data.until > now ? accountSnooze.data.until : null,
      recipients: recipientSnoozes.success ? Object.fromEntries(Object.entries(recipientSnoozes.data.recipients).filter(([, until]) => until > now)) : {},
    },
    calendar: dayFiguresByDate(series.read, account.timezone, from, today),
    day: day === null ? null : dayOf(account, series, day, now),
    keys: views
      .filter((v) => v.removedAt === null)
      .sort((a, b) => (a.expiryMs ?? Infinity) - (b.expiryMs ?? Infinity))
      .map((v) => ({
        address: v.delegate,
        name: v.name,
        kind: v.isWebClient ? 'web-session' : 'api-key',
        expiryMs: v.expiryMs,
        firstSeenAt: v.firstSeenAt,
        standing: delegateStanding(v.delegate, known, now),
      })),
    protection,
    alertHistory,
    deliveries,
  };
}

/** One local day as the daily report builds it from stored data (its composition, its model). */
function dayOf(account: TrackedAccount, series: AccountSeries, date: string, now: number): AccountPage['day'] {
  const { startMs, endMs } = localDayBounds(date, account.timezone);
  const model = buildReportModel(
    storedReportInput(account, { localDate: date, startMs, endMs, previousReportAt: startMs }, series.read, {
      delegates: [],
      previous: null,
      now,
      chainFailedAt: now,
    }),
  );
  return { date, figures: model.day, model };
}
