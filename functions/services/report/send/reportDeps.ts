import type { LinkMinter } from '../../../links/linkMinter';
import type { AccountHistoryRepository } from '../../../store/accountHistoryRepository';
import type { EmailRenderer } from '../../../mail/render/render';
import type { MailSender } from '../../../mail/send/sesSender';
import type { Counters, Log } from '../../../shared/observability';
import type { AccountScheduleRepository } from '../../../store/accountScheduleRepository';
import type { AccountsRepository } from '../../../store/accountsRepository';
import type { CurvesRepository } from '../../../store/curvesRepository';
import type { DelegateViewRepository } from '../../../store/delegateViewRepository';
import type { DeliveryRepository } from '../../../store/deliveryRepository';
import type { PreferencesRepository } from '../../../store/preferencesRepository';
import type { RecipientsRepository } from '../../../store/recipientsRepository';
import type { ReportLedgerRepository } from '../../../store/reportLedgerRepository';
import type { ReportRecordsRepository } from '../../../store/reportRecordsRepository';
import type { SuppressionRepository } from '../../../store/suppressionRepository';
import type { ReportFanOut } from '../../../messages/channelJob';
import type { MessageQueue } from '../../../queue/messageQueue';
import type { ChannelNoticePorts } from '../../delivery/channelNotices';
import type { ReportChain } from '../compose/reportData';
import type { DigestSender } from './digestInput';

/** What sending reports needs, from the worker down to each email (a full `Repositories` fits `repos`). */
export interface ReportDeps {
  readonly repos: {
    /** Re-read when a job runs (it may have been removed); the schedule moved after a report due by it. */
    readonly accounts: Pick<AccountsRepository, 'get' | 'getMany'>;
    readonly schedule: Pick<AccountScheduleRepository, 'setNextReportAt'>;
    /** Whose report is the account's own (`accountFollowers`), and a recipient job's record. */
    readonly recipients: Pick<RecipientsRepository, 'get' | 'getMany'>;
    readonly curves: Pick<CurvesRepository, 'queryRange'>;
    readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
    /** Each report's window summaries, for the next report's changes. */
    readonly reportRecords: Pick<ReportRecordsRepository, 'latestBefore' | 'put'>;
    /** One record per email copy: each is sent once (read first: a report every recipient has is not built again). */
    readonly deliveries: Pick<DeliveryRepository, 'get' | 'begin' | 'holds' | 'complete' | 'fail'>;
    /** Each account's delivery history (the desk page's): where each copy's outcome is recorded. */
    readonly history: Pick<AccountHistoryRepository, 'recordDelivery'>;
    readonly suppressions: Pick<SuppressionRepository, 'filter'>;
    readonly preferences: Pick<PreferencesRepository, 'filter'>;
    /** Told when a job is finished, or why it is to be retried (what reconciliation checks). */
    readonly reportLedger: Pick<ReportLedgerRepository, 'finish' | 'noteFailure'>;
  };
  /** The chain's indexer: each window's summary and curves (`GET /portfolio`). */
  readonly chain: ReportChain;
  readonly renderer: EmailRenderer;
  readonly links: Pick<LinkMinter, 'build'>;
  readonly sender: MailSender;
  /** The sender address (`MAIL_FROM`). */
  readonly mailFrom: string;
  /** Where an account report's chat notice is published (`FANOUT_QUEUE_URL`; `channel-fanout` routes it); without it, email only. */
  readonly fanOutQueue?: MessageQueue<ReportFanOut>;
  /** Where digests go to chat (channels with the `reports` category); without it, email only. */
  readonly channels?: ChannelNoticePorts;
  /** Sends one digest (`sendDigest`). */
  readonly digest: DigestSender;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  /** How long after its due time a scheduled report whose chain reads fail is built from stored data; default 60 s. */
  readonly storedDataGraceMs?: number;
  /** Waits between chain tries during that grace; default real time. */
  readonly sleep?: (ms: number) => Promise<void>;
}
