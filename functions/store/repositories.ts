import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AccountScheduleRepository } from './accountScheduleRepository';
import { AccountsRepository } from './accountsRepository';
import { AlertStateRepository } from './alertStateRepository';
import { AuditRepository } from './auditRepository';
import { ChannelBacklogRepository } from './channelBacklogRepository';
import { ChannelsRepository } from './channelsRepository';
import { PaceRepository } from './paceRepository';
import { CurvesRepository } from './curvesRepository';
import { DelegateViewRepository } from './delegateViewRepository';
import { KnownDelegatesRepository } from './knownDelegatesRepository';
import { DeliveryRepository, type DeliveryRepositoryOptions } from './deliveryRepository';
import { LeaseRepository } from './leaseRepository';
import { OnboardingBatchRepository } from './onboardingBatchRepository';
import { OnboardingProgressRepository } from './onboardingProgressRepository';
import { MissedReportsRepository } from './missedReportsRepository';
import { ReportLedgerRepository } from './reportLedgerRepository';
import { ReportRecordsRepository } from './reportRecordsRepository';
import { PreferencesRepository } from './preferencesRepository';
import { RecipientsRepository } from './recipientsRepository';
import { SnapshotsRepository } from './snapshotsRepository';
import { SuppressionRepository } from './suppressionRepository';
import { TokenRepository } from './tokenRepository';
import { RevokeAllRepository } from './revokeAllRepository';
import { DecisionRepository } from './decisionRepository';
import { ProtectionLedgerRepository } from './protectionLedgerRepository';
import { PagerIncidentsRepository } from './pagerIncidentsRepository';
import { DeskSessionRepository } from './deskSessionRepository';
import { DeskRecipientRepository } from './deskRecipientRepository';
import { DeskSignInRepository } from './deskSignInRepository';
import { DeskRateRepository } from './deskRateRepository';
import { DeskOperatorsRepository } from './deskOperatorsRepository';
import { DeskChallengeRepository } from './deskChallengeRepository';
import { DeskChannelTestRepository } from './deskChannelTestRepository';
import { PasskeyRepository } from './passkeyRepository';
import { DeskSummaryRepository } from './deskSummaryRepository';
import { AccountHistoryRepository } from './accountHistoryRepository';

/** Every repository, sharing one client and table prefix. */
export interface Repositories {
  readonly accounts: AccountsRepository;
  /** Which accounts are due, and the report and dispatch schedule (items in `accounts`). */
  readonly schedule: AccountScheduleRepository;
  /** Onboarding batches' members, by `createdAt` (the `byBatch` index of `accounts`). */
  readonly onboardingBatches: OnboardingBatchRepository;
  readonly curves: CurvesRepository;
  readonly snapshots: SnapshotsRepository;
  readonly alerts: AlertStateRepository;
  readonly delegates: DelegateViewRepository;
  /** Unknown-key protection: known keys, announcements, unknown keys seen (items in `delegates`). */
  readonly knownDelegates: KnownDelegatesRepository;
  readonly tokens: TokenRepository;
  /** Revoke-all batches (in the tokens table). */
  readonly revokeAll: RevokeAllRepository;
  /** Protective decisions and their signing marks (in the tokens table). */
  readonly decisions: DecisionRepository;
  /** Counted automatic actions: the caps per account and the stage-wide breaker (in the alerts table). */
  readonly protectionLedger: ProtectionLedgerRepository;
  readonly audit: AuditRepository;
  readonly deliveries: DeliveryRepository;
  /** Window summaries of sent reports (items in `deliveries`). */
  readonly reportRecords: ReportRecordsRepository;
  /** The report jobs dispatch claimed and whether each was finished (items in `deliveries`). */
  readonly reportLedger: ReportLedgerRepository;
  /** Reports recorded as missed by reconciliation (items in `deliveries`). */
  readonly missedReports: MissedReportsRepository;
  /** How far each onboarding batch's checks got, and which one announces it (items in `deliveries`). */
  readonly onboardingProgress: OnboardingProgressRepository;
  readonly suppressions: SuppressionRepository;
  readonly preferences: PreferencesRepository;
  /** Recipient records (items in `preferences`). */
  readonly recipients: RecipientsRepository;
  readonly leases: LeaseRepository;
  readonly channels: ChannelsRepository;
  /** Notices waiting for a rate-limited chat, to be sent as one summary (items in `channels`). */
  readonly channelBacklog: ChannelBacklogRepository;
  /** Send slots per destination shared by every channel-worker instance (items in `channels`). */
  readonly pace: PaceRepository;
  /** The pager incidents each channel was sent a trigger for and no resolve yet (items in `channels`). */
  readonly incidents: PagerIncidentsRepository;
  /** Desk page sessions (table `desk`). */
  readonly deskSessions: DeskSessionRepository;
  /** Per recipient: the desk sessions epoch and passkeys (table `desk`). */
  readonly deskRecipients: DeskRecipientRepository;
  /** Used desk sign-in links (table `desk`). */
  readonly deskSignIns: DeskSignInRepository;
  /** Sign-in request counters (table `desk`). */
  readonly deskRates: DeskRateRepository;
  /** Who sees every account on the desk page (table `desk`). */
  readonly deskOperators: DeskOperatorsRepository;
  /** Passkey challenges, used once (table `desk`). */
  readonly deskChallenges: DeskChallengeRepository;
  /** The channels page's Test presses: who tested which channel when, and the outcome (table `desk`). */
  readonly deskChannelTests: DeskChannelTestRepository;
  /** Registered passkeys (table `desk`). */
  readonly passkeys: PasskeyRepository;
  /** Per account, the desk overview's figures as of its latest poll (items in `alerts`). */
  readonly deskSummaries: DeskSummaryRepository;
  /** Each account's alert history and deliveries, for the desk page (table `history`). */
  readonly history: AccountHistoryRepository;
}

/** Builds every repository over one document client and table prefix (once per cold start). */
export function createRepositories(client: DynamoDBDocumentClient, prefix: string, options: DeliveryRepositoryOptions = {}): Repositories {
  return {
    accounts: new AccountsRepository(client, prefix, options),
    schedule: new AccountScheduleRepository(client, prefix, options),
    onboardingBatches: new OnboardingBatchRepository(client, prefix, options),
    curves: new CurvesRepository(client, prefix, options),
    snapshots: new SnapshotsRepository(client, prefix, options),
    alerts: new AlertStateRepository(client, prefix),
    delegates: new DelegateViewRepository(client, prefix, options),
    knownDelegates: new KnownDelegatesRepository(client, prefix, options),
    tokens: new TokenRepository(client, prefix, options),
    revokeAll: new RevokeAllRepository(client, prefix, options),
    decisions: new DecisionRepository(client, prefix, options),
    protectionLedger: new ProtectionLedgerRepository(client, prefix, options),
    audit: new AuditRepository(client, prefix),
    deliveries: new DeliveryRepository(client, prefix, options),
    reportRecords: new ReportRecordsRepository(client, prefix, options),
    reportLedger: new ReportLedgerRepository(client, prefix, options),
    missedReports: new MissedReportsRepository(client, prefix, options),
    onboardingProgress: new OnboardingProgressRepository(client, prefix, options),
    suppressions: new SuppressionRepository(client, prefix, options),
    preferences: new PreferencesRepository(client, prefix, options),
    recipients: new RecipientsRepository(client, prefix, options),
    leases: new LeaseRepository(client, prefix),
    channels: new ChannelsRepository(client, prefix, options),
    channelBacklog: new ChannelBacklogRepository(client, prefix, options),
    pace: new PaceRepository(client, prefix, options),
    incidents: new PagerIncidentsRepository(client, prefix, options),
    deskSessions: new DeskSessionRepository(client, prefix, options),
    deskRecipients: new DeskRecipientRepository(client, prefix, options),
    deskSignIns: new DeskSignInRepository(client, prefix, options),
    deskRates: new DeskRateRepository(client, prefix, options),
    deskOperators: new DeskOperatorsRepository(client, prefix, options),
    deskChallenges: new DeskChallengeRepository(client, prefix, options),
    deskChannelTests: new DeskChannelTestRepository(client, prefix, options),
    passkeys: new PasskeyRepository(client, prefix, options),
    deskSummaries: new DeskSummaryRepository(client, prefix, options),
    history: new AccountHistoryRepository(client, prefix, options),
  };
}
