import { ALERT_HISTORY_PREFIX, DELIVERY_HISTORY_PREFIX } from '../../functions/store/accountHistoryRepository';
import { CONTROLS_KEY_PREFIX } from '../../functions/store/alertStateRepository';
import { MAILBOX_EVENT_PREFIX } from '../../functions/services/preferences/mailboxNotice';
import { DESK_SUMMARY_KEY_PREFIX } from '../../functions/store/deskSummaryRepository';
import { DECISION_KEY_PREFIX, DECISION_SIGNING_KEY_PREFIX } from '../../functions/store/decisionRepository';
import { DECISIONS_BY_ACCOUNT_INDEX } from '../../functions/store/tableDefinitions';
import { CONSUMED_TOKEN_ATTRIBUTES } from '../../functions/store/tokenRepository';
import { REVOKE_ALL_REQUEST_ATTRIBUTES, REVOKE_ALL_RESULT_ATTRIBUTES } from '../../functions/store/revokeAllRepository';
import { CfnOutput, Fn, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  DomainName,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  RestApi,
  SecurityPolicy,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { LINK_API_STAGE, apiIdParameter, channelSecretPrefix, linkApiName, publicBaseUrlParameter, signerRoleName } from '../config/resourceNames';
import type { StageConfig } from '../config/stageConfig';
import { REVOCATION_BATCH_SIZE } from '../../functions/services/revocation/revocationQueueSettings';
import { DECISION_BATCH_SIZE } from '../../functions/services/protection/decisionQueueSettings';
import { LinkFirewall } from '../constructs/LinkFirewall';
import { ownerKeyAlias } from '../constructs/OwnerKeys';
import { SentinelFunction } from '../constructs/SentinelFunction';
import type { DataStack } from './DataStack';
import type { MessagingStack } from './MessagingStack';

/**
 * Requests per second (and burst) the whole link endpoint accepts. Shared by every client, so it
 * is set high enough that the clients the WAF lets through (`linkRateLimit` each) cannot fill it
 * before they number in the hundreds (the arithmetic is in docs/security.md); POSTs carrying no
 * well-formed token never count (the WAF blocks them first). There is no per-method throttle on
 * `POST /revoke` any more: a shared cap there was the cheapest target of a flood; the signer is
 * guarded by its own reserved concurrency and by the page, which invokes it only for a verified,
 * freshly consumed link.
 */
export const LINK_ENDPOINT_THROTTLE = { rateLimit: 200, burstLimit: 400 };

/**
 * Reserved concurrency of `revoke-page`: a flood of page requests cannot take concurrency from
 * collect and notify, and they cannot starve it either. A junk POST is answered from the token's
 * format or signature alone, without a DynamoDB call or an invoke (milliseconds), so the stage's
 * whole rate of junk holds only a few instances.
 */
export const REVOKE_PAGE_CONCURRENCY = 20;

/**
 * Reserved concurrency of `decision-worker`, the consumer of automatic revocations: one instance,
 * so automatic work holds at most one signer instance however many accounts fire (one delegate
 * signs in seconds; the breaker caps firings at a few accounts an hour), and a click on a
 * one-delegate link finds another whenever the signer has two or more (`signerConcurrency`).
 */
export const DECISION_WORKER_CONCURRENCY = 1;

/**
 * Reserved concurrency of `revoke-all-worker`: the signer's less one for clicks and less the
 * decision worker's, so the two queues together hold at most `signerConcurrency - 1` signer
 * instances and a click on a one-delegate link still finds one (from `signerConcurrency` 3 on);
 * at least 1. With `signerConcurrency` 2 (the default) both queues working at the same moment
 * take both instances for the seconds a unit signs, and a click may read "busy, try again";
 * with 1, everything shares the one instance (docs/security.md, "Authority and its bounds").
 */
export function revokeAllWorkerConcurrency(signerConcurrency: number): number {
  return Math.max(1, signerConcurrency - 1 - DECISION_WORKER_CONCURRENCY);
}

/** The public paths, each answering GET and POST, and the page function behind it. */
export const LINK_ROUTES = {
  revoke: 'revoke-page',
  'revoke-all': 'revoke-all-page',
  unsubscribe: 'preferences-page',
  preferences: 'preferences-page',
  snooze: 'preferences-page',
} as const;

export interface WebStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly messaging: MessagingStack;
}

/**
 * The link endpoint and the revocation path: a regional REST API with `GET|POST /revoke`
 * (revoke-page), `GET|POST /revoke-all` (revoke-all-page, which queues on the revocations FIFO
 * queue for `revoke-all-worker`), `GET|POST /unsubscribe`, `/preferences` and `/snooze` (preferences-page), behind a
 * WAF web ACL associated with its stage (per-client rate limits, stricter for anonymous addresses,
 * the AWS IP reputation list, POSTs without a well-formed link token refused), and
 * the private `sign-revocation` function, invocable by `revoke-page`, `revoke-all-worker` and `decision-worker` only, allowed to sign with the
 * owner keys of the keys stack. The web ACL sits on the stage itself, so every way in (the custom
 * domain, or the execute-api endpoint when there is none) goes through it. It exports nothing: the
 * base URL and the API id go to SSM parameters (`/sentinel/<stage>/public-base-url`,
 * `/sentinel/<stage>/api-id`); monitoring finds the API and the ACL by their fixed names.
 */
export class WebStack extends Stack {
  readonly api: RestApi;
  readonly firewall: LinkFirewall;
  /** Base of every link in emails: the custom domain when configured, else the API's stage URL. */
  readonly publicBaseUrl: string;
  readonly revokePage: SentinelFunction;
  /** `/revoke-all`: lists the delegates, queues one revocation each; cannot invoke the signer. */
  readonly revokeAllPage: SentinelFunction;
  /** The revocations queue's consumer: one delegate at a time per account, through the signer. */
  readonly revokeAllWorker: SentinelFunction;
  /** The protective-decision queue's consumer: automatic revocations, one delegate at a time, through the signer. */
  readonly decisionWorker: SentinelFunction;
  readonly preferencesPage: SentinelFunction;
  /** `/desk`: the desk page, read-only over the store but its own `desk` table. */
  readonly deskPage: SentinelFunction;
  readonly signRevocation: SentinelFunction;
  /** Private: the desk's Test button's channel test, the only function of this stack that reads channel secrets. */
  readonly channelTest: SentinelFunction;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config, data, messaging } = props;
    const table = data.tables.get.bind(data.tables);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention });
    this.api = new RestApi(this, 'Api', {
      restApiName: linkApiName(config.prefix),
      description: 'Action links from emails: revoke a delegate, unsubscribe, preferences, snooze.',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // With a custom domain, links use it only: the execute-api endpoint would bypass its mapping.
      disableExecuteApiEndpoint: config.domain !== undefined,
      // Execution logs need an account-wide role and would log query strings (link tokens); access logs below.
      cloudWatchRole: false,
      deployOptions: {
        stageName: LINK_API_STAGE,
        throttlingRateLimit: LINK_ENDPOINT_THROTTLE.rateLimit,
        throttlingBurstLimit: LINK_ENDPOINT_THROTTLE.burstLimit,
        tracingEnabled: config.tracing,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        // Resource path and method, never the request path or query string: link tokens must not reach the logs.
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            resource: '$context.resourcePath',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integration.error',
            waf: '$context.wafResponseCode',
          }),
        ),
      },
    });
    this.firewall = new LinkFirewall(this, 'Firewall', { prefix: config.prefix, limits: config.linkRateLimit, stage: this.api.deploymentStage });
    const domain = config.domain
      ? new DomainName(this, 'Domain', {
          domainName: config.domain.name,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', config.domain.certificateArn),
          endpointType: EndpointType.REGIONAL,
          securityPolicy: SecurityPolicy.TLS_1_2,
        })
      : undefined;
    // The whole domain (no base path) maps to the stage.
    domain?.addApiMapping(this.api.deploymentStage);
    this.publicBaseUrl = config.domain
      ? `https://${config.domain.name}`
      : Fn.join('', ['https://', this.api.restApiId, '.execute-api.', Stack.of(this).region, '.', Stack.of(this).urlSuffix, `/${LINK_API_STAGE}`]);

    this.signRevocation = new SentinelFunction(this, 'SignRevocation', {
      handler: 'sign-revocation',
      config,
      description: 'Private: signs RemoveDelegateManager with the account owner key in KMS and submits it.',
      // The owner keys' policies admit this role by its fixed ARN.
      roleName: signerRoleName(config.prefix),
      // Each instance has its own chain token bucket: capping instances caps the signer's chain rate.
      reservedConcurrency: config.rate.signerConcurrency,
    });
    this.signRevocation
      .bindOwnerKeys({ aliases: config.ownerKeys.map((name) => ownerKeyAlias(config.stage, name)), arns: config.ownerKeyArns })
      .bindTable(table('accounts'), 'read')
      .bindTable(table('leases'), 'write')
      // Audit records are put once each (intent, outcome), never updated or deleted.
      .bindTableActions(table('audit'), ['dynamodb:PutItem'])
      // Reads the consumed revoke token and marks it signed; never creates or deletes one, never touches another purpose's.
      .bindTableActions(table('tokens'), ['dynamodb:GetItem', 'dynamodb:UpdateItem'], { leadingKeys: ['revoke#*'] })
      // Automatic actions: the decision it re-checks (read only); its per-delegate units (what it did
      // with each delegate: conditional puts, never deleted); the caps and the breakers, counted at
      // signing time by compare-and-set, which no other function can read or write; and the
      // account's known and announced keys (read). It can write no decision and no key.
      .bindTableActions(table('tokens'), ['dynamodb:GetItem'], { leadingKeys: ['decision#*'] })
      .bindTableActions(table('tokens'), ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:PutItem'], { leadingKeys: ['decision-signing#*'] })
      .bindTableActions(table('tokens'), ['dynamodb:GetItem', 'dynamodb:PutItem'], { leadingKeys: ['protection-cap#*', 'protection-breaker#*'] })
      .bindTableActions(table('delegates'), ['dynamodb:Query'])
      // A key it found gone from the chain is marked removed in the account's delegate views (`removedAt` only, `0x*` partitions).
      .bindUpdateItem(table('delegates'), ['address', 'delegate', 'removedAt'], { leadingKeys: ['0x*'] })
      // The result notice: published to the notify queue (email) and the fan-out queue (its fan-out job).
      .bindQueue(messaging.notify, 'NOTIFY_QUEUE_URL')
      .bindQueue(messaging.fanout, 'FANOUT_QUEUE_URL')
      .bindChain(config.chain, config.rate.signerInstanceRps)
      .bindProtectionSwitch(data.protectionParameterName)
      // A click's signed link, verified here with the published public keys of revoke and revoke-all
      // (no private key, no anti-CSRF secret), and the channel a chat's link names (its link epoch): one item read.
      .bindLinkKeys(data.linkKeys)
      .bindTableActions(table('channels'), ['dynamodb:GetItem'], { leadingKeys: ['channel'] });

    this.revokePage = new SentinelFunction(this, 'RevokePage', {
      handler: 'revoke-page',
      config,
      description: 'Public: revocation confirmation page (GET) and confirmed revocation (POST).',
      reservedConcurrency: REVOKE_PAGE_CONCURRENCY,
    });
    this.revokePage
      .bindTables(table, ['accounts', 'delegates', 'suppressions'], 'read')
      // Whether any recipient still gets security notices (the result email): one BatchGetItem.
      .bindTableActions(table('preferences'), ['dynamodb:BatchGetItem'])
      // Consumes a revoke token (conditional put of a consumed token's attributes only: never `signedAt`
      // or an outcome, which the signer alone writes), releases it when nothing was sent (delete), and
      // reads it (a used link's page says what happened, from the outcome the signer kept on it).
      .bindPutItem(table('tokens'), CONSUMED_TOKEN_ATTRIBUTES, { leadingKeys: ['revoke#*'] })
      .bindTableActions(table('tokens'), ['dynamodb:DeleteItem', 'dynamodb:GetItem'], { leadingKeys: ['revoke#*'] })
      // A chat's link: the channel it names, one item read (its link epoch withdraws the link).
      .bindTableActions(table('channels'), ['dynamodb:GetItem'], { leadingKeys: ['channel'] })
      .bindLinkKeys(data.linkKeys)
      .bindInvoke(this.signRevocation.fn, 'SIGN_REVOCATION_FUNCTION_NAME')
      .bindPublicBaseUrl(this.publicBaseUrl);

    this.revokeAllPage = new SentinelFunction(this, 'RevokeAllPage', {
      handler: 'revoke-all-page',
      config,
      description: 'Public: revoke-all confirmation page (GET), one queued revocation per delegate (POST), and the result page.',
    });
    this.revokeAllPage
      .bindTableActions(table('accounts'), ['dynamodb:GetItem'])
      .bindTableActions(table('delegates'), ['dynamodb:Query'])
      // The batch of a revoke-all link: read, and each unit marked queued (conditional updates naming the
      // batch's requests only, never a unit's result); never a revoke token.
      .bindTableActions(table('tokens'), ['dynamodb:GetItem'], { leadingKeys: ['revoke-all#*'] })
      .bindUpdateItem(table('tokens'), REVOKE_ALL_REQUEST_ATTRIBUTES, { leadingKeys: ['revoke-all#*'] })
      // A chat's link: the channel it names, one item read (its link epoch withdraws the link).
      .bindTableActions(table('channels'), ['dynamodb:GetItem'], { leadingKeys: ['channel'] })
      .bindLinkKeys(data.linkKeys)
      .bindQueue(messaging.revocations, 'REVOCATION_QUEUE_URL')
      .bindPublicBaseUrl(this.publicBaseUrl);

    this.revokeAllWorker = new SentinelFunction(this, 'RevokeAllWorker', {
      handler: 'revoke-all-worker',
      config,
      description: 'Revokes the delegates queued on the revocations FIFO queue one at a time per account, each through sign-revocation.',
      reservedConcurrency: revokeAllWorkerConcurrency(config.rate.signerConcurrency),
    });
    this.revokeAllWorker
      // The batch: read, and each unit's result recorded (updates naming the results only, never a queued attempt).
      .bindTableActions(table('tokens'), ['dynamodb:GetItem'], { leadingKeys: ['revoke-all#*'] })
      .bindUpdateItem(table('tokens'), REVOKE_ALL_RESULT_ATTRIBUTES, { leadingKeys: ['revoke-all#*'] })
      // Each unit's own single-use revoke token: consumed (conditional put of a consumed token's attributes
      // only, never the signer's `signedAt` or outcome), read, released when nothing was sent.
      .bindPutItem(table('tokens'), CONSUMED_TOKEN_ATTRIBUTES, { leadingKeys: ['revoke#*'] })
      .bindTableActions(table('tokens'), ['dynamodb:GetItem', 'dynamodb:DeleteItem'], { leadingKeys: ['revoke#*'] })
      .bindInvoke(this.signRevocation.fn, 'SIGN_REVOCATION_FUNCTION_NAME')
      // The revoke-all result: published to the notify queue (email) and the fan-out queue (its fan-out job).
      .bindQueue(messaging.notify, 'NOTIFY_QUEUE_URL')
      .bindQueue(messaging.fanout, 'FANOUT_QUEUE_URL')
      .bindProtectionSwitch(data.protectionParameterName)
      // One message per invocation: a group's next delegate is delivered only after this one's answer.
      .consumeQueue(messaging.revocations, { batchSize: REVOCATION_BATCH_SIZE });

    this.decisionWorker = new SentinelFunction(this, 'DecisionWorker', {
      handler: 'decision-worker',
      config,
      description:
        'Revokes the delegates of protective decisions queued on the decisions FIFO queue, one at a time, each through sign-revocation (which re-checks the decision).',
      reservedConcurrency: DECISION_WORKER_CONCURRENCY,
    });
    this.decisionWorker
      // Its only grant besides its queue: invoking the signer, which holds every check and every write.
      .bindInvoke(this.signRevocation.fn, 'SIGN_REVOCATION_FUNCTION_NAME')
      // One message per invocation: an account's next delegate is delivered only after this one's answer.
      .consumeQueue(messaging.decisions, { batchSize: DECISION_BATCH_SIZE });

    this.preferencesPage = new SentinelFunction(this, 'PreferencesPage', {
      handler: 'preferences-page',
      config,
      description: 'Public: email preferences, unsubscribe by category (incl. RFC 8058 one-click POST) and snooze pages.',
    });
    this.preferencesPage
      // Opt-outs by category and link epoch: read; add or replace the opt-outs, stamp a mailed link
      // (UpdateItem of those attributes only: never the link epoch or a recipient's schedule); never suppressions.
      .bindTableActions(table('preferences'), ['dynamodb:GetItem'])
      .bindUpdateItem(table('preferences'), ['email', 'optOuts', 'updatedAt', 'linkMailedAt'])
      // A recipient's snooze and a chat's controls: read (also where they were kept before the move), and
      // written back conditionally under `controls#<account>` only: never an alert state, a kill-switch state, a cap or the breaker.
      .bindTableActions(table('alerts'), ['dynamodb:GetItem'])
      .bindTableActions(table('alerts'), ['dynamodb:PutItem'], { leadingKeys: [`${CONTROLS_KEY_PREFIX}*`] })
      // The snoozed account's label, zone and recipients: one item read.
      .bindTableActions(table('accounts'), ['dynamodb:GetItem'])
      // A chat link's channel: one item read of the channels' partition (its creation and link epoch void older links).
      .bindTableActions(table('channels'), ['dynamodb:GetItem'], { leadingKeys: ['channel'] })
      // Consumes a snooze token (conditional put of a consumed token's attributes only) and releases it on
      // failure (delete); no reads, no updates, and no revoke token: it can neither create nor alter one.
      .bindPutItem(table('tokens'), CONSUMED_TOKEN_ATTRIBUTES, { leadingKeys: ['snooze#*'] })
      .bindTableActions(table('tokens'), ['dynamodb:DeleteItem'], { leadingKeys: ['snooze#*'] })
      // The snooze it set, into the account's alert history: put only, never read.
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${ALERT_HISTORY_PREFIX}*`] })
      // Its mailbox notices, recorded as every email is: their delivery records (claimed and finished
      // by conditional updates, under `mailbox:` only) and their entries in the account's delivery history.
      .bindTableActions(table('deliveries'), ['dynamodb:UpdateItem'], { leadingKeys: [`${MAILBOX_EVENT_PREFIX}*`] })
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${DELIVERY_HISTORY_PREFIX}*`] })
      .bindLinkKeys(data.linkKeys)
      // The mailbox's own notices: the security-off confirmation and notice, a new preferences link.
      .bindMail(messaging.mail)
      .bindPublicBaseUrl(this.publicBaseUrl);

    this.channelTest = new SentinelFunction(this, 'ChannelTest', {
      handler: 'channel-test',
      config,
      description: "Private: sends one channel's test message for the desk's Test button (the only web function reading channel secrets).",
    });
    this.channelTest
      // Reads the tested channel and records its state, last delivery or migrated chat id (updates of the `channel`
      // partition only: never a pacing slot, a backlog or an incident; never a create or a delete).
      .bindTableActions(table('channels'), ['dynamodb:GetItem', 'dynamodb:UpdateItem'], { leadingKeys: ['channel'] })
      .bindSecretsUnder(channelSecretPrefix(config.stage));

    this.deskPage = new SentinelFunction(this, 'DeskPage', {
      handler: 'desk-page',
      config,
      description:
        'Public: the desk page (sign-in by email link or passkey; the accounts a recipient receives), read-only over the store but its own desk table.',
    });
    this.deskPage
      // Which accounts a viewer receives: one account by key, its recipient record's set
      // (BatchGetItem), or the listing (the byNextReport shards, keys only, then BatchGetItem).
      .bindTableActions(table('accounts'), ['dynamodb:GetItem', 'dynamodb:BatchGetItem'])
      .bindIndexQuery(table('accounts'), 'byNextReport')
      .bindTableActions(table('preferences'), ['dynamodb:GetItem'])
      // An account's figures: its curve, latest snapshot, alert states (the drawdown rollup among them), delegates and known keys.
      .bindTableActions(table('curves'), ['dynamodb:Query'])
      .bindTableActions(table('snapshots'), ['dynamodb:Query'])
      .bindTableActions(table('alerts'), ['dynamodb:Query'])
      // Its one write outside its table: a viewer lifting its own snooze (the per-recipient snoozes item under
      // `controls#<account>`, read and conditionally rewritten, as the snooze page does): never an alert state.
      .bindTableActions(table('alerts'), ['dynamodb:GetItem'])
      .bindTableActions(table('alerts'), ['dynamodb:PutItem'], { leadingKeys: [`${CONTROLS_KEY_PREFIX}*`] })
      // The overview: each account's summary as of its latest poll (collect writes them), 100 a request.
      .bindTableActions(table('alerts'), ['dynamodb:BatchGetItem'], { leadingKeys: [`${DESK_SUMMARY_KEY_PREFIX}*`] })
      .bindTableActions(table('delegates'), ['dynamodb:Query'])
      // The protection section: the account's decisions (the tokens index only decisions are in) and their units.
      .bindIndexQuery(table('tokens'), DECISIONS_BY_ACCOUNT_INDEX)
      .bindTableActions(table('tokens'), ['dynamodb:BatchGetItem'], { leadingKeys: [`${DECISION_SIGNING_KEY_PREFIX}*`] })
      // The overview: the decision of a kill switch that fired and queued one, and an account's latest unknown-key
      // decision (their ids are on the desk summary), by key.
      .bindTableActions(table('tokens'), ['dynamodb:GetItem'], { leadingKeys: [`${DECISION_KEY_PREFIX}*`] })
      // The operators' channels page: the channels' partition, read only (the list, and the channel a Test names). The
      // Test itself runs in `channel-test`, which alone reads the channels' secrets and records the channel's state.
      .bindTableActions(table('channels'), ['dynamodb:Query', 'dynamodb:GetItem'], { leadingKeys: ['channel'] })
      .bindInvoke(this.channelTest.fn, 'CHANNEL_TEST_FUNCTION_NAME')
      // The account's alert history and deliveries, newest first (a Query of one partition); the one write there is
      // a viewer's lift of its own snooze, recorded in the alert history (put only, never a delivery).
      .bindTableActions(table('history'), ['dynamodb:Query'], { leadingKeys: [`${ALERT_HISTORY_PREFIX}*`, `${DELIVERY_HISTORY_PREFIX}*`] })
      .bindTableActions(table('history'), ['dynamodb:PutItem'], { leadingKeys: [`${ALERT_HISTORY_PREFIX}*`] })
      // Its own table: reads any item (the operators list among them); writes only the items it owns (sessions, used
      // sign-in links, rate counters, passkeys and their challenges, each recipient's sessions epoch and passkey list,
      // the channel tests' audit),
      // never the operators list (the CLI's).
      .bindTableActions(table('desk'), ['dynamodb:GetItem'])
      .bindTableActions(table('desk'), ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'], { leadingKeys: [...DESK_OWNED_KEYS] })
      .bindLinkKeys(data.linkKeys)
      // The sign-in emails.
      .bindMail(messaging.mail)
      .bindPublicBaseUrl(this.publicBaseUrl);

    const pages: Record<(typeof LINK_ROUTES)[keyof typeof LINK_ROUTES], IFunction> = {
      'revoke-page': this.revokePage.fn,
      'revoke-all-page': this.revokeAllPage.fn,
      'preferences-page': this.preferencesPage.fn,
    };
    for (const [path, page] of Object.entries(LINK_ROUTES)) {
      const resource = this.api.root.addResource(path);
      const integration = new LambdaIntegration(pages[page], { allowTestInvoke: false });
      for (const method of ['GET', 'POST']) resource.addMethod(method, integration);
      acknowledgePublicRoute(resource);
    }
    // The desk page: `/desk` and everything below it, one function.
    const desk = this.api.root.addResource(DESK_ROUTE);
    const deskIntegration = new LambdaIntegration(this.deskPage.fn, { allowTestInvoke: false });
    for (const resource of [desk, desk.addResource('{proxy+}')]) {
      for (const method of ['GET', 'POST']) resource.addMethod(method, deskIntegration);
      acknowledgeDeskRoute(resource);
    }
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'The handlers validate every request with zod (token, form fields, origin headers) and answer a clear 400 page; an API request validator could only check that a parameter is present, and would answer a bare JSON error instead of the page.',
    });
    Validations.of(this.api.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG6',
      reason:
        'Execution logging needs the account-wide API Gateway CloudWatch role (shared by every stage in the account) and at INFO records query strings, which carry link tokens; the stage writes access logs (method, resource path, status, WAF result, never the path or query) instead.',
    });

    new CfnOutput(this, 'SignerRoleArn', {
      value: this.signRevocation.role.roleArn,
      description: 'The only role allowed to sign with owner keys; name it in the key policy of an imported key',
    });
    new CfnOutput(this, 'PublicBaseUrl', { value: this.publicBaseUrl, description: 'PUBLIC_BASE_URL: base of the links in emails' });
    new StringParameter(this, 'PublicBaseUrlParameter', {
      parameterName: publicBaseUrlParameter(config.stage),
      stringValue: this.publicBaseUrl,
      description: 'PUBLIC_BASE_URL of the stage (read by the compute stack when no custom domain is set)',
    });
    new StringParameter(this, 'ApiIdParameter', {
      parameterName: apiIdParameter(config.stage),
      stringValue: this.api.restApiId,
      description: 'Id of the link endpoint REST API (for tools; monitoring finds the API by name)',
    });
    if (domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: domain.domainNameAliasDomainName,
        description: `Point a CNAME/alias for ${config.domain?.name} here`,
      });
    }
  }
}

/** The `desk` table's partition keys the desk page writes (IAM leading keys): everything there but the operators list. */
export const DESK_OWNED_KEYS = ['session#*', 'sign-in#*', 'rate#*', 'challenge#*', 'passkey#*', 'recipient#*', 'channel-test#*'] as const;

/** The desk page's path: `/desk` and every path below it go to `desk-page`. */
export const DESK_ROUTE = 'desk';

/** The desk routes take no API authorizer: the page's own session (a signed-in recipient's cookie) is the authorization. */
function acknowledgeDeskRoute(resource: IResource): void {
  Validations.of(resource).acknowledge(
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'The desk page authenticates its users itself: a single-use emailed sign-in link or a passkey opens a stored session (HttpOnly, Secure, SameSite=Strict cookie) that every request is checked against; its sign-in pages are public by design.',
    },
    {
      id: 'AwsSolutions-COG4',
      reason: 'No user pool: recipients are identified by their mailbox (emailed sign-in links) or their passkeys, both checked by the page function.',
    },
  );
}

/** The link routes take no API authorizer: the signed token each request carries is the authorization. */
function acknowledgePublicRoute(resource: IResource): void {
  Validations.of(resource).acknowledge(
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'Links opened from emails by people without accounts: each request is authorized by the signed, purpose-bound, expiring token it carries (checked by the handler, single use for state changes), not by an API authorizer.',
    },
    {
      id: 'AwsSolutions-COG4',
      reason: 'No user pool: the people clicking links have no accounts; the signed token in each link is the authorization.',
    },
  );
}
