import { join } from 'node:path';
import { DESK_ASSETS_BUNDLE_DIR } from '../bundling/deskClient';
import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, SystemLogLevel, Tracing, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tableName, type TableId } from '../../functions/store/tableDefinitions';
import { parameterArn, queueArn, queueUrl, tableArn } from '../config/resourceNames';
import { nodejsBundling, type BundleArch } from '../bundling/bundleSettings';
import { PROJECT_ROOT, handlerEntry } from '../bundling/handlerEntry';
import { HANDLER_CATALOG, type HandlerName, type HandlerSpec } from '../../functions/config/handlerCatalog';
import { FUNCTION_SIZING } from '../config/functionSizing';
import type { StageConfig } from '../config/stageConfig';
import type { MailSender } from './MailSender';
import type { SentinelTable } from './SentinelTables';
import type { WorkQueue } from './WorkQueue';

/** Namespace of the custom metrics (Powertools EMF) every function emits. */
export const METRICS_NAMESPACE = 'PortfolioSentinel';

/** Where the bundle's `templates/` directory lands in the Lambda file system. */
export const LAMBDA_TEMPLATES_DIR = '/var/task/templates';
/** Where the desk page's browser client is inside its bundle (`infra/bundling/deskClient.ts`). */
export const LAMBDA_DESK_ASSETS_DIR = `/var/task/${DESK_ASSETS_BUNDLE_DIR}`;

/** Table access levels, each a fixed list of item-level actions (never `Scan`, never `dynamodb:*`). */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  write: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'],
} as const;
export type TableAccess = 'read' | 'write' | 'readWrite';
/** One item-level DynamoDB action, for grants narrower than {@link TableAccess}. */
export type TableAction = (typeof TABLE_ACTIONS)['read' | 'write'][number];

/** Environment variable naming the stage (`devnet`, `testnet`, `beta`) on every function: the `stage` metric dimension. */
export const STAGE_ENV = 'SENTINEL_STAGE';

/** The owner keys a signer may use: created ones by alias, existing ones by key ARN. */
export interface OwnerKeyRefs {
  readonly aliases: readonly string[];
  readonly arns: readonly string[];
}

export interface SentinelFunctionProps {
  readonly handler: HandlerName;
  readonly config: StageConfig;
  readonly description: string;
  /** Default ARM64. */
  readonly architecture?: Architecture;
  /** A fixed name for the execution role, when a policy elsewhere must name it (the owner keys'). */
  readonly roleName?: string;
  /** Reserved concurrency: the most instances that may run at once (default: none reserved). */
  readonly reservedConcurrency?: number;
}

/**
 * A handler of `functions/handlers/` as a Lambda with the project's defaults: Node 22, ARM64 unless
 * told otherwise, timeout and memory from the handler catalog (`FUNCTION_SIZING`), an ESM bundle built by
 * `NodejsFunction` with the settings of `nodejsBundling` (the local esbuild, never Docker), its own log group with the stage's retention, the
 * Powertools environment, and a role that starts with nothing but writing to that log group.
 *
 * Permissions are added only through the `bind*` methods, each of which grants the narrowest
 * actions on the exact resources AND sets the environment variable the handler reads to find them,
 * so a handler can never be configured with a resource it may not use, or the reverse.
 */
export class SentinelFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly handlerName: HandlerName;
  private readonly environment = new Map<string, string>();

  constructor(scope: Construct, id: string, props: SentinelFunctionProps) {
    super(scope, id);
    const { config, handler } = props;
    const architecture = props.architecture ?? Architecture.ARM_64;
    const arch: BundleArch = architecture === Architecture.X86_64 ? 'x64' : 'arm64';
    const functionName = `${config.prefix}${handler}`;
    this.handlerName = handler;

    this.logGroup = new LogGroup(this, 'Logs', { retention: config.logRetention });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      ...(props.roleName ? { roleName: props.roleName } : {}),
      description: `Execution role of ${functionName}`,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      functionName,
      description: props.description,
      entry: handlerEntry(handler),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      bundling: nodejsBundling(handler, arch),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture,
      memorySize: FUNCTION_SIZING[handler].memorySize,
      timeout: FUNCTION_SIZING[handler].timeout,
      role: this.role,
      logGroup: this.logGroup,
      // JSON lines with levels: Powertools writes JSON already; the platform's own lines match it,
      // and Lambda drops application lines below the stage's level before they reach CloudWatch.
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel[config.logLevel],
      systemLogLevelV2: SystemLogLevel.WARN,
      tracing: config.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      ...(props.reservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: props.reservedConcurrency }),
    });
    this.fn.node.addDependency(this.role);
    if (config.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Active X-Ray tracing (on by the stage switch `tracing`) needs xray:PutTraceSegments/PutTelemetryRecords, which support no resource-level permissions.',
      });
    }
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the runtime the handlers are written, bundled (target node22) and tested for; moving to a newer runtime is a deliberate upgrade with its own test run, not a drift.',
    });

    this.setEnv('POWERTOOLS_SERVICE_NAME', handler);
    this.setEnv('POWERTOOLS_METRICS_NAMESPACE', METRICS_NAMESPACE);
    this.setEnv('POWERTOOLS_LOG_LEVEL', config.logLevel);
    this.setEnv('NODE_OPTIONS', '--enable-source-maps');
    this.setEnv(STAGE_ENV, config.stage);
    if (HANDLER_CATALOG[handler].bundle.templates) this.setEnv('TEMPLATES_DIR', LAMBDA_TEMPLATES_DIR);
    if (HANDLER_CATALOG[handler].bundle.deskClient) this.setEnv('DESK_ASSETS_DIR', LAMBDA_DESK_ASSETS_DIR);
  }

  /** Grants `access` to one table (and its indexes) and sets `SENTINEL_TABLE_PREFIX`. */
  bindTable(table: SentinelTable, access: TableAccess): this {
    const actions = new Set<TableAction>([...(access === 'write' ? [] : TABLE_ACTIONS.read), ...(access === 'read' ? [] : TABLE_ACTIONS.write)]);
    return this.bindTableActions(table, [...actions], { indexes: access !== 'write' });
  }

  /**
   * Grants exactly `actions` on one table (by its deterministic ARN, so no cross-stack export),
   * on its indexes too when `indexes` (not the restricted ones: `bindIndexQuery`), and sets `SENTINEL_TABLE_PREFIX`. With `leadingKeys`, only
   * on items whose partition key matches one of those patterns (`dynamodb:LeadingKeys`, e.g.
   * `revoke#*` for the revoke tokens of the `tokens` table).
   */
  bindTableActions(table: SentinelTable, actions: readonly TableAction[], options: { indexes?: boolean; leadingKeys?: readonly string[] } = {}): this {
    const arn = tableArn(this, tableName(table.prefix, table.definition.id));
    const indexArns = options.indexes
      ? (table.definition.globalIndexes ?? []).filter((index) => !index.restricted).map((index) => `${arn}/index/${index.indexName}`)
      : [];
    if (options.leadingKeys) {
      this.role.addToPrincipalPolicy(
        new PolicyStatement({
          actions: [...new Set(actions)],
          resources: [arn, ...indexArns],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...options.leadingKeys] } },
        }),
      );
    } else {
      this.allow([...new Set(actions)], [arn, ...indexArns]);
    }
    this.setEnv('SENTINEL_TABLE_PREFIX', table.prefix);
    return this;
  }

  /**
   * Grants `dynamodb:UpdateItem` on one table that may name only `attributes` (the key attributes
   * included, and those its condition expressions read): `ForAllValues:StringEquals` on
   * `dynamodb:Attributes`, with `Null: false` beside it (a `ForAllValues` test is true when the
   * key is missing), and `dynamodb:ReturnValues` `NONE` when given. Removing `PutItem` alone would
   * still let `UpdateItem` rewrite any attribute (an account's recipients or signer). With
   * `leadingKeys`, only on items whose partition key matches one of those patterns.
   */
  bindUpdateItem(table: SentinelTable, attributes: readonly string[], options: { leadingKeys?: readonly string[] } = {}): this {
    return this.bindAttributeWrite('dynamodb:UpdateItem', table, attributes, options);
  }

  /**
   * Grants `dynamodb:PutItem` on one table of items carrying only `attributes` (a put names every
   * attribute of the item it writes, the key included, and those its condition reads), with the
   * attribute conditions of {@link bindUpdateItem} (not its `ReturnValues` one). For a role that creates items another role completes:
   * it cannot put one already holding what only that other role may write. A put still replaces a
   * whole item, so the role can erase what it may not write (as `DeleteItem` would), never forge it.
   */
  bindPutItem(table: SentinelTable, attributes: readonly string[], options: { leadingKeys?: readonly string[] } = {}): this {
    return this.bindAttributeWrite('dynamodb:PutItem', table, attributes, options);
  }

  private bindAttributeWrite(
    action: 'dynamodb:UpdateItem' | 'dynamodb:PutItem',
    table: SentinelTable,
    attributes: readonly string[],
    options: { leadingKeys?: readonly string[] },
  ): this {
    const arn = tableArn(this, tableName(table.prefix, table.definition.id));
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [action],
        resources: [arn],
        conditions: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...new Set(attributes)] },
          ...(options.leadingKeys ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...options.leadingKeys] } } : {}),
          Null: { 'dynamodb:Attributes': 'false' },
          // An update may return no attributes outside the list. A put is left without this condition: its roles
          // read the same items anyway, and the put they make asks for the old item when its condition fails
          // (ReturnValuesOnConditionCheckFailure), which no documented condition key covers.
          ...(action === 'dynamodb:UpdateItem' ? { StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] } } : {}),
        },
      }),
    );
    this.setEnv('SENTINEL_TABLE_PREFIX', table.prefix);
    return this;
  }

  /** Grants `dynamodb:Query` on one restricted index of a table (one a table grant leaves out), and sets `SENTINEL_TABLE_PREFIX`. */
  bindIndexQuery(table: SentinelTable, indexName: string): this {
    const index = (table.definition.globalIndexes ?? []).find((i) => i.indexName === indexName);
    if (!index) throw new Error(`table ${table.definition.id} has no index ${indexName}`);
    this.allow(['dynamodb:Query'], [`${tableArn(this, tableName(table.prefix, table.definition.id))}/index/${indexName}`]);
    this.setEnv('SENTINEL_TABLE_PREFIX', table.prefix);
    return this;
  }

  /** `bindTable` for several tables of one access level. */
  bindTables(tables: (id: TableId) => SentinelTable, ids: readonly TableId[], access: TableAccess): this {
    for (const id of ids) this.bindTable(tables(id), access);
    return this;
  }

  /** Grants `sqs:SendMessage` (single and batch) on one queue, by name, and sets its URL in `envName`. */
  bindQueue(
    work: WorkQueue,
    envName:
      'COLLECT_QUEUE_URL' | 'NOTIFY_QUEUE_URL' | 'REPORT_QUEUE_URL' | 'CHANNEL_QUEUE_URL' | 'FANOUT_QUEUE_URL' | 'REVOCATION_QUEUE_URL' | 'DECISION_QUEUE_URL',
  ): this {
    this.allow(['sqs:SendMessage'], [queueArn(this, work.queueName)]);
    this.setEnv(envName, queueUrl(this, work.queueName));
    return this;
  }

  /**
   * Makes the function the consumer of a work queue: an event source with partial batch failures
   * reported and at most `maxConcurrency` concurrent instances (unset: bounded by the function's
   * reserved concurrency, and for a FIFO queue by its message groups in flight). Refuses a queue
   * whose visibility timeout was sized for a shorter consumer.
   */
  consumeQueue(work: WorkQueue, options: { maxConcurrency?: number; batchSize: number }): this {
    const timeout = this.fn.timeout?.toSeconds() ?? 3;
    if (work.consumerTimeout.toSeconds() < timeout) {
      throw new Error(
        `${this.handlerName}: queue ${work.node.path} is sized for a ${work.consumerTimeout.toSeconds()} s consumer, the function times out after ${timeout} s`,
      );
    }
    const queue = Queue.fromQueueAttributes(this, `${work.node.id}QueueRef`, {
      queueArn: queueArn(this, work.queueName),
      queueUrl: queueUrl(this, work.queueName),
    });
    this.fn.addEventSource(
      new SqsEventSource(queue, {
        batchSize: options.batchSize,
        ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
        reportBatchItemFailures: true,
      }),
    );
    return this;
  }

  /**
   * The link keys of what the handler catalog says it mints and verifies, and nothing else: reading
   * the private key secret of each purpose it mints (`LINK_KEY_SECRET_PREFIX`); for a function that
   * verifies, `ssm:GetParameter` on the published public keys (`LINK_PUBLIC_KEYS_PARAMETER`), and
   * for a page (one with forms) reading the anti-CSRF secret (`CSRF_SECRET_ARN`). Secrets are
   * named, never exported ARNs.
   */
  bindLinkKeys(keys: { readonly secretPrefix: string; readonly csrfSecretName: string; readonly publicKeysParameter: string }): this {
    const links: HandlerSpec['requires']['links'] = HANDLER_CATALOG[this.handlerName].requires.links;
    const { mints, verifies } = links;
    if (mints.length + verifies.length === 0) throw new Error(`${this.handlerName} neither mints nor verifies links`);
    for (const purpose of mints) Secret.fromSecretNameV2(this, `LinkKeyRef-${purpose}`, `${keys.secretPrefix}${purpose}`).grantRead(this.role);
    if (mints.length > 0) this.setEnv('LINK_KEY_SECRET_PREFIX', keys.secretPrefix);
    if (verifies.length > 0) {
      this.allow(['ssm:GetParameter'], [parameterArn(this, keys.publicKeysParameter)]);
      this.setEnv('LINK_PUBLIC_KEYS_PARAMETER', keys.publicKeysParameter);
    }
    if (verifies.length > 0 && links.forms !== false) {
      Secret.fromSecretNameV2(this, 'CsrfSecretRef', keys.csrfSecretName).grantRead(this.role);
      this.setEnv('CSRF_SECRET_ARN', keys.csrfSecretName);
    }
    return this;
  }

  /**
   * Grants `kms:Sign` and `kms:GetPublicKey` on exactly these owner keys: created keys through
   * their alias (`kms:ResourceAliases`, so this stack needs no export from the keys stack),
   * existing keys by ARN. Their key policies admit this role alone.
   */
  bindOwnerKeys(keys: OwnerKeyRefs): this {
    const actions = ['kms:Sign', 'kms:GetPublicKey'];
    if (keys.aliases.length > 0) {
      const stack = Stack.of(this);
      const anyKey = stack.formatArn({ service: 'kms', resource: 'key', resourceName: '*' });
      this.role.addToPrincipalPolicy(
        new PolicyStatement({ actions, resources: [anyKey], conditions: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': [...keys.aliases] } } }),
      );
      const shown = (value: string, pseudo: string): string => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:kms:${shown(stack.region, 'Region')}:${shown(stack.account, 'AccountId')}:key/*]`,
        reason:
          'Sign/GetPublicKey on keys of this account only when the key carries one of the stage owner-key aliases (kms:ResourceAliases condition): the keys live in the keys stack, named here by alias so no export ties the stacks together; each key policy admits this role alone.',
      });
    }
    if (keys.arns.length > 0) this.allow(actions, [...keys.arns]);
    return this;
  }

  /**
   * Grants `secretsmanager:GetSecretValue` (read only) on the secrets whose name starts with
   * `prefix`, and nothing else of Secrets Manager: the channel secrets, named by the people who
   * create them, so only the prefix is known at deploy time.
   */
  bindSecretsUnder(prefix: string): this {
    const stack = Stack.of(this);
    const resource = stack.formatArn({ service: 'secretsmanager', resource: 'secret', resourceName: `${prefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    this.allow(['secretsmanager:GetSecretValue'], [resource]);
    const shown = (value: string, pseudo: string): string => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:${shown(stack.region, 'Region')}:${shown(stack.account, 'AccountId')}:secret:${prefix}*]`,
      reason:
        'GetSecretValue only, on the secrets under the stage channel-secret prefix: channel secrets are created by people (sentinel channels add --secret secret:<name>), so their names, and the random suffix Secrets Manager appends, are unknown at deploy time.',
    });
    return this;
  }

  /**
   * Grants `ssm:GetParameter` on exactly one parameter, the stage-wide protection switch, and sets
   * its name in `PROTECTION_PARAMETER_NAME`: the function reads it, never writes it.
   */
  bindProtectionSwitch(parameterName: string): this {
    this.allow(['ssm:GetParameter'], [parameterArn(this, parameterName)]);
    this.setEnv('PROTECTION_PARAMETER_NAME', parameterName);
    return this;
  }

  /** Sets `REVOKE_ALL_LINKS=true`: the stage's link endpoint routes `/revoke-all`, so the function writes links to it. */
  bindRevokeAllLinks(): this {
    this.setEnv('REVOKE_ALL_LINKS', 'true');
    return this;
  }

  /** Grants invoking exactly one function (unqualified ARN) and sets its name in `envName`. */
  bindInvoke(target: IFunction, envName: 'SIGN_REVOCATION_FUNCTION_NAME' | 'CHANNEL_TEST_FUNCTION_NAME'): this {
    this.allow(['lambda:InvokeFunction'], [target.functionArn]);
    this.setEnv(envName, target.functionName);
    return this;
  }

  /** Sets the chain endpoints and this function's share of the chain request budget. */
  bindChain(chain: StageConfig['chain'], rps: number): this {
    this.setEnv('ROCKET_NODE_URL', chain.nodeUrl);
    this.setEnv('ROCKET_INDEXER_URL', chain.indexerUrl);
    this.setEnv('CHAIN_RPS', String(rps));
    return this;
  }

  /**
   * Grants `ses:SendRawEmail` from the configured sender only, through the configuration set only,
   * and sets `MAIL_FROM`, `SES_CONFIGURATION_SET` and, when the stage has an `alarmEmail`,
   * `OPERATOR_EMAIL`: every function that sends mail can tell the operator (a breaker that opened,
   * reports missed, a security recipient suppressed by a bounce); without it, it logs instead.
   */
  bindMail(sender: MailSender): this {
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ses:SendRawEmail'],
        resources: [...sender.identityArns, sender.configurationSetArn],
        conditions: { StringEquals: { 'ses:FromAddress': sender.from } },
      }),
    );
    this.setEnv('MAIL_FROM', sender.from);
    this.setEnv('SES_CONFIGURATION_SET', sender.configurationSetName);
    if (sender.operatorEmail !== undefined) this.setEnv('OPERATOR_EMAIL', sender.operatorEmail);
    return this;
  }

  /**
   * Lets the function read the account's sending rate (`ses:GetSendQuota`, an action without
   * resource types, so on `*`) for its mail-rate governor, and sets `MAIL_RATE_WORKERS`: how many
   * instances send at once (its event source's `maxConcurrency`), each taking an equal part.
   */
  bindMailRate(workers: number): this {
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ses:GetSendQuota'], resources: ['*'] }));
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'ses:GetSendQuota has no resource types: IAM accepts it only on "*". It reads the account sending rate and nothing else.',
    });
    this.setEnv('MAIL_RATE_WORKERS', String(workers));
    return this;
  }

  /**
   * Sets the collect tier's total chain rate as `CHAIN_RPS` on `dispatch`, which sizes each run's
   * share of backfills from it (with `BACKFILL_DAYS`, at its default as on `collect`); dispatch
   * sends nothing to the chain itself.
   */
  bindBackfillBudget(collectTierRps: number): this {
    this.setEnv('CHAIN_RPS', String(collectTierRps));
    return this;
  }

  /** Sets `PUBLIC_BASE_URL`, the base of the links written into emails. */
  bindPublicBaseUrl(url: string): this {
    this.setEnv('PUBLIC_BASE_URL', url);
    return this;
  }

  private allow(actions: string[], resources: string[]): void {
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions, resources }));
  }

  /** Sets an environment variable once; a second, different value is a wiring mistake. */
  private setEnv(name: string, value: string): void {
    const previous = this.environment.get(name);
    if (previous !== undefined && previous !== value) {
      throw new Error(`${this.handlerName}: ${name} is already bound to another value`);
    }
    if (previous === undefined) {
      this.environment.set(name, value);
      this.fn.addEnvironment(name, value);
    }
  }
}
