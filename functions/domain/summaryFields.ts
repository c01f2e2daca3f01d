/** The 17 string-valued fields of PortfolioSummary, in the order the service description lists them. */
export const SUMMARY_STRING_FIELDS = [
  'averageLoss',
  'averageWin',
  'avgDailyPnl',
  'longPnl',
  'losses',
  'maxDrawdownPct',
  'pnl',
  'pnlVolatilityPct',
  'pnlVolatilityUsd',
  'profitFactor',
  'returnPct',
  'sharpeRatio',
  'shortPnl',
  'totalFunding',
  'volume',
  'winRate',
  'wins',
] as const;
export type SummaryStringField = (typeof SUMMARY_STRING_FIELDS)[number];

/** Fields that the chain may format with a trailing `%`. */
export const SUMMARY_PERCENT_FIELDS: ReadonlySet<SummaryStringField> = new Set(['avgDailyPnl', 'maxDrawdownPct', 'pnlVolatilityPct', 'returnPct']);

/** All summary fields, strings plus `totalTrades`. */
export const SUMMARY_FIELDS = [...SUMMARY_STRING_FIELDS, 'totalTrades'] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];
