import { SUMMARY_FIELDS, type SummaryField } from './summaryFields';

/** Every summary field as a plain number (`"12.5%"` is `12.5`), as the chain layer parses it. */
export type SummaryValues = Readonly<Record<SummaryField, number>>;

/** Change of every summary field, `current - previous`. */
export type SummaryDelta = Record<SummaryField, number>;

/** The change of every summary field since `previous`; `null` when there is no previous summary. */
export function summaryDelta(previous: SummaryValues | null | undefined, current: SummaryValues): SummaryDelta | null {
  if (!previous) return null;
  const delta = {} as SummaryDelta;
  for (const field of SUMMARY_FIELDS) delta[field] = current[field] - previous[field];
  return delta;
}
