import * as z from 'zod';
import { SUMMARY_STRING_FIELDS, type SummaryStringField } from './summaryFields';

/** A decimal string that may end in a percent sign, as several summary fields are formatted. */
export const maybePercentStringSchema = z
  .string()
  .regex(/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*%?\s*$/, { message: 'not a decimal or percent string' });

// Any string field may carry a `%` ("for example" in the service description), so all accept it.
const summaryShape = Object.fromEntries(SUMMARY_STRING_FIELDS.map((f) => [f, maybePercentStringSchema])) as Record<
  SummaryStringField,
  typeof maybePercentStringSchema
>;

/** PortfolioSummary exactly as received: strings stay strings. */
export const portfolioSummarySchema = z.object({
  ...summaryShape,
  totalTrades: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type PortfolioSummary = z.infer<typeof portfolioSummarySchema>;
