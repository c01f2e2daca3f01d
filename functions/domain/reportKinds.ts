import type { ReportPeriod } from './recipientSchedule';

/** The email kind recorded on each report's delivery (all in the `reports` category). */
export const REPORT_KINDS: Readonly<Record<ReportPeriod, string>> = { day: 'daily-report', week: 'weekly-report', month: 'monthly-report' };
