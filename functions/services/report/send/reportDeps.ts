import type { AccountsRepository } from '../../../store/accountsRepository';
import type { RecipientsRepository } from '../../../store/recipientsRepository';
import type { DigestSender } from './digestInput';
import type { DailyReportDeps } from './sendAccountReport';

/** What sending reports by recipient needs: the daily report's ports, the recipient records and the digest sender. */
export interface RecipientReportDeps extends DailyReportDeps {
  readonly repos: DailyReportDeps['repos'] & {
    readonly accounts: Pick<AccountsRepository, 'get' | 'getMany' | 'setNextReportAt'>;
    readonly recipients: Pick<RecipientsRepository, 'get' | 'getMany' | 'setNextReportAt'>;
  };
  /** Sends one digest (`sendDigest`). */
  readonly digest: DigestSender;
}
