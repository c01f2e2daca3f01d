import { CHAIN_DRAWDOWN_LABEL, SUMMARY_METRICS } from '../functions/domain/summaryMetrics';
import { killSwitchNoticeText } from '../functions/notices/killSwitchPresenter';
import { decisionResultNoticeText } from '../functions/notices/decisionResultPresenter';
import { renderSparklinePng } from '../functions/mail/chart/sparkline';
import type { InlineImage } from '../functions/mail/send/mime';
import { revokeAllAdvice } from '../functions/domain/revokeAllAdvice';
import type {
  DailyReportView,
  DigestRowView,
  DigestView,
  DelegateExpiryView,
  DrawdownAlertView,
  EmailKind,
  EmailViews,
  MetricRow,
  NewDelegateView,
  RevocationResultView,
  RevokeAllResultView,
  SnoozeNoticeView,
  OnboardingBreachesView,
  KillSwitchView,
  DecisionResultView,
} from '../functions/mail/render/views';

/** Realistic views for the six emails: `sentinel test-email` sends them, the screenshots render them, tests derive variations from them. */

export const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
export const BOT_KEY = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
export const WEB_KEY = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const;
export const OLD_KEY = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as const;
export const TIME_ZONE = 'Europe/Berlin';

const BASE = 'https://sentinel.example.com';
/** 2025-03-04 08:00 in Berlin. */
export const NOW = Date.parse('2025-03-04T07:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const links = {
  unsubscribeUrl: `${BASE}/u/unsub-token-abc`,
  statusUrl: `${BASE}/status/${ACCOUNT}`,
};

export const revokeUrl = (delegate: string): string => `${BASE}/r/revoke-token-${delegate.slice(2, 10)}`;

type Unit = MetricRow['unit'];
type Better = MetricRow['better'];
/** A metric row with one `[value, delta]` per window. */
function metric(key: string, label: string, description: string, unit: Unit, better: Better, ...cells: [number, number | null][]): MetricRow {
  return { key, label, description, unit, better, cells: cells.map(([value, delta]) => ({ value, text: null, delta })) };
}

export const dailyReport: DailyReportView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  period: { startMs: Date.parse('2025-03-02T23:00:00Z'), endMs: Date.parse('2025-03-03T23:00:00Z') },
  status: { state: 'ok', reason: null, lastPointAtMs: NOW - 5 * 60_000 },
  day: {
    equityStartUsd: 104_250.12,
    equityEndUsd: 110_734.56,
    pnlUsd: 1_484.44,
    returnPct: 1.4239,
    netFlowsUsd: 5_000,
    depositsUsd: 5_000,
    withdrawalsUsd: 0,
  },
  drawdown: {
    currentPct: 3.21,
    currentUsd: 3_671.9,
    maxPct: 8.75,
    maxUsd: 9_120,
    peakEquityUsd: 114_406.46,
    peakAtMs: Date.parse('2025-02-26T14:00:00Z'),
  },
  drawdownAsOfMs: NOW - 5 * 60_000,
  drawdownSinceMs: Date.parse('2025-01-15T09:30:00Z'),
  windows: [
    {
      key: 'day',
      label: 'Report day',
      fromMs: Date.parse('2025-03-02T23:00:00Z'),
      toMs: Date.parse('2025-03-03T23:00:00Z'),
      partialFromMs: null,
      compared: true,
    },
    { key: '7d', label: '7 days', fromMs: Date.parse('2025-02-24T23:00:00Z'), toMs: Date.parse('2025-03-03T23:00:00Z'), partialFromMs: null, compared: true },
    {
      key: '30d',
      label: '30 days',
      fromMs: Date.parse('2025-02-01T23:00:00Z'),
      toMs: Date.parse('2025-03-03T23:00:00Z'),
      partialFromMs: null,
      compared: false,
    },
  ],
  sampling: '1h',
  metrics: [
    metric(
      'pnl',
      'PnL',
      'Profit and loss from trading over the window, net of deposits and withdrawals.',
      'usd',
      'higher',
      [1_484.44, 210.5],
      [6_120.8, -310.25],
      [10_734.56, null],
    ),
    metric('returnPct', 'Return', 'Trading return over the window.', 'percent', 'higher', [1.42, 0.3], [5.88, -0.21], [10.3, null]),
    metric('maxDrawdownPct', CHAIN_DRAWDOWN_LABEL, SUMMARY_METRICS.maxDrawdownPct.description, 'percent', 'lower', [0.8, -0.1], [3.2, 0], [8.75, null]),
    metric('winRate', 'Win rate', 'Share of closed trades that made money.', 'percent', 'higher', [56.4, 1.2], [54.1, 0.4], [52.9, null]),
    metric(
      'profitFactor',
      'Profit factor',
      'Gross profit divided by gross loss; above 1 means winners outweigh losers.',
      'ratio',
      'higher',
      [1.87, -0.04],
      [1.6, 0.02],
      [1.41, null],
    ),
    metric('sharpeRatio', 'Sharpe ratio', 'Return per unit of volatility; higher is steadier.', 'ratio', 'higher', [2.31, 0.12], [1.9, 0.05], [1.7, null]),
    metric(
      'pnlVolatilityPct',
      'Volatility',
      'How much the PnL swings from period to period, relative to the account.',
      'percent',
      'lower',
      [2.05, 0.31],
      [1.95, -0.02],
      [2.1, null],
    ),
    metric('totalTrades', 'Trades', 'Number of trades.', 'count', 'neutral', [37, 3], [251, 12], [1_284, null]),
    metric('volume', 'Volume', 'Notional value traded.', 'usd', 'neutral', [151_220.75, 8_120], [1_021_330.5, 40_100], [4_812_330.5, null]),
    metric(
      'totalFunding',
      'Funding',
      'Funding payments received (positive) or paid (negative).',
      'usd',
      'higher',
      [-18.5, -2.1],
      [-96.2, 4.4],
      [-412.37, null],
    ),
  ],
  chart: { cid: 'equity-chart@sentinel', alt: 'Equity and PnL over the report day', width: 544, height: 320 },
  chartCaption: 'Equity and PnL over the report day, from the chain’s curves of that day.',
  delegates: [
    { name: 'market-maker-1', address: BOT_KEY, kind: 'api-key', expiryMs: NOW + 3 * DAY + 4 * HOUR, revokeUrl: revokeUrl(BOT_KEY) },
    { name: 'Web session', address: WEB_KEY, kind: 'web-session', expiryMs: NOW + 29 * DAY, revokeUrl: revokeUrl(WEB_KEY) },
  ],
  moreDelegates: 0,
  removedDelegates: [{ name: 'old-bot', address: OLD_KEY, removedAtMs: NOW - 10 * HOUR }],
};

export const drawdownAlert: DrawdownAlertView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  thresholdPct: 10,
  repeat: false,
  drawdown: {
    currentPct: 10.42,
    currentUsd: 11_921.4,
    maxPct: 10.42,
    maxUsd: 11_921.4,
    peakEquityUsd: 114_406.46,
    peakAtMs: Date.parse('2025-02-26T14:00:00Z'),
  },
  equityUsd: 102_485.06,
  thresholdsPct: [5, 10, 20],
  rearmMarginPct: 1,
  lastPointAtMs: NOW - 60_000,
  chart: null,
  snoozeLinks: [
    { label: 'Snooze 24 hours', url: `${BASE}/s/snooze-24h-token` },
    { label: 'Snooze 7 days', url: `${BASE}/s/snooze-7d-token` },
  ],
  revokeAll: { url: `${BASE}/revoke-all?token=revoke-all-token`, count: 2 },
};

export const delegateExpiry: DelegateExpiryView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  phase: 'warning',
  delegate: { name: 'market-maker-1', address: BOT_KEY, kind: 'api-key', expiryMs: NOW + 3 * DAY + 4 * HOUR, revokeUrl: revokeUrl(BOT_KEY) },
};

export const newDelegate: NewDelegateView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  delegate: { name: 'arb-bot', address: WEB_KEY, kind: 'api-key', expiryMs: NOW + 90 * DAY, revokeUrl: revokeUrl(WEB_KEY) },
  firstSeenAtMs: NOW - 2 * 60_000,
  revokeAll: { url: `${BASE}/revoke-all?token=revoke-all-token`, count: 2 },
};

export const revocationResult: RevocationResultView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  outcome: 'revoked',
  delegate: { name: 'arb-bot', address: WEB_KEY, kind: 'api-key' },
  attemptedAtMs: NOW - 30_000,
  chainMessage: null,
  nonce: 42,
  txSignature: `0x${'ab'.repeat(65)}`,
};

export const revokeAllResult: RevokeAllResultView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  rows: [
    { name: 'market-maker-1', address: BOT_KEY, kind: 'api-key', outcome: 'revoked', text: 'revoked (nonce 41)', nonce: 41 },
    { name: 'arb-bot', address: WEB_KEY, kind: 'api-key', outcome: 'revoked', text: 'revoked (nonce 42)', nonce: 42 },
    { name: 'old-bot', address: OLD_KEY, kind: 'api-key', outcome: 'not-sent', text: 'not sent: the chain could not be reached', nonce: null },
  ],
  removed: 2,
  advice: revokeAllAdvice(['retry-on-page'], 'notice', ACCOUNT),
  settledAtMs: NOW - 20_000,
};

export const snoozeNotice: SnoozeNoticeView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  untilMs: NOW + 24 * 3_600_000,
};

export const killSwitch: KillSwitchView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  ...(() => {
    const text = killSwitchNoticeText(
      {
        levelPct: 30,
        drawdownPct: 31.2,
        rereadPct: 30.4,
        peakAt: NOW - 2 * DAY,
        asOf: NOW - 5 * 60_000,
        reason: `kill-switch: drawdown 31.20% now, 1-minute re-read 30.4% ≥ 30% at ${new Date(NOW - 5 * 60_000).toISOString()}`,
        requested: [OLD_KEY, BOT_KEY],
        keptWebSessions: [WEB_KEY],
        keptKeys: [BOT_KEY],
        names: [
          { address: OLD_KEY, name: 'old-bot' },
          { address: BOT_KEY, name: 'hedger' },
          { address: WEB_KEY, name: 'browser' },
        ],
        action: { kind: 'requested', outcome: { kind: 'queued', decisionId: 'sample-decision', delegates: [OLD_KEY] } },
      },
      { account: ACCOUNT, percent: (p) => `${p.toFixed(1)}%` },
    );
    return { title: text.title, summary: text.summary, lines: [...text.lines], revoking: text.revoking, delegates: [...text.delegates] };
  })(),
  dryRun: false,
  levelPct: 30,
  drawdownPct: 31.2,
  rereadPct: 30.4,
  peakAtMs: NOW - 2 * DAY,
  asOfMs: NOW - 5 * 60_000,
  revokeAll: { url: `${BASE}/revoke-all?token=sample-revoke-all-token`, count: 3 },
};

/** The kill switch's decision refused at signing time: the breaker opened over a market-wide loss. */
export const decisionResult: DecisionResultView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  ...(() => {
    const text = decisionResultNoticeText(
      {
        decisionId: 'sample-decision',
        rule: 'kill-switch',
        reason: `kill-switch: drawdown 31.20% now, 1-minute re-read 30.4% ≥ 30% at ${new Date(NOW - 5 * 60_000).toISOString()}`,
        units: [
          {
            address: OLD_KEY,
            name: 'old-bot',
            status: 'refused',
            refusal: 'breaker-open',
            text: `the breaker was open: 9 accounts fired kill-switch within an hour, which points to a data fault, so automatic protection acts on none; it closes at ${new Date(NOW + HOUR).toISOString()} unless more fire`,
          },
        ],
        left: [
          { address: OLD_KEY, name: 'old-bot', isWebClient: false },
          { address: BOT_KEY, name: 'hedger', isWebClient: false },
          { address: WEB_KEY, name: 'browser', isWebClient: true },
        ],
        judgedAgainAt: null,
      },
      { account: ACCOUNT, time: (ms) => new Date(ms).toISOString() },
    );
    return { title: text.title, summary: text.summary, lines: [...text.lines], rows: [...text.rows], critical: text.severity === 'critical' };
  })(),
  settledAtMs: NOW - 60_000,
  revokeAll: { url: `${BASE}/revoke-all?token=sample-revoke-all-token`, count: 3 },
};

const DESK = [
  { address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', label: 'arb-desk' },
  { address: ACCOUNT, label: 'bot-main' },
  { address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', label: 'hedge-book' },
  { address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9', label: 'mm-eu' },
  { address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955', label: null },
] as const;

const trendRef = (i: number, label: string): DigestRowView['trend'] => ({ cid: `trend-${i}@sentinel`, alt: `PnL trend of ${label}`, width: 88, height: 26 });

/** A desk of five accounts, worst first: one past two alert levels, one unreadable, one stale, two quiet. */
export const digest: DigestView = {
  generatedAtMs: NOW,
  links,
  recipient: 'desk@example.com',
  span: 'day',
  period: { startMs: Date.parse('2025-03-02T23:00:00Z'), endMs: Date.parse('2025-03-03T23:00:00Z') },
  accountCount: 5,
  chainWindowLabel: '30 days',
  sampling: '1h',
  trendCaption: 'Trend: PnL over the last 30 days, from the chain’s curves.',
  rows: [
    {
      account: DESK[2],
      unavailable: 'the chain did not answer in time',
      status: 'ok',
      equityUsd: null,
      pnlUsd: null,
      returnPct: null,
      drawdownNowPct: null,
      chainMaxDrawdownPct: null,
      chainMaxDrawdownText: null,
      openAlerts: 0,
      expiringDelegates: 0,
      trend: null,
    },
    {
      account: DESK[0],
      unavailable: null,
      status: 'ok',
      equityUsd: 412_880.4,
      pnlUsd: -21_904.12,
      returnPct: -5.04,
      drawdownNowPct: 11.8,
      chainMaxDrawdownPct: 12.6,
      chainMaxDrawdownText: null,
      openAlerts: 2,
      expiringDelegates: 1,
      trend: trendRef(1, 'arb-desk'),
    },
    {
      account: DESK[1],
      unavailable: null,
      status: 'ok',
      equityUsd: 110_734.56,
      pnlUsd: 1_484.44,
      returnPct: 1.42,
      drawdownNowPct: 3.21,
      chainMaxDrawdownPct: 8.75,
      chainMaxDrawdownText: null,
      openAlerts: 0,
      expiringDelegates: 1,
      trend: trendRef(2, 'bot-main'),
    },
    {
      account: DESK[3],
      unavailable: null,
      status: 'stale',
      equityUsd: 58_120,
      pnlUsd: -310.5,
      returnPct: -0.53,
      drawdownNowPct: 1.9,
      chainMaxDrawdownPct: 4.1,
      chainMaxDrawdownText: null,
      openAlerts: 0,
      expiringDelegates: 0,
      trend: trendRef(3, 'mm-eu'),
    },
    {
      account: DESK[4],
      unavailable: null,
      status: 'ok',
      equityUsd: 24_015.77,
      pnlUsd: 402.18,
      returnPct: 1.7,
      drawdownNowPct: 0,
      chainMaxDrawdownPct: 2.2,
      chainMaxDrawdownText: null,
      openAlerts: 0,
      expiringDelegates: 0,
      trend: trendRef(4, '0x14dC…9955'),
    },
  ],
  moreRows: 0,
  sections: [
    {
      account: DESK[2],
      unavailable: 'the chain did not answer in time',
      status: { state: 'ok', reason: null, lastPointAtMs: null },
      day: null,
      drawdown: null,
      drawdownAsOfMs: null,
      delegates: [],
    },
    {
      account: DESK[0],
      unavailable: null,
      status: { state: 'ok', reason: null, lastPointAtMs: NOW - 5 * 60_000 },
      day: { equityStartUsd: 434_784.52, equityEndUsd: 412_880.4, pnlUsd: -21_904.12, returnPct: -5.04, netFlowsUsd: 0, depositsUsd: 0, withdrawalsUsd: 0 },
      drawdown: { currentPct: 11.8, currentUsd: 55_240, maxPct: 12.6, maxUsd: 59_010, peakEquityUsd: 468_120.4, peakAtMs: NOW - 9 * DAY },
      drawdownAsOfMs: NOW - 5 * 60_000,
      delegates: [{ name: 'arb-bot', address: WEB_KEY, kind: 'api-key', expiryMs: NOW + 2 * DAY + 5 * HOUR, revokeUrl: revokeUrl(WEB_KEY) }],
    },
    {
      account: DESK[1],
      unavailable: null,
      status: { state: 'ok', reason: null, lastPointAtMs: NOW - 5 * 60_000 },
      day: dailyReport.day,
      drawdown: dailyReport.drawdown,
      drawdownAsOfMs: NOW - 5 * 60_000,
      delegates: dailyReport.delegates,
    },
    {
      account: DESK[3],
      unavailable: null,
      status: { state: 'stale', reason: 'No new data point for 3 hours.', lastPointAtMs: NOW - 3 * HOUR },
      day: { equityStartUsd: 58_430.5, equityEndUsd: 58_120, pnlUsd: -310.5, returnPct: -0.53, netFlowsUsd: 0, depositsUsd: 0, withdrawalsUsd: 0 },
      drawdown: { currentPct: 1.9, currentUsd: 1_125.6, maxPct: 4.1, maxUsd: 2_410, peakEquityUsd: 59_245.6, peakAtMs: NOW - 4 * DAY },
      drawdownAsOfMs: NOW - 3 * HOUR,
      delegates: [{ name: 'mm-quoter', address: OLD_KEY, kind: 'api-key', expiryMs: null, revokeUrl: null }],
    },
    {
      account: DESK[4],
      unavailable: null,
      status: { state: 'ok', reason: null, lastPointAtMs: NOW - 5 * 60_000 },
      day: { equityStartUsd: 23_613.59, equityEndUsd: 24_015.77, pnlUsd: 402.18, returnPct: 1.7, netFlowsUsd: 0, depositsUsd: 0, withdrawalsUsd: 0 },
      drawdown: { currentPct: 0, currentUsd: 0, maxPct: 2.2, maxUsd: 530, peakEquityUsd: 24_015.77, peakAtMs: NOW - HOUR },
      drawdownAsOfMs: NOW - 5 * 60_000,
      delegates: [],
    },
  ],
  moreSections: 0,
};

/** The inline images a sample refers to besides the daily report's chart: the digest's trend lines. */
export function sampleImages(kind: EmailKind): InlineImage[] {
  if (kind !== 'digest') return [];
  return digest.rows.flatMap((row, i) => {
    if (!row.trend) return [];
    const { pnl } = curves(30, 3_600_000, NOW - i * DAY);
    const sign = i === 1 || i === 3 ? -1 : 1;
    const points = pnl.map((p, j) => ({ timestamp: p.timestamp, value: sign * Number(p.value) + (sign < 0 ? j * 3 : 0) }));
    return [
      {
        cid: row.trend.cid,
        filename: `trend-${i}.png`,
        contentType: 'image/png',
        content: renderSparklinePng({ points, width: row.trend.width, height: row.trend.height }),
      },
    ];
  });
}

/** Three accounts of one import already past a level when tracking began, worst first. */
export const onboardingBreaches: OnboardingBreachesView = {
  generatedAtMs: NOW,
  links,
  recipient: 'risk@example.com',
  trackedSinceMs: NOW - 10 * 60_000,
  rows: [
    { account: DESK[0], drawdownPct: 14.2, levelPct: 10, levelsPct: [5, 10] },
    { account: DESK[3], drawdownPct: 7.81, levelPct: 5, levelsPct: [5] },
    { account: DESK[1], drawdownPct: 5.4, levelPct: 5, levelsPct: [5] },
  ],
};

export const views: { [K in EmailKind]: EmailViews[K] } = {
  'daily-report': dailyReport,
  'drawdown-alert': drawdownAlert,
  'delegate-expiry': delegateExpiry,
  'new-delegate': newDelegate,
  'revocation-result': revocationResult,
  'revoke-all-result': revokeAllResult,
  digest,
  'snooze-notice': snoozeNotice,
  'onboarding-breaches': onboardingBreaches,
  'kill-switch': killSwitch,
  'decision-result': decisionResult,
};

/**
 * Deterministic equity and PnL curves: `days` of points every `stepMs`, ending at `endMs`. PnL
 * climbs to a peak and gives some back (about the fixture report's figures); a $5,000 deposit
 * lands on the last day, moving equity but not PnL.
 */
export function curves(
  days = 30,
  stepMs = 5 * 60_000,
  endMs = NOW,
): { equity: { timestamp: number; value: string }[]; pnl: { timestamp: number; value: string }[] } {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const n = Math.floor((days * DAY) / stepMs);
  const trend = (x: number): number => (x < 0.8 ? 14_400 * Math.sin((x / 0.8) * (Math.PI / 2)) : 14_400 - (x - 0.8) * 18_300);
  const equity: { timestamp: number; value: string }[] = [];
  const pnl: { timestamp: number; value: string }[] = [];
  let noise = 0;
  for (let i = 0; i <= n; i += 1) {
    const x = i / n;
    const timestamp = endMs - (n - i) * stepMs;
    noise = noise * 0.995 + (random() - 0.5) * 90;
    const profit = trend(x) + noise * Math.min(1, x * 20);
    const deposits = endMs - timestamp < DAY / 2 ? 5_000 : 0;
    equity.push({ timestamp, value: (95_000 + deposits + profit).toFixed(2) });
    pnl.push({ timestamp, value: profit.toFixed(2) });
  }
  return { equity, pnl };
}
