import { CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { DomainName, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination, type CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { apiIdParameter, publicBaseUrlParameter, signerRoleName } from '../config/resourceNames';
import type { StageConfig } from '../config/stageConfig';
import { ownerKeyAlias } from '../constructs/OwnerKeys';
import { SentinelFunction } from '../constructs/SentinelFunction';
import type { DataStack } from './DataStack';
import type { MessagingStack } from './MessagingStack';

/** Requests per second (and burst) the public link endpoint accepts: people clicking links. */
export const LINK_ENDPOINT_THROTTLE = { rateLimit: 20, burstLimit: 40 };

/**
 * Confirmed revocations (`POST /revoke`) per second (and burst): each one holds a `sign-revocation`
 * instance (reserved concurrency `signerConcurrency`) for a few chain round trips, so a flood of
 * confirmations is turned away at the API (429) instead of reaching the signer and the chain.
 * Per-client limits need CloudFront + WAF in front of the API (not built; docs/deploy.md).
 */
export const REVOKE_POST_THROTTLE = { rateLimit: 2, burstLimit: 5 };

export interface WebStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly messaging: MessagingStack;
}

/**
 * The link endpoint and the revocation path: an HTTP API with `GET|POST /revoke` (revoke-page),
 * `GET|POST /unsubscribe`, `GET|POST /preferences` and `GET|POST /snooze` (preferences-page), and the private
 * `sign-revocation` function, invocable by `revoke-page` only, allowed to sign with the owner keys
 * of the keys stack. It exports nothing: the base URL and the API id go to SSM parameters
 * (`/sentinel/<stage>/public-base-url`, `/sentinel/<stage>/api-id`) for the stacks after it.
 */
export class WebStack extends Stack {
  readonly api: HttpApi;
  /** Base of every link in emails: the custom domain when configured, else the API's endpoint. */
  readonly publicBaseUrl: string;
  readonly revokePage: SentinelFunction;
  readonly preferencesPage: SentinelFunction;
  readonly signRevocation: SentinelFunction;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config, data, messaging } = props;
    const table = data.tables.get.bind(data.tables);

    this.api = new HttpApi(this, 'Api', {
      apiName: `${config.prefix}links`,
      description: 'Action links from emails: revoke a delegate, unsubscribe, snooze.',
      createDefaultStage: false,
      // With a custom domain, links use it only: the execute-api endpoint would bypass its mapping.
      disableExecuteApiEndpoint: config.domain !== undefined,
    });
    const domain = config.domain
      ? new DomainName(this, 'Domain', {
          domainName: config.domain.name,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', config.domain.certificateArn),
        })
      : undefined;
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: LINK_ENDPOINT_THROTTLE,
      ...(domain ? { domainMapping: { domainName: domain } } : {}),
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // Route key, never the path or query string: link tokens must not reach the logs.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    (stage.node.defaultChild as CfnStage).routeSettings = {
      'POST /revoke': { ThrottlingRateLimit: REVOKE_POST_THROTTLE.rateLimit, ThrottlingBurstLimit: REVOKE_POST_THROTTLE.burstLimit },
    };
    this.publicBaseUrl = config.domain ? `https://${config.domain.name}` : this.api.apiEndpoint;

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
      .bindQueue(messaging.notify, 'NOTIFY_QUEUE_URL')
      .bindChain(config.chain, config.rate.signerInstanceRps);

    this.revokePage = new SentinelFunction(this, 'RevokePage', {
      handler: 'revoke-page',
      config,
      description: 'Public: revocation confirmation page (GET) and confirmed revocation (POST).',
    });
    this.revokePage
      .bindTables(table, ['accounts', 'delegates', 'suppressions'], 'read')
      // Consumes a revoke token (conditional put) and releases it when nothing was sent (delete).
      .bindTableActions(table('tokens'), ['dynamodb:PutItem', 'dynamodb:DeleteItem'], { leadingKeys: ['revoke#*'] })
      .bindSecret(data.linkSecretName)
      .bindInvoke(this.signRevocation.fn, 'SIGN_REVOCATION_FUNCTION_NAME')
      .bindPublicBaseUrl(this.publicBaseUrl);

    this.preferencesPage = new SentinelFunction(this, 'PreferencesPage', {
      handler: 'preferences-page',
      config,
      description: 'Public: email preferences, unsubscribe by category (incl. RFC 8058 one-click POST) and snooze pages.',
    });
    this.preferencesPage
      // Opt-outs by category: read, add one (UpdateItem ADD), replace the set (UpdateItem, keeping the recipient record); never suppressions.
      .bindTableActions(table('preferences'), ['dynamodb:GetItem', 'dynamodb:UpdateItem'])
      // A snooze reads the account's current snooze state before its conditional write.
      .bindTable(table('alerts'), 'readWrite')
      // Consumes a snooze token (conditional put) and releases it on failure (delete); no reads, no
      // updates, and no revoke token: it can neither create nor alter one.
      .bindTableActions(table('tokens'), ['dynamodb:PutItem', 'dynamodb:DeleteItem'], { leadingKeys: ['snooze#*'] })
      .bindSecret(data.linkSecretName)
      .bindPublicBaseUrl(this.publicBaseUrl);

    const routes = [
      ...this.api.addRoutes({
        path: '/revoke',
        methods: [HttpMethod.GET, HttpMethod.POST],
        integration: new HttpLambdaIntegration('Revoke', this.revokePage.fn),
      }),
      ...this.api.addRoutes({
        path: '/unsubscribe',
        methods: [HttpMethod.GET, HttpMethod.POST],
        integration: new HttpLambdaIntegration('Unsubscribe', this.preferencesPage.fn),
      }),
      ...this.api.addRoutes({
        path: '/preferences',
        methods: [HttpMethod.GET, HttpMethod.POST],
        integration: new HttpLambdaIntegration('Preferences', this.preferencesPage.fn),
      }),
      ...this.api.addRoutes({
        path: '/snooze',
        methods: [HttpMethod.GET, HttpMethod.POST],
        integration: new HttpLambdaIntegration('Snooze', this.preferencesPage.fn),
      }),
    ];
    for (const route of routes) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Links opened from emails by people without accounts: each request is authorized by the signed, purpose-bound, expiring token it carries (checked by the handler, single use for state changes), not by an API authorizer.',
      });
    }

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
      stringValue: this.api.apiId,
      description: 'Id of the link endpoint HTTP API (read by the monitoring stack)',
    });
    if (domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: domain.regionalDomainName,
        description: `Point a CNAME/alias for ${config.domain?.name} here`,
      });
    }
  }
}
