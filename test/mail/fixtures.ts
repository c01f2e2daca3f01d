import type {
  DailyReportView,
  DelegateExpiryView,
  DrawdownAlertView,
  EmailKind,
  EmailViews,
  NewDelegateView,
  RevocationResultView,
} from '../../functions/mail/views';

/** Realistic views for the five emails; tests derive variations from them. */

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

export const dailyReport: DailyReportView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  period: { startMs: Date.parse('2025-03-02T23:00:00Z'), endMs: Date.parse('2025-03-03T23:00:00Z') },
  trackingSinceMs: Date.parse('2025-01-15T09:30:00Z'),
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
  metrics: [
    { key: 'pnl', label: 'Total PnL', description: 'Profit and loss since tracking started, net of deposits and withdrawals.', unit: 'usd', value: 10_734.56, delta: 1_484.44, better: 'higher' },
    { key: 'winRate', label: 'Win rate', description: 'Share of closed trades that made money.', unit: 'percent', value: 56.4, delta: 1.2, better: 'higher' },
    { key: 'profitFactor', label: 'Profit factor', description: 'Gross profit divided by gross loss; above 1 means winners outweigh losers.', unit: 'ratio', value: 1.87, delta: -0.04, better: 'higher' },
    { key: 'sharpeRatio', label: 'Sharpe ratio', description: 'Return per unit of volatility; higher is steadier.', unit: 'ratio', value: 2.31, delta: 0.12, better: 'higher' },
    { key: 'pnlVolatilityPct', label: 'Volatility', description: 'How much daily PnL swings, as a share of equity.', unit: 'percent', value: 2.05, delta: 0.31, better: 'lower' },
    { key: 'totalTrades', label: 'Trades', description: 'Number of trades executed.', unit: 'count', value: 1_284, delta: 37, better: 'neutral' },
    { key: 'volume', label: 'Volume', description: 'Notional value traded.', unit: 'usd', value: 4_812_330.5, delta: 151_220.75, better: 'neutral' },
    { key: 'totalFunding', label: 'Funding', description: 'Funding payments received (positive) or paid (negative).', unit: 'usd', value: -412.37, delta: -18.5, better: 'higher' },
    { key: 'longPnl', label: 'Long PnL', description: 'PnL from long positions.', unit: 'usd', value: 7_950.1, delta: 1_210.02, better: 'higher' },
    { key: 'shortPnl', label: 'Short PnL', description: 'PnL from short positions.', unit: 'usd', value: 2_784.46, delta: null, better: 'higher' },
  ],
  chart: { cid: 'equity-chart@sentinel', alt: 'Equity and PnL over the last 30 days', width: 544, height: 320 },
  delegates: [
    { name: 'market-maker-1', address: BOT_KEY, kind: 'api-key', expiryMs: NOW + 3 * DAY + 4 * HOUR, revokeUrl: revokeUrl(BOT_KEY) },
    { name: 'Web session', address: WEB_KEY, kind: 'web-session', expiryMs: NOW + 29 * DAY, revokeUrl: revokeUrl(WEB_KEY) },
  ],
  removedDelegates: [{ name: 'old-bot', address: OLD_KEY, removedAtMs: NOW - 10 * HOUR }],
};

export const drawdownAlert: DrawdownAlertView = {
  account: { address: ACCOUNT, label: 'bot-main' },
  generatedAtMs: NOW,
  links,
  thresholdPct: 10,
  repeat: false,
  drawdown: { currentPct: 10.42, currentUsd: 11_921.4, maxPct: 10.42, maxUsd: 11_921.4, peakEquityUsd: 114_406.46, peakAtMs: Date.parse('2025-02-26T14:00:00Z') },
  equityUsd: 102_485.06,
  thresholdsPct: [5, 10, 20],
  rearmMarginPct: 1,
  lastPointAtMs: NOW - 60_000,
  chart: null,
  snoozeLinks: [
    { label: 'Snooze 24 hours', url: `${BASE}/s/snooze-24h-token` },
    { label: 'Snooze 7 days', url: `${BASE}/s/snooze-7d-token` },
  ],
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

export const views: { [K in EmailKind]: EmailViews[K] } = {
  'daily-report': dailyReport,
  'drawdown-alert': drawdownAlert,
  'delegate-expiry': delegateExpiry,
  'new-delegate': newDelegate,
  'revocation-result': revocationResult,
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
