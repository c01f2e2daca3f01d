import { CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { DomainName, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stageConfig';
import { OwnerKeys, ownerKeyAlias } from '../constructs/OwnerKeys';
import { SentinelFunction } from '../constructs/SentinelFunction';
import type { DataStack } from './DataStack';
import type { MessagingStack } from './MessagingStack';

/** Requests per second (and burst) the public link endpoint accepts: people clicking links. */
export const LINK_ENDPOINT_THROTTLE = { rateLimit: 20, burstLimit: 40 };

export interface WebStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly messaging: MessagingStack;
}

/**
 * The link endpoint and the revocation path: an HTTP API with `GET|POST /revoke` (revoke-page),
 * `GET|POST /unsubscribe` and `GET|POST /snooze` (preferences-page); the private `sign-revocation`
 * function, invocable by `revoke-page` only; and the owner keys only it may sign with.
 */
export class WebStack extends Stack {
  readonly api: HttpApi;
  /** Base of every link in emails: the custom domain when configured, else the API's endpoint. */
  readonly publicBaseUrl: string;
  readonly revokePage: SentinelFunction;
  readonly preferencesPage: SentinelFunction;
  readonly signRevocation: SentinelFunction;
  readonly ownerKeys: OwnerKeys;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config, data, messaging } = props;
    const table = data.tables.get.bind(data.tables);

    this.api = new HttpApi(this, 'Api', {
      apiName: `${config.prefix}links`,
      description: 'Action links from emails: revoke a delegate, unsubscribe, snooze.',
      createDefaultStage: false,
    });
    const domain = config.domain
      ? new DomainName(this, 'Domain', {
          domainName: config.domain.name,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', config.domain.certificateArn),
        })
      : undefined;
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention });
    new HttpStage(this, 'DefaultStage', {
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
    this.publicBaseUrl = config.domain ? `https://${config.domain.name}` : this.api.apiEndpoint;

    this.signRevocation = new SentinelFunction(this, 'SignRevocation', {
      handler: 'sign-revocation',
      config,
      description: 'Private: signs RemoveDelegateManager with the account owner key in KMS and submits it.',
    });
    this.ownerKeys = new OwnerKeys(this, 'OwnerKeys', {
      stage: config.stage,
      create: config.ownerKeys,
      existingArns: config.ownerKeyArns,
      signer: this.signRevocation.role,
    });
    this.signRevocation
      .bindOwnerKeys(this.ownerKeys.keys)
      .bindTable(table('accounts'), 'read')
      .bindTables(table, ['leases', 'audit'], 'write')
      .bindTable(table('tokens'), 'readWrite')
      .bindQueue(messaging.notify.queue, 'NOTIFY_QUEUE_URL')
      .bindChain(config.chain, config.rate.signerRps);

    this.revokePage = new SentinelFunction(this, 'RevokePage', {
      handler: 'revoke-page',
      config,
      description: 'Public: revocation confirmation page (GET) and confirmed revocation (POST).',
    });
    this.revokePage
      .bindTables(table, ['accounts', 'delegates', 'suppressions'], 'read')
      .bindTable(table('tokens'), 'readWrite')
      .bindSecret(data.linkSecret)
      .bindInvoke(this.signRevocation.fn, 'SIGN_REVOCATION_FUNCTION_NAME')
      .bindPublicBaseUrl(this.publicBaseUrl);

    this.preferencesPage = new SentinelFunction(this, 'PreferencesPage', {
      handler: 'preferences-page',
      config,
      description: 'Public: unsubscribe (incl. RFC 8058 one-click POST) and snooze pages.',
    });
    this.preferencesPage
      .bindTable(table('suppressions'), 'write')
      // A snooze reads the account's current snooze state before its conditional write.
      .bindTables(table, ['alerts', 'tokens'], 'readWrite')
      .bindSecret(data.linkSecret)
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
    if (domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: domain.regionalDomainName,
        description: `Point a CNAME/alias for ${config.domain?.name} here`,
      });
    }
    config.ownerKeys.forEach((name) =>
      new CfnOutput(this, `OwnerKeyAlias-${name}`, { value: ownerKeyAlias(config.stage, name), description: `Signer reference: kms:${ownerKeyAlias(config.stage, name)}` }),
    );
  }
}
