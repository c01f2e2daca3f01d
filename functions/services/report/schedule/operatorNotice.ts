import { buildMime } from '../../../mail/send/mime';
import type { MailSender } from '../../../mail/send/sesSender';
import { reportJobTarget } from '../../../messages/reportJob';
import type { Log } from '../../../shared/observability';
import type { MissedReport } from '../../../store/missedReportsRepository';
import { operatorAudience, type OperatorPorts } from '../../../notices/audience';

/** Tells the operator about reports recorded as missed. */
export interface OperatorNotice {
  tell(missed: readonly MissedReport[], now: number): Promise<void>;
}

export interface OperatorNoticeDeps {
  /** Who the operators are (`audience.operatorAudience`); none: a log line instead of an email. */
  readonly operators: OperatorPorts;
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
 * The operator notice: one email to the operators (`OPERATOR_EMAIL`, the marked ones) listing the reports just found missed (and how
 * to send them), or, with no operator, one warning log line (no addresses in it). In AWS the
 * `ReportsMissed` metric's alarm tells the alarm topic as well.
 */
export function operatorNotice(deps: OperatorNoticeDeps): OperatorNotice {
  return {
    async tell(missed, now) {
      if (missed.length === 0) return;
      const operators = await operatorAudience(deps.operators);
      if (operators.length === 0) {
        deps.log.warn('reports missed (no OPERATOR_EMAIL nor marked operator: nobody emailed)', {
          missed: missed.length,
          retry: 'sentinel report --retry-missed',
        });
        return;
      }
      const lines = missed.map(missedReportLine);
      const intro = `${missed.length} report${missed.length === 1 ? ' was' : 's were'} claimed and not delivered within the grace after their due time:`;
      const outro = 'Send them (once each, under their regular delivery ids) with: sentinel report --retry-missed';
      const raw = await buildMime({
        from: deps.mailFrom,
        to: operators,
        subject: `Portfolio Sentinel: ${missed.length} report${missed.length === 1 ? '' : 's'} missed`,
        text: [intro, '', ...lines.map((l) => `- ${l}`), '', outro, ''].join('\n'),
        html: `<p>${escape(intro)}</p><ul>${lines.map((l) => `<li>${escape(l)}</li>`).join('')}</ul><p>${escape(outro)}</p>`,
        eventId: `missed-reports:${now}`,
        date: new Date(now),
      });
      await deps.sender.send({ raw, destinations: operators });
      deps.log.warn('reports missed: operators emailed', { missed: missed.length, operators: operators.length });
    },
  };
}
