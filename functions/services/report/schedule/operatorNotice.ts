import { buildMime } from '../../../mail/send/mime';
import type { MailSender } from '../../../mail/send/sesSender';
import { reportJobTarget } from '../../../messages/reportJob';
import type { Log } from '../../../shared/observability';
import type { MissedReport } from '../../../store/missedReportsRepository';

/** Tells the operator about reports recorded as missed. */
export interface OperatorNotice {
  tell(missed: readonly MissedReport[], now: number): Promise<void>;
}

export interface OperatorNoticeDeps {
  /** `OPERATOR_EMAIL`; null: a log line instead of an email. */
  readonly operatorEmail: string | null;
  readonly sender: MailSender;
  readonly mailFrom: string;
  readonly log: Log;
}

/** One line per missed report: who, which day, when it was due (UTC), and why. */
export function missedReportLine(missed: MissedReport): string {
  const { job } = missed;
  const what = job.kind === 'recipient' ? `recipient ${reportJobTarget(job)}` : `account ${reportJobTarget(job)}`;
  const due = new Date(job.dueAt).toISOString().slice(11, 16);
  return `${what}: report of ${job.reportDate}, due ${due} UTC (${missed.reason ?? 'no attempt finished'})`;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The operator notice: one email to `OPERATOR_EMAIL` listing the reports just found missed (and how
 * to send them), or, with no operator address, one warning log line (no addresses in it). In AWS the
 * `ReportsMissed` metric's alarm tells the alarm topic as well.
 */
export function operatorNotice(deps: OperatorNoticeDeps): OperatorNotice {
  return {
    async tell(missed, now) {
      if (missed.length === 0) return;
      if (deps.operatorEmail === null) {
        deps.log.warn('reports missed (no OPERATOR_EMAIL: nobody emailed)', { missed: missed.length, retry: 'sentinel report --retry-missed' });
        return;
      }
      const lines = missed.map(missedReportLine);
      const intro = `${missed.length} report${missed.length === 1 ? ' was' : 's were'} claimed and not delivered within the grace after their due time:`;
      const outro = 'Send them (once each, under their regular delivery ids) with: sentinel report --retry-missed';
      const raw = await buildMime({
        from: deps.mailFrom,
        to: [deps.operatorEmail],
        subject: `Portfolio Sentinel: ${missed.length} report${missed.length === 1 ? '' : 's'} missed`,
        text: [intro, '', ...lines.map((l) => `- ${l}`), '', outro, ''].join('\n'),
        html: `<p>${escape(intro)}</p><ul>${lines.map((l) => `<li>${escape(l)}</li>`).join('')}</ul><p>${escape(outro)}</p>`,
        eventId: `missed-reports:${now}`,
        date: new Date(now),
      });
      await deps.sender.send({ raw, destinations: [deps.operatorEmail] });
      deps.log.warn('reports missed: operator emailed', { missed: missed.length });
    },
  };
}
