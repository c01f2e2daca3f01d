import { beforeAll, describe, expect, it } from 'vitest';
import { HANDLER_NAMES, type HandlerName } from '../../../functions/config/handlerCatalog';
import { OWNER_KEY_ADMIN_ACTIONS } from '../../../infra/constructs/OwnerKeys';
import { IDENTITY_DEFAULT_FUNCTION } from '../../../infra/constructs/MailSender';
import { TABLES, type TableId } from '../../../functions/store/tableDefinitions';
import { REVOKE_ALL_REQUEST_ATTRIBUTES, REVOKE_ALL_RESULT_ATTRIBUTES } from '../../../functions/store/revokeAllRepository';
import { CONSUMED_TOKEN_ATTRIBUTES, SIGNING_TOKEN_ATTRIBUTES } from '../../../functions/store/tokenRepository';
import {
  TEST_ACCOUNT,
  TEST_REGION,
  evaluate,
  kmsAllows,
  resolveIntrinsics,
  type PolicyRequest,
  type PolicyStatementJson,
} from '../../support/infra/policyEvaluator';
import { STACK_PARTS, TEST_CONTEXT, synthStage, type SynthResult } from '../../support/infra/synthStage';

/** The identity policy statements of one role, intrinsics resolved. */
interface RolePolicy {
  /** The function whose execution role it is, or the role's logical id. */
  readonly owner: string;
  /** `aws:PrincipalArn` of the role: its fixed name when it has one, else a stand-in. */
  readonly principal: string;
  readonly statements: PolicyStatementJson[];
}

let synth: SynthResult;
let roles: RolePolicy[];

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const tableArn = (id: TableId): string => `arn:aws:dynamodb:${TEST_REGION}:${TEST_ACCOUNT}:table/sentinel-devnet-${id}`;
const roleArn = (name: string): string => `arn:aws:iam::${TEST_ACCOUNT}:role/${name}`;
/** A created owner key: KMS evaluates `kms:ResourceAliases` against the aliases it carries. */
const CREATED_KEY = `arn:aws:kms:${TEST_REGION}:${TEST_ACCOUNT}:key/0f0e0d0c-0b0a-4909-8807-060504030201`;
const CREATED_KEY_ALIASES = ['alias/sentinel/devnet/desk-a'];
/** The channel secrets' grant: the stage prefix of their names. */
const CHANNEL_SECRETS = `arn:aws:secretsmanager:${TEST_REGION}:${TEST_ACCOUNT}:secret:sentinel/devnet/channels/*`;
const PROTECTION_PARAMETER = `arn:aws:ssm:${TEST_REGION}:${TEST_ACCOUNT}:parameter/sentinel/devnet/protection`;

/** Every IAM role of the app with the statements of every policy attached to it. */
function collectRoles(): RolePolicy[] {
  const out = new Map<string, RolePolicy>();
  for (const part of STACK_PARTS) {
    const resources = synth.json[part].Resources;
    const functionOfRole = new Map<string, string>();
    for (const r of Object.values(resources)) {
      if (r.Type !== 'AWS::Lambda::Function') continue;
      const roleId = (r.Properties?.['Role'] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      functionOfRole.set(roleId, String(r.Properties?.['FunctionName']).replace('sentinel-devnet-', ''));
    }
    const role = (id: string): RolePolicy => {
      let found = out.get(`${part}/${id}`);
      if (!found) {
        const props = resources[id]?.Properties ?? {};
        const owner = functionOfRole.get(id) ?? id;
        const principal = typeof props['RoleName'] === 'string' ? roleArn(props['RoleName']) : roleArn(`stand-in-${owner}`);
        found = { owner, principal, statements: [] };
        out.set(`${part}/${id}`, found);
      }
      return found;
    };
    for (const [id, r] of Object.entries(resources)) {
      if (r.Type === 'AWS::IAM::Role') {
        expect(r.Properties?.['ManagedPolicyArns'], `${id} has managed policies`).toBeUndefined();
        role(id);
        for (const p of (r.Properties?.['Policies'] ?? []) as { PolicyDocument: { Statement: unknown[] } }[]) {
          role(id).statements.push(...(resolveIntrinsics(p.PolicyDocument.Statement) as PolicyStatementJson[]));
        }
      }
      if (r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy') {
        const statements = resolveIntrinsics((r.Properties?.['PolicyDocument'] as { Statement: unknown[] }).Statement) as PolicyStatementJson[];
        for (const ref of (r.Properties?.['Roles'] ?? []) as { Ref: string }[]) role(ref.Ref).statements.push(...statements);
      }
    }
  }
  return [...out.values()];
}

function roleOf(owner: string): RolePolicy {
  const found = roles.find((r) => r.owner === owner);
  if (!found) throw new Error(`no role of ${owner}`);
  return found;
}

/** What the role's identity policy decides for `action` on `resource`. */
function decide(owner: string, action: string, resource: string, context?: PolicyRequest['context']): string {
  const role = roleOf(owner);
  return evaluate(role.statements, { principal: role.principal, action, resource, ...(context ? { context } : {}) });
}

/** The owners of the roles allowed `action` on `resource`, sorted. */
function allowedOwners(action: string, resource: string): string[] {
  return roles
    .filter((r) => evaluate(r.statements, { principal: r.principal, action, resource }) === 'allow')
    .map((r) => r.owner)
    .sort();
}

/** Only `owner` may query `index`, and no function reads or writes items through it. */
function expectOnlyQuerier(index: string, owner: string): void {
  for (const name of HANDLER_NAMES) {
    expect(decide(name, 'dynamodb:Query', index), name).toBe(name === owner ? 'allow' : 'implicit-deny');
    for (const action of ['GetItem', 'Scan', 'PutItem', 'UpdateItem']) expect(decide(name, `dynamodb:${action}`, index), `${name} ${action}`).not.toBe('allow');
  }
}

const queueArn = (name: string): string => `arn:aws:sqs:${TEST_REGION}:${TEST_ACCOUNT}:sentinel-devnet-${name}`;

const ITEM_ACTIONS = ['GetItem', 'BatchGetItem', 'Query', 'Scan', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'] as const;
const READ = ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem'];
const WRITE = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'];
const RW = [...new Set([...READ, ...WRITE])];
/** What both mailers (alerts and reports) read in full: the account, its curves and snapshots, its keys, mutes and recipients' choices. */
const MAILER_READS = { accounts: READ, curves: READ, snapshots: READ, delegates: READ, suppressions: READ, preferences: READ };

/** The item actions the role may perform on the table, evaluated, sorted. */
function tableActions(owner: string, table: TableId): string[] {
  return ITEM_ACTIONS.filter((a) => decide(owner, `dynamodb:${a}`, tableArn(table)) === 'allow').sort();
}

/** The actions a role is allowed besides its logs, traces and metrics, sorted. */
function ownActions(owner: string): string[] {
  const actions = new Set(
    roleOf(owner)
      .statements.filter((s) => s.Effect === 'Allow')
      .flatMap((s) => asList(s.Action)),
  );
  return [...actions].filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:') && !a.startsWith('cloudwatch:')).sort();
}

// Bundling every function of the catalog takes minutes on a loaded 2-core machine.
beforeAll(() => {
  synth = synthStage(TEST_CONTEXT, { schemaValidation: false });
  roles = collectRoles();
}, 600_000);

describe('IAM statements', () => {
  it('grants no wildcard action, and a wildcard resource only as the alias-conditioned owner-key grant', () => {
    const allows = roles.flatMap((r) => r.statements.filter((s) => s.Effect === 'Allow').map((s) => ({ owner: r.owner, s })));
    expect(allows.length).toBeGreaterThan(20);
    for (const { owner, s } of allows) {
      for (const action of asList(s.Action)) expect(action, `${owner}: ${action}`).not.toContain('*');
      expect(s.NotAction, owner).toBeUndefined();
      for (const resource of asList(s.Resource)) {
        // ses:GetSendQuota (the mail-rate governor's default) has no resource type: it can only be granted on "*".
        if (resource === '*') {
          expect({ mailer: ['daily-report', 'notify'].includes(owner), actions: asList(s.Action) }, owner).toEqual({
            mailer: true,
            actions: ['ses:GetSendQuota'],
          });
          continue;
        }
        if (resource === CHANNEL_SECRETS) {
          // Channel secrets are named by people: only the stage prefix is known at deploy time.
          expect({ owner: ['channel-worker', 'channel-test'].includes(owner), actions: asList(s.Action), condition: s.Condition }).toEqual({
            owner: true,
            actions: ['secretsmanager:GetSecretValue'],
            condition: undefined,
          });
          continue;
        }
        if (resource.endsWith('*') && !resource.endsWith('-??????')) {
          expect({ owner, resource, condition: s.Condition }).toEqual({
            owner: 'sign-revocation',
            resource: `arn:aws:kms:${TEST_REGION}:${TEST_ACCOUNT}:key/*`,
            condition: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': CREATED_KEY_ALIASES } },
          });
        }
      }
    }
  });

  it('lets only the two mailers read the sending quota, for their mail-rate governor', () => {
    expect(allowedOwners('ses:GetSendQuota', '*')).toEqual(['daily-report', 'notify']);
  });

  it('keeps each token purpose to its own functions (dynamodb:LeadingKeys): no page can create, read or alter a token of another purpose', () => {
    const tokens = tableArn('tokens');
    // A put names what a consume puts (the page roles' puts are allowed only so: see the signing-attributes test).
    const on = (key: string, action: string) => ({
      'dynamodb:LeadingKeys': [key],
      ...(action === 'PutItem' ? { 'dynamodb:Attributes': [...CONSUMED_TOKEN_ATTRIBUTES] } : {}),
    });
    const may = (owner: string, action: string, key: string) => decide(owner, `dynamodb:${action}`, tokens, on(key, action)) === 'allow';
    // preferences-page: snooze tokens only.
    expect(may('preferences-page', 'PutItem', 'snooze#abc')).toBe(true);
    for (const action of ['PutItem', 'DeleteItem', 'UpdateItem', 'GetItem']) expect(may('preferences-page', action, 'revoke#abc'), action).toBe(false);
    // revoke-page and sign-revocation: revoke tokens only.
    expect(may('revoke-page', 'PutItem', 'revoke#abc')).toBe(true);
    expect(may('revoke-page', 'PutItem', 'snooze#abc')).toBe(false);
    expect(may('revoke-page', 'GetItem', 'revoke#abc')).toBe(true);
    expect(may('revoke-page', 'GetItem', 'snooze#abc')).toBe(false);
    expect(may('sign-revocation', 'UpdateItem', 'revoke#abc')).toBe(true);
    expect(may('sign-revocation', 'GetItem', 'snooze#abc')).toBe(false);
    expect(may('sign-revocation', 'PutItem', 'revoke#abc')).toBe(false);
    // An update of a batch names its part of it (see the batch test).
    const updates = (owner: string, key: string, attributes: readonly string[]) =>
      decide(owner, 'dynamodb:UpdateItem', tokens, { 'dynamodb:LeadingKeys': [key], 'dynamodb:Attributes': [...attributes] }) === 'allow';
    // revoke-all-page: its batches only; it can neither create nor consume a revoke token.
    expect(updates('revoke-all-page', 'revoke-all#abc', REVOKE_ALL_REQUEST_ATTRIBUTES)).toBe(true);
    for (const action of ['PutItem', 'DeleteItem', 'UpdateItem', 'GetItem']) expect(may('revoke-all-page', action, 'revoke#abc'), action).toBe(false);
    expect(may('revoke-all-page', 'GetItem', 'snooze#abc')).toBe(false);
    // revoke-all-worker: its batches, and consuming, reading and releasing its units' revoke tokens, never marking one signed.
    expect(updates('revoke-all-worker', 'revoke-all#abc', REVOKE_ALL_RESULT_ATTRIBUTES)).toBe(true);
    for (const action of ['PutItem', 'GetItem', 'DeleteItem']) expect(may('revoke-all-worker', action, 'revoke#abc'), action).toBe(true);
    expect(may('revoke-all-worker', 'UpdateItem', 'revoke#abc')).toBe(false);
    expect(may('revoke-all-worker', 'PutItem', 'snooze#abc')).toBe(false);
    // collect: writes a protective decision once and reads it back (a redelivered check); cannot change it, mark its signing, nor touch a link token.
    expect(may('collect', 'PutItem', 'decision#abc')).toBe(true);
    expect(may('collect', 'GetItem', 'decision#abc')).toBe(true);
    for (const action of ['UpdateItem', 'DeleteItem']) expect(may('collect', action, 'decision#abc'), action).toBe(false);
    for (const key of ['decision-signing#abc#0x1', 'revoke#abc', 'revoke-all#abc', 'snooze#abc']) expect(may('collect', 'PutItem', key), key).toBe(false);
    // Only collect writes decisions; the signer reads them.
    for (const name of HANDLER_NAMES.filter((n) => n !== 'collect')) expect(may(name, 'PutItem', 'decision#abc'), name).toBe(false);
    // revoke-page and sign-revocation cannot touch a revoke-all batch.
    for (const owner of ['revoke-page', 'sign-revocation'])
      for (const attributes of [REVOKE_ALL_REQUEST_ATTRIBUTES, REVOKE_ALL_RESULT_ATTRIBUTES])
        expect(updates(owner, 'revoke-all#abc', attributes), owner).toBe(false);
  });

  it("keeps a revoke-all batch's results the worker's: the page queues attempts and cannot record a result, the worker records results and cannot queue (dynamodb:Attributes)", () => {
    const update = (owner: string, attributes: readonly string[] | undefined) =>
      decide(owner, 'dynamodb:UpdateItem', tableArn('tokens'), {
        'dynamodb:LeadingKeys': ['revoke-all#abc'],
        ...(attributes === undefined ? {} : { 'dynamodb:Attributes': [...attributes] }),
        'dynamodb:ReturnValues': 'NONE',
      });
    expect(update('revoke-all-page', REVOKE_ALL_REQUEST_ATTRIBUTES)).toBe('allow');
    expect(update('revoke-all-page', ['tokenId', 'units'])).toBe('allow');
    expect(update('revoke-all-page', ['tokenId', 'results'])).toBe('implicit-deny');
    expect(update('revoke-all-page', [...REVOKE_ALL_REQUEST_ATTRIBUTES, 'results'])).toBe('implicit-deny');
    expect(update('revoke-all-worker', REVOKE_ALL_RESULT_ATTRIBUTES)).toBe('allow');
    expect(update('revoke-all-worker', ['tokenId', 'units'])).toBe('implicit-deny');
    expect(update('revoke-all-worker', [...REVOKE_ALL_RESULT_ATTRIBUTES, 'account'])).toBe('implicit-deny');
    // Without the attribute list the ForAllValues test would be vacuously true: Null refuses it.
    for (const owner of ['revoke-all-page', 'revoke-all-worker']) expect(update(owner, undefined), owner).toBe('implicit-deny');
    // Neither may put a batch (a put replaces the whole item) nor delete one.
    for (const owner of ['revoke-all-page', 'revoke-all-worker'])
      for (const action of ['PutItem', 'DeleteItem', 'BatchWriteItem'])
        expect(
          decide(owner, `dynamodb:${action}`, tableArn('tokens'), { 'dynamodb:LeadingKeys': ['revoke-all#abc'], 'dynamodb:Attributes': ['tokenId', 'units'] }),
          `${owner} ${action}`,
        ).not.toBe('allow');
  });

  describe('key spaces of the alerts and delegates tables (dynamodb:LeadingKeys)', () => {
    const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];
    const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7';
    const may = (owner: string, action: string, table: TableId, key: string) =>
      decide(owner, `dynamodb:${action}`, tableArn(table), { 'dynamodb:LeadingKeys': [key] }) === 'allow';

    it('no web function can write an alert state, a kill-switch state, a cap or the breaker; the preferences page writes link-set controls alone', () => {
      for (const owner of ['preferences-page', 'revoke-page', 'revoke-all-page']) {
        // Under the account: its alert states and the kill switch's state; `stage`: where the breaker was (caps and breakers are the signer's own, in tokens).
        for (const key of [ACCOUNT, 'stage']) for (const action of WRITES) expect(may(owner, action, 'alerts', key), `${owner} ${action} ${key}`).toBe(false);
      }
      expect(may('preferences-page', 'PutItem', 'alerts', `controls#${ACCOUNT}`)).toBe(true);
      for (const action of ['UpdateItem', 'DeleteItem', 'BatchWriteItem'])
        expect(may('preferences-page', action, 'alerts', `controls#${ACCOUNT}`), action).toBe(false);
      for (const owner of ['revoke-page', 'revoke-all-page']) expect(may(owner, 'PutItem', 'alerts', `controls#${ACCOUNT}`), owner).toBe(false);
      // A request naming items of both spaces is refused as a whole (ForAllValues).
      expect(decide('preferences-page', 'dynamodb:PutItem', tableArn('alerts'), { 'dynamodb:LeadingKeys': [`controls#${ACCOUNT}`, ACCOUNT] })).not.toBe(
        'allow',
      );
    });

    it('lets collect alone write the desk summaries (desk-summary#<account>), and the desk page batch-read them and no alert state', () => {
      const key = `desk-summary#${ACCOUNT}`;
      expect(may('collect', 'PutItem', 'alerts', key)).toBe(true);
      for (const owner of HANDLER_NAMES.filter((n) => n !== 'collect'))
        for (const action of WRITES) expect(may(owner, action, 'alerts', key), `${owner} ${action}`).toBe(false);
      expect(may('desk-page', 'BatchGetItem', 'alerts', key)).toBe(true);
      for (const other of [ACCOUNT, `controls#${ACCOUNT}`, 'stage']) expect(may('desk-page', 'BatchGetItem', 'alerts', other), other).toBe(false);
      expect(decide('desk-page', 'dynamodb:BatchGetItem', tableArn('alerts'), { 'dynamodb:LeadingKeys': [key, ACCOUNT] })).not.toBe('allow');
    });

    it('collect cannot write an announcement, nor update or delete a known key; it still keeps its delegate views', () => {
      for (const action of WRITES) expect(may('collect', action, 'delegates', `expect#${ACCOUNT}`), action).toBe(false);
      expect(may('collect', 'PutItem', 'delegates', `known#${ACCOUNT}`)).toBe(true);
      for (const action of ['UpdateItem', 'DeleteItem', 'BatchWriteItem']) expect(may('collect', action, 'delegates', `known#${ACCOUNT}`), action).toBe(false);
      for (const action of ['UpdateItem', 'BatchWriteItem']) expect(may('collect', action, 'delegates', ACCOUNT), action).toBe(true);
      expect(may('collect', 'DeleteItem', 'delegates', ACCOUNT)).toBe(false);
      // sign-revocation marks a key it found gone removed: `removedAt` of an account's view, nothing else.
      const signerUpdate = (key: string, attributes: string[]) =>
        decide('sign-revocation', 'dynamodb:UpdateItem', tableArn('delegates'), { 'dynamodb:LeadingKeys': [key], 'dynamodb:Attributes': attributes });
      expect(signerUpdate(ACCOUNT, ['address', 'delegate', 'removedAt'])).toBe('allow');
      expect(signerUpdate(ACCOUNT, ['address', 'delegate', 'name'])).not.toBe('allow');
      for (const key of [`known#${ACCOUNT}`, `expect#${ACCOUNT}`]) expect(signerUpdate(key, ['address', 'delegate', 'removedAt']), key).not.toBe('allow');
      for (const action of ['PutItem', 'DeleteItem', 'BatchWriteItem']) expect(may('sign-revocation', action, 'delegates', ACCOUNT), action).toBe(false);
      // No function writes announcements or known keys but collect's put: the operator's CLI does.
      for (const name of HANDLER_NAMES) {
        for (const action of WRITES) expect(may(name, action, 'delegates', `expect#${ACCOUNT}`), `${name} ${action}`).toBe(false);
        if (name !== 'collect') for (const action of WRITES) expect(may(name, action, 'delegates', `known#${ACCOUNT}`), `${name} ${action}`).toBe(false);
      }
    });
  });

  it('lets report-dispatch read recipient records but write only their nextReportAt', () => {
    expect(decide('report-dispatch', 'dynamodb:BatchGetItem', tableArn('preferences'))).toBe('allow');
    for (const action of ['PutItem', 'DeleteItem', 'BatchWriteItem'])
      expect(decide('report-dispatch', `dynamodb:${action}`, tableArn('preferences')), action).not.toBe('allow');
  });

  it('lets report-dispatch touch only the report ledger and missed-report items of deliveries (dynamodb:LeadingKeys), never a delivery record', () => {
    const may = (action: string, key: string) =>
      decide('report-dispatch', `dynamodb:${action}`, tableArn('deliveries'), { 'dynamodb:LeadingKeys': [key] }) === 'allow';
    expect(may('UpdateItem', 'report-ledger:29180733:s3')).toBe(true);
    expect(may('BatchGetItem', 'report-missed:2025-06-02:s0')).toBe(true);
    for (const action of ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem']) expect(may(action, 'report:0xabc:2025-06-02#a@example.com'), action).toBe(false);
    expect(may('PutItem', 'report-ledger:29180733:s3')).toBe(false);
  });

  it("lets only notify query the onboarding batches' index (accounts/index/byBatch), and nothing write through it", () => {
    expectOnlyQuerier(`${tableArn('accounts')}/index/byBatch`, 'notify');
    // The other indexes keep their table grant: report-dispatch still queries byNextReport.
    expect(decide('report-dispatch', 'dynamodb:Query', `${tableArn('accounts')}/index/byNextReport`)).toBe('allow');
  });

  it('lets only the desk page query the decisions index (tokens/index/decisionsByAccount) and read a decision and its units, never a link token', () => {
    expectOnlyQuerier(`${tableArn('tokens')}/index/decisionsByAccount`, 'desk-page');
    const tokens = (action: string, key: string) => decide('desk-page', `dynamodb:${action}`, tableArn('tokens'), { 'dynamodb:LeadingKeys': [key] });
    expect(tokens('BatchGetItem', 'decision-signing#d1#0xabc')).toBe('allow');
    // The overview reads a queued kill-switch firing's decision by key.
    expect(tokens('GetItem', 'decision#d1')).toBe('allow');
    for (const action of ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem']) expect(tokens(action, 'decision#d1'), action).not.toBe('allow');
    for (const key of ['revoke#t1', 'revoke-all#t1', 'snooze#t1', 'protection-cap#kill-switch#0xabc'])
      for (const action of ['BatchGetItem', 'GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'])
        expect(tokens(action, key), `${action} ${key}`).not.toBe('allow');
    expect(decide('desk-page', 'dynamodb:Query', tableArn('tokens'))).not.toBe('allow');
  });

  it('never allows a DynamoDB Scan (every read is a Query or GetItem)', () => {
    for (const name of HANDLER_NAMES) {
      for (const id of Object.keys(TABLES) as TableId[]) expect(decide(name, 'dynamodb:Scan', tableArn(id)), `${name} ${id}`).not.toBe('allow');
    }
  });

  it('gives each function exactly its item actions on each table (evaluated)', () => {
    const expected: Record<HandlerName, Partial<Record<TableId, string[]>>> = {
      // UpdateItem on accounts (and preferences below) is allowed only with its attributes named: see the next test.
      dispatch: { accounts: READ },
      // tokens: PutItem on decision items alone (dynamodb:LeadingKeys, see the token-purpose test).
      collect: {
        accounts: READ,
        curves: [...READ, 'UpdateItem', 'BatchWriteItem'],
        snapshots: [...READ, 'PutItem'],
        alerts: [...READ, 'PutItem'],
        // delegates: UpdateItem and BatchWriteItem on the account partitions, PutItem on known keys alone (see the key-space test).
        delegates: [...READ, 'UpdateItem', 'BatchWriteItem', 'PutItem'],
        // PutItem and GetItem on decision items, GetItem on the signer's per-delegate units (an unknown key refused is judged again).
        tokens: ['PutItem', 'GetItem'],
        // The alert history (alert#<account> alone: see the history key-space test).
        history: ['PutItem'],
      },
      notify: {
        ...MAILER_READS,
        alerts: ['GetItem'],
        deliveries: RW,
        channels: ['Query'],
        // The marked operators, for a notice the breaker stopped: the operators item alone (see the operators test).
        desk: ['GetItem'],
        // Each copy's outcome (delivery#<account> alone: see the history key-space test).
        history: ['PutItem'],
      },
      'report-dispatch': {
        accounts: READ,
        preferences: ['BatchGetItem', 'GetItem', 'Query'],
        deliveries: ['BatchGetItem', 'GetItem', 'UpdateItem'],
        desk: ['GetItem'],
        history: ['PutItem'],
      },
      'daily-report': {
        ...MAILER_READS,
        deliveries: RW,
        // Digests to chat: a chat's mutes of each account, and the channels (an account report's chat is the fan-out's).
        alerts: ['GetItem'],
        channels: ['Query'],
        history: ['PutItem'],
      },
      // channels: the one a chat's link names (its link epoch), on the pages and the signer alike.
      'revoke-page': {
        accounts: READ,
        delegates: READ,
        suppressions: READ,
        preferences: ['BatchGetItem'],
        // PutItem only naming a consumed token's attributes: see the signing-attributes test.
        tokens: ['DeleteItem', 'GetItem'],
        channels: ['GetItem'],
      },
      // UpdateItem on its batches with its part named only (the page's attempts, the worker's results): see the batch test.
      'revoke-all-page': { accounts: ['GetItem'], delegates: ['Query'], tokens: ['GetItem'], channels: ['GetItem'] },
      // PutItem of its units' revoke tokens only naming a consumed token's attributes: see the signing-attributes test.
      'revoke-all-worker': { tokens: ['DeleteItem', 'GetItem'] },
      // No table at all: the signer reads and re-checks the decision, and audits.
      'decision-worker': {},
      // The fan-out of a published event: the account, the channel list, a chat's mutes of it, its curve (the chart), its delegates (the revoke-all count).
      'channel-fanout': { accounts: ['GetItem'], channels: ['Query'], alerts: ['GetItem'], curves: ['Query'], delegates: ['Query'] },
      // Query on channels: its backlog partitions alone (see the backlog test); no fan-out's reads.
      'channel-worker': {
        channels: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem', 'Query', 'BatchWriteItem'],
        deliveries: ['UpdateItem'],
        history: ['PutItem'],
      },
      'preferences-page': {
        preferences: ['GetItem'],
        alerts: ['GetItem', 'PutItem'],
        accounts: ['GetItem'],
        channels: ['GetItem'],
        // PutItem of snooze tokens only naming a consumed token's attributes: see the signing-attributes test.
        tokens: ['DeleteItem'],
        // Its mailbox notices' delivery records (mailbox:) alone: see the history key-space test.
        deliveries: ['UpdateItem'],
        history: ['PutItem'],
      },
      // Read-only over the store but its own table: which accounts a viewer receives; sessions, sign-ins, rates, operators.
      'desk-page': {
        accounts: ['GetItem', 'BatchGetItem'],
        preferences: ['GetItem'],
        curves: ['Query'],
        snapshots: ['Query'],
        // PutItem on the recipients' snoozes (controls#), BatchGetItem on the desk summaries (desk-summary#) alone: see the key-space tests.
        alerts: ['Query', 'GetItem', 'PutItem', 'BatchGetItem'],
        delegates: ['Query'],
        // The channels page's list and the channel a Test names, read only: the Test runs in channel-test (see the key-space test).
        channels: ['Query', 'GetItem'],
        desk: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
        // A decision (decision#, by key) and its units (decision-signing#): see the decisions index test.
        tokens: ['BatchGetItem', 'GetItem'],
        // An account's alert history and deliveries; a lift of the viewer's own snooze recorded: see the history key-space test.
        history: ['Query', 'PutItem'],
      },
      // The desk's Test: the tested channel read, its state, last delivery or migrated chat id recorded.
      'channel-test': { channels: ['GetItem', 'UpdateItem'] },
      'sign-revocation': {
        accounts: READ,
        leases: WRITE,
        audit: ['PutItem'],
        // Revoke tokens (read, mark), decisions (read), their units, caps and breakers (read, conditional put): see the LeadingKeys tests.
        tokens: ['GetItem', 'UpdateItem', 'PutItem', 'BatchGetItem'],
        // Plus UpdateItem of `removedAt` of an account's view (a key found gone), conditioned: see the key-space test.
        delegates: ['Query'],
        // The channel a chat's revoke link names (its link epoch).
        channels: ['GetItem'],
      },
      // Reads which accounts a bounced address gets security notices for (byNextReport's shards, BatchGetItem; its
      // opt-outs); UpdateItem on its own delivery records only (security-bounce:*, see the next test).
      'ses-events': {
        suppressions: ['PutItem'],
        accounts: ['Query', 'BatchGetItem'],
        preferences: ['BatchGetItem'],
        deliveries: ['UpdateItem'],
        desk: ['GetItem'],
        history: ['PutItem'],
      },
    };
    for (const name of HANDLER_NAMES) {
      const actual = Object.fromEntries(
        (Object.keys(TABLES) as TableId[]).map((id) => [id, tableActions(name, id)] as const).filter(([, actions]) => actions.length > 0),
      );
      const wanted = Object.fromEntries(Object.entries(expected[name]).map(([id, actions]) => [id, [...(actions as string[])].sort()]));
      expect(actual, name).toEqual(wanted);
    }
  });

  it('lets the functions that tell the operators read the marked operators and nothing else of the desk table (dynamodb:LeadingKeys)', () => {
    for (const name of ['notify', 'ses-events', 'report-dispatch'] as const) {
      const desk = (action: string, key: string) => decide(name, `dynamodb:${action}`, tableArn('desk'), { 'dynamodb:LeadingKeys': [key] });
      expect(desk('GetItem', 'operators'), name).toBe('allow');
      for (const key of ['session#abc', 'recipient#a@example.com', 'sign-in#x', 'passkey#y']) expect(desk('GetItem', key), `${name} ${key}`).not.toBe('allow');
      for (const action of ['PutItem', 'UpdateItem', 'DeleteItem']) expect(desk(action, 'operators'), `${name} ${action}`).not.toBe('allow');
    }
  });

  it('lets ses-events touch only its operator-notice delivery records, and neither write accounts nor preferences nor lift a suppression', () => {
    const may = (action: string, key: string) =>
      decide('ses-events', `dynamodb:${action}`, tableArn('deliveries'), { 'dynamodb:LeadingKeys': [key] }) === 'allow';
    expect(may('UpdateItem', 'security-bounce:0100018e-fb#ops@example.com#alarm@example.com')).toBe(true);
    for (const key of ['report:0xabc:2025-06-02#a@example.com', 'drawdown:0xabc:1#a@example.com', 'report-ledger:29180733:s3'])
      expect(may('UpdateItem', key), key).toBe(false);
    for (const action of ['GetItem', 'PutItem', 'DeleteItem']) expect(may(action, 'security-bounce:x#a@example.com'), action).toBe(false);
    for (const table of ['accounts', 'preferences'] as const)
      for (const action of ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'])
        expect(decide('ses-events', `dynamodb:${action}`, tableArn(table)), `${table} ${action}`).not.toBe('allow');
    expect(decide('ses-events', 'dynamodb:DeleteItem', tableArn('suppressions'))).not.toBe('allow');
  });

  it("confines the channel worker's writes to the backlog partitions: it cannot create or delete a channel", () => {
    const on = (action: string, key: string) => decide('channel-worker', `dynamodb:${action}`, tableArn('channels'), { 'dynamodb:LeadingKeys': [key] });
    for (const action of ['PutItem', 'DeleteItem', 'Query']) {
      expect(on(action, 'backlog#desk-slack'), action).toBe('allow');
      expect(on(action, 'backlog-flush'), action).toBe('allow');
    }
    for (const action of ['PutItem', 'DeleteItem', 'BatchWriteItem']) expect(on(action, 'channel'), action).not.toBe('allow');
  });

  it('lets the channel worker keep the pager incidents it opened (incident#<channel>) and nothing else there: no Query, no update of a channel through them', () => {
    const on = (action: string, key: string) => decide('channel-worker', `dynamodb:${action}`, tableArn('channels'), { 'dynamodb:LeadingKeys': [key] });
    for (const action of ['GetItem', 'PutItem', 'DeleteItem']) expect(on(action, 'incident#desk-pager'), action).toBe('allow');
    expect(on('Query', 'incident#desk-pager')).not.toBe('allow');
    for (const action of ['PutItem', 'DeleteItem']) expect(on(action, 'incidentless'), action).not.toBe('allow');
  });

  it('lets the fan-out list the channels and read what a notice shows, writing none of it; the channel worker reads none of it', () => {
    const on = (owner: string, action: string, key: string) => decide(owner, `dynamodb:${action}`, tableArn('channels'), { 'dynamodb:LeadingKeys': [key] });
    expect(on('channel-fanout', 'Query', 'channel')).toBe('allow');
    for (const key of ['pace#q0Xk3Zx1', 'backlog#desk-slack', 'other#x']) expect(on('channel-fanout', 'Query', key), key).not.toBe('allow');
    // The report worker lists the channels for digests alone: the channel partition, nothing else of the table.
    expect(on('daily-report', 'Query', 'channel')).toBe('allow');
    for (const key of ['pace#q0Xk3Zx1', 'backlog#desk-slack', 'incident#desk-pager']) expect(on('daily-report', 'Query', key), key).not.toBe('allow');
    for (const action of ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'])
      expect(on('channel-fanout', action, 'channel'), action).not.toBe('allow');
    expect(decide('channel-fanout', 'dynamodb:GetItem', tableArn('accounts'))).toBe('allow');
    expect(decide('channel-fanout', 'dynamodb:GetItem', tableArn('alerts'))).toBe('allow');
    expect(decide('channel-fanout', 'dynamodb:Query', tableArn('curves'))).toBe('allow');
    expect(decide('channel-fanout', 'dynamodb:Query', tableArn('delegates'))).toBe('allow');
    for (const table of ['alerts', 'curves', 'delegates', 'accounts'] as const)
      for (const action of ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'])
        expect(decide('channel-fanout', `dynamodb:${action}`, tableArn(table)), `${table} ${action}`).not.toBe('allow');
    expect(on('channel-worker', 'Query', 'channel')).not.toBe('allow');
    for (const [table, action] of [
      ['accounts', 'GetItem'],
      ['alerts', 'GetItem'],
      ['curves', 'Query'],
      ['delegates', 'Query'],
    ] as const)
      expect(decide('channel-worker', `dynamodb:${action}`, tableArn(table)), `${table} ${action}`).not.toBe('allow');
  });

  it("keeps each account's alert history to who makes it (collect, the snooze pages, the desk's lift), its deliveries to the senders, and lets the desk page alone read them (dynamodb:LeadingKeys)", () => {
    const account = '0x00000000000000000000000000000000000000a1';
    const on = (owner: string, action: string, key: string) => decide(owner, `dynamodb:${action}`, tableArn('history'), { 'dynamodb:LeadingKeys': [key] });
    for (const owner of ['collect', 'preferences-page', 'desk-page']) {
      expect(on(owner, 'PutItem', `alert#${account}`), owner).toBe('allow');
      // The preferences page records its mailbox notices, as the senders do.
      expect(on(owner, 'PutItem', `delivery#${account}`) === 'allow', owner).toBe(owner === 'preferences-page');
      expect(on(owner, 'PutItem', account), owner).not.toBe('allow');
      for (const action of ['UpdateItem', 'DeleteItem', 'BatchWriteItem'])
        expect(on(owner, action, `alert#${account}`), `${owner} ${action}`).not.toBe('allow');
    }
    // Each delivery's outcome: the mail senders, the channel worker and reconciliation (a missed report), delivery#<account> only.
    for (const owner of ['notify', 'daily-report', 'channel-worker', 'ses-events', 'report-dispatch']) {
      expect(on(owner, 'PutItem', `delivery#${account}`), owner).toBe('allow');
      expect(on(owner, 'PutItem', `alert#${account}`), owner).not.toBe('allow');
      for (const action of ['UpdateItem', 'DeleteItem', 'BatchWriteItem'])
        expect(on(owner, action, `delivery#${account}`), `${owner} ${action}`).not.toBe('allow');
    }
    for (const key of [`alert#${account}`, `delivery#${account}`]) expect(on('desk-page', 'Query', key), key).toBe('allow');
    expect(on('desk-page', 'Query', account)).not.toBe('allow');
    for (const name of HANDLER_NAMES.filter((n) => n !== 'desk-page'))
      for (const action of ['Query', 'GetItem', 'BatchGetItem'])
        expect(decide(name, `dynamodb:${action}`, tableArn('history')), `${name} ${action}`).not.toBe('allow');
  });

  it("confines the desk page's writes to the desk items it owns (never the operators list) and its channels reads to the channels' partition", () => {
    const desk = (action: string, key: string) => decide('desk-page', `dynamodb:${action}`, tableArn('desk'), { 'dynamodb:LeadingKeys': [key] });
    for (const key of ['session#abc', 'sign-in#t1', 'rate#client#h#0', 'challenge#c1', 'passkey#p1', 'recipient#a@example.com', 'channel-test#t1'])
      for (const action of ['PutItem', 'UpdateItem', 'DeleteItem']) expect(desk(action, key), `${action} ${key}`).toBe('allow');
    for (const action of ['PutItem', 'UpdateItem', 'DeleteItem']) expect(desk(action, 'operators'), action).not.toBe('allow');
    expect(desk('GetItem', 'operators')).toBe('allow');
    // Its one write outside its table: the per-recipient snoozes under controls#<account>, never an alert state.
    const alerts = (key: string) => decide('desk-page', 'dynamodb:PutItem', tableArn('alerts'), { 'dynamodb:LeadingKeys': [key] });
    expect(alerts('controls#0x00000000000000000000000000000000000000a1')).toBe('allow');
    expect(alerts('0x00000000000000000000000000000000000000a1')).not.toBe('allow');
    const channels = (action: string, key: string) => decide('desk-page', `dynamodb:${action}`, tableArn('channels'), { 'dynamodb:LeadingKeys': [key] });
    // The channels page and the channel a Test names: read only (channel-test records what the test came to).
    for (const action of ['Query', 'GetItem']) expect(channels(action, 'channel'), action).toBe('allow');
    for (const key of ['backlog#desk-slack', 'pace#q0Xk3Zx1', 'incident#desk-pager', 'backlog-flush'])
      for (const action of ['Query', 'GetItem', 'UpdateItem', 'PutItem']) expect(channels(action, key), `${action} ${key}`).not.toBe('allow');
    for (const action of ['UpdateItem', 'PutItem', 'DeleteItem', 'BatchWriteItem']) expect(channels(action, 'channel'), action).not.toBe('allow');
    for (const table of ['accounts', 'curves', 'snapshots', 'delegates', 'preferences'] as const)
      for (const action of ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'])
        expect(decide('desk-page', `dynamodb:${action}`, tableArn(table)), `${table} ${action}`).not.toBe('allow');
  });

  it("lets preferences-page claim and finish its mailbox notices' delivery records (mailbox:) and no other delivery", () => {
    const on = (action: string, key: string) => decide('preferences-page', `dynamodb:${action}`, tableArn('deliveries'), { 'dynamodb:LeadingKeys': [key] });
    expect(on('UpdateItem', 'mailbox:security-off:1b4e28ba#a@example.com')).toBe('allow');
    for (const key of ['drawdown:0xabc:1#a@example.com', 'security-bounce:1#a@example.com']) expect(on('UpdateItem', key), key).not.toBe('allow');
    for (const action of ['GetItem', 'PutItem', 'DeleteItem', 'Scan']) expect(on(action, 'mailbox:security-off:1#a@example.com'), action).not.toBe('allow');
  });

  it.each(['preferences-page', 'revoke-page', 'revoke-all-page', 'sign-revocation'])(
    "lets %s read a channel (a chat link's epoch) and nothing else of the channels table",
    (owner) => {
      const on = (action: string, key: string) => decide(owner, `dynamodb:${action}`, tableArn('channels'), { 'dynamodb:LeadingKeys': [key] });
      expect(on('GetItem', 'channel')).toBe('allow');
      for (const key of ['pace#q0Xk3Zx1', 'backlog#desk-slack']) expect(on('GetItem', key), key).not.toBe('allow');
      for (const action of ['UpdateItem', 'PutItem', 'DeleteItem', 'Query']) expect(on(action, 'channel'), action).not.toBe('allow');
    },
  );

  it("lets channel-test read and update a channel (the Test's state, last delivery, migrated chat id) and nothing else of the channels table", () => {
    const on = (action: string, key: string) => decide('channel-test', `dynamodb:${action}`, tableArn('channels'), { 'dynamodb:LeadingKeys': [key] });
    for (const action of ['GetItem', 'UpdateItem']) expect(on(action, 'channel'), action).toBe('allow');
    for (const key of ['backlog#desk-slack', 'pace#q0Xk3Zx1', 'incident#desk-pager', 'backlog-flush'])
      for (const action of ['GetItem', 'UpdateItem', 'PutItem']) expect(on(action, key), `${action} ${key}`).not.toBe('allow');
    for (const action of ['Query', 'PutItem', 'DeleteItem', 'BatchWriteItem']) expect(on(action, 'channel'), action).not.toBe('allow');
  });

  it('lets the channel worker update only channels and the shared pacing items (pace#<hash>): not a backlog entry, not another partition', () => {
    const on = (action: string, key: string) => decide('channel-worker', `dynamodb:${action}`, tableArn('channels'), { 'dynamodb:LeadingKeys': [key] });
    expect(on('UpdateItem', 'pace#q0Xk3Zx1')).toBe('allow');
    expect(on('UpdateItem', 'channel')).toBe('allow');
    expect(on('GetItem', 'channel')).toBe('allow');
    for (const key of ['backlog#desk-slack', 'backlog-flush', 'other#x', 'pace']) expect(on('UpdateItem', key), key).not.toBe('allow');
    for (const other of HANDLER_NAMES.filter((n) => n !== 'channel-worker'))
      expect(decide(other, 'dynamodb:UpdateItem', tableArn('channels'), { 'dynamodb:LeadingKeys': ['pace#q0Xk3Zx1'] }), other).not.toBe('allow');
  });

  it('allows UpdateItem on accounts and preferences only naming the attributes each function writes (dynamodb:Attributes, Null, ReturnValues)', () => {
    const update = (owner: string, table: TableId, attributes: string[] | undefined, returnValues?: string) =>
      decide(owner, 'dynamodb:UpdateItem', tableArn(table), {
        ...(attributes === undefined ? {} : { 'dynamodb:Attributes': attributes }),
        ...(returnValues === undefined ? {} : { 'dynamodb:ReturnValues': returnValues }),
      });
    const allowed: [string, TableId, string[]][] = [
      ['dispatch', 'accounts', ['address', 'nextDueAt', 'slotCadence', 'slotMinute']],
      ['dispatch', 'accounts', ['address', 'dispatchedThrough']],
      ['collect', 'accounts', ['address', 'delegateMark']],
      ['collect', 'accounts', ['address', 'status', 'statusReason', 'consecutiveErrors', 'consecutiveEmptyPolls', 'polled', 'lastFailure']],
      ['report-dispatch', 'accounts', ['address', 'nextReportAt']],
      ['report-dispatch', 'preferences', ['email', 'nextReportAt']],
      ['preferences-page', 'preferences', ['email', 'optOuts', 'updatedAt']],
      ['preferences-page', 'preferences', ['email', 'linkMailedAt', 'updatedAt']],
    ];
    for (const [owner, table, attributes] of allowed) {
      expect(update(owner, table, attributes), `${owner} ${table} ${attributes.join()}`).toBe('allow');
      expect(update(owner, table, attributes, 'NONE'), `${owner} ${table} NONE`).toBe('allow');
      // Without the key the ForAllValues test would be vacuously true: the Null condition refuses it.
      expect(update(owner, table, undefined), `${owner} ${table} no attributes`).toBe('implicit-deny');
      expect(update(owner, table, attributes, 'ALL_NEW'), `${owner} ${table} ALL_NEW`).toBe('implicit-deny');
    }
    // What a compromised function would rewrite: an account's recipients or signer, a recipient's link epoch or schedule.
    for (const owner of ['dispatch', 'collect', 'report-dispatch']) {
      for (const attribute of ['emails', 'signer', 'drawdownThresholds'])
        expect(update(owner, 'accounts', ['address', attribute]), `${owner} ${attribute}`).toBe('implicit-deny');
    }
    for (const attribute of ['linksRevokedAt', 'nextReportAt', 'mode'])
      expect(update('preferences-page', 'preferences', ['email', attribute]), attribute).toBe('implicit-deny');
    expect(update('report-dispatch', 'preferences', ['email', 'optOuts'])).toBe('implicit-deny');
    for (const owner of ['notify', 'daily-report', 'revoke-page', 'sign-revocation', 'ses-events'])
      expect(update(owner, 'accounts', ['address', 'nextReportAt']), owner).toBe('implicit-deny');
  });

  it('lets only sign-revocation touch revoke-token marks: no other role can update a token, and it cannot create or delete one', () => {
    const revokeToken = { 'dynamodb:LeadingKeys': ['revoke#abc'] };
    for (const name of HANDLER_NAMES.filter((n) => n !== 'sign-revocation')) {
      expect(decide(name, 'dynamodb:UpdateItem', tableArn('tokens'), revokeToken), name).not.toBe('allow');
    }
    // Unconditioned grants on tokens are none: every token grant is bound to its purpose's keys.
    for (const name of HANDLER_NAMES)
      expect(decide(name, 'dynamodb:UpdateItem', tableArn('tokens'), { 'dynamodb:LeadingKeys': ['other#abc'] }), name).not.toBe('allow');
    for (const action of ['PutItem', 'DeleteItem', 'BatchWriteItem']) {
      expect(decide('sign-revocation', `dynamodb:${action}`, tableArn('tokens'), revokeToken), action).not.toBe('allow');
      expect(decide('sign-revocation', `dynamodb:${action}`, tableArn('tokens'), { 'dynamodb:LeadingKeys': ['decision#abc'] }), action).not.toBe('allow');
    }
    // Its only puts on tokens: an automatic decision's per-delegate units, the caps and the breakers; it deletes nothing.
    for (const key of ['decision-signing#abc#0x1', 'protection-cap#kill-switch#0xabc', 'protection-breaker#kill-switch'])
      expect(decide('sign-revocation', 'dynamodb:PutItem', tableArn('tokens'), { 'dynamodb:LeadingKeys': [key] }), key).toBe('allow');
    for (const key of ['decision-signing#abc#0x1', 'revoke#abc', 'decision#abc'])
      expect(decide('sign-revocation', 'dynamodb:DeleteItem', tableArn('tokens'), { 'dynamodb:LeadingKeys': [key] }), key).not.toBe('allow');
    expect(decide('preferences-page', 'dynamodb:GetItem', tableArn('tokens'))).not.toBe('allow');
  });

  it("lets no role but the signer write a token's signedAt or outcome: the link pages and the revoke-all worker put consumed tokens only (dynamodb:Attributes)", () => {
    const write = (owner: string, action: string, key: string, attributes: readonly string[] | undefined, returnValues?: string) =>
      decide(owner, `dynamodb:${action}`, tableArn('tokens'), {
        'dynamodb:LeadingKeys': [key],
        ...(attributes === undefined ? {} : { 'dynamodb:Attributes': [...attributes] }),
        ...(returnValues === undefined ? {} : { 'dynamodb:ReturnValues': returnValues }),
      });
    const consumers: [string, string][] = [
      ['revoke-page', 'revoke#abc'],
      ['revoke-all-worker', 'revoke#abc'],
      ['preferences-page', 'snooze#abc'],
    ];
    for (const [owner, key] of consumers) {
      // What a consume puts: a revoke token (delegate, and batch for a revoke-all unit), a snooze token (neither).
      expect(write(owner, 'PutItem', key, CONSUMED_TOKEN_ATTRIBUTES), owner).toBe('allow');
      expect(write(owner, 'PutItem', key, ['tokenId', 'purpose', 'account', 'consumedAt', 'expiresAt'], 'NONE'), owner).toBe('allow');
      // Without the attribute list the ForAllValues test would be vacuously true: Null refuses it.
      expect(write(owner, 'PutItem', key, undefined), `${owner} no attributes`).toBe('implicit-deny');
      // A token put already marked signed or holding an outcome, or one the decisions index would list (createdAt).
      for (const attribute of [...SIGNING_TOKEN_ATTRIBUTES, 'createdAt'])
        expect(write(owner, 'PutItem', key, [...CONSUMED_TOKEN_ATTRIBUTES, attribute]), `${owner} ${attribute}`).toBe('implicit-deny');
    }
    // signedAt, outcome, outcomeAt on a revoke token: the signer alone, by UpdateItem alone, on revoke tokens alone.
    for (const name of HANDLER_NAMES) {
      for (const attribute of SIGNING_TOKEN_ATTRIBUTES) {
        for (const action of ['PutItem', 'UpdateItem', 'BatchWriteItem']) {
          const signer = name === 'sign-revocation' && action === 'UpdateItem';
          expect(write(name, action, 'revoke#abc', ['tokenId', 'consumedAt', attribute]), `${name} ${action} ${attribute}`).toBe(
            signer ? 'allow' : 'implicit-deny',
          );
          expect(write(name, action, 'snooze#abc', ['tokenId', 'consumedAt', attribute]), `${name} ${action} ${attribute} snooze`).toBe('implicit-deny');
        }
      }
    }
  });

  it('keeps the caps, the breakers and the per-delegate results where only the signer writes (dynamodb:LeadingKeys on tokens), and only it reads caps and breakers', () => {
    const tokens = tableArn('tokens');
    const keys = ['protection-cap#kill-switch#0xabc', 'protection-cap#unknown-delegate#0xabc', 'protection-breaker#kill-switch', 'decision-signing#abc#0x1'];
    const writes = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];
    for (const name of HANDLER_NAMES) {
      for (const key of keys) {
        const allowed = writes.filter((action) => decide(name, `dynamodb:${action}`, tokens, { 'dynamodb:LeadingKeys': [key] }) === 'allow');
        expect(allowed, `${name} ${key}`).toEqual(name === 'sign-revocation' ? ['PutItem'] : []);
      }
      // Reading a cap or a breaker: the signer alone (collect reads only the units, to judge an unknown key again).
      for (const key of keys.slice(0, 3))
        expect(decide(name, 'dynamodb:GetItem', tokens, { 'dynamodb:LeadingKeys': [key] }), `${name} ${key}`).toBe(
          name === 'sign-revocation' ? 'allow' : 'implicit-deny',
        );
    }
    expect(decide('collect', 'dynamodb:GetItem', tokens, { 'dynamodb:LeadingKeys': ['decision-signing#abc#0x1'] })).toBe('allow');
    // The caps and the breaker used to be items of alerts, which collect and the preferences page may put: nothing of them is read there now.
    expect(decide('sign-revocation', 'dynamodb:GetItem', tableArn('alerts'))).not.toBe('allow');
  });

  it('keeps audit records append-only: nobody may update or delete one, only sign-revocation may put', () => {
    for (const role of roles) {
      for (const action of ['UpdateItem', 'DeleteItem', 'BatchWriteItem']) {
        expect(
          evaluate(role.statements, { principal: role.principal, action: `dynamodb:${action}`, resource: tableArn('audit') }),
          `${role.owner} ${action}`,
        ).not.toBe('allow');
      }
    }
    const putters = roles.filter(
      (r) => evaluate(r.statements, { principal: r.principal, action: 'dynamodb:PutItem', resource: tableArn('audit') }) === 'allow',
    );
    expect(putters.map((r) => r.owner)).toEqual(['sign-revocation']);
  });

  it('lets only revoke-page, the revoke-all worker and the decision worker invoke sign-revocation, and only that function (not the revoke-all page, not collect)', () => {
    const signer = `arn:test:${Object.entries(synth.json.web.Resources).find(([, r]) => r.Properties?.['FunctionName'] === 'sentinel-devnet-sign-revocation')?.[0]}`;
    const invokers = roles.filter((r) => evaluate(r.statements, { principal: r.principal, action: 'lambda:InvokeFunction', resource: signer }) === 'allow');
    expect(invokers.map((r) => r.owner).sort()).toEqual(['decision-worker', 'revoke-all-worker', 'revoke-page']);
    for (const owner of ['revoke-page', 'revoke-all-worker', 'decision-worker']) {
      const invokeResources = roleOf(owner)
        .statements.filter((s) => asList(s.Action).includes('lambda:InvokeFunction'))
        .flatMap((s) => asList(s.Resource));
      expect(invokeResources, owner).toEqual([signer]);
    }
  });

  it("lets only the channel worker and channel-test (the desk's Test button) read channel secrets, read-only and only under the stage prefix: never the desk page", () => {
    const secret = (name: string): string => `arn:aws:secretsmanager:${TEST_REGION}:${TEST_ACCOUNT}:secret:${name}-AbCdEf`;
    const readers = roles.filter(
      (r) =>
        evaluate(r.statements, { principal: r.principal, action: 'secretsmanager:GetSecretValue', resource: secret('sentinel/devnet/channels/desk') }) ===
        'allow',
    );
    expect(readers.map((r) => r.owner).sort()).toEqual(['channel-test', 'channel-worker']);
    for (const reader of ['channel-worker', 'channel-test']) {
      // Not another stage's channel secret, not the project's other secrets, not an arbitrary one.
      for (const name of ['sentinel/testnet/channels/desk', 'sentinel-devnet-other', 'prod/database', 'sentinel/devnet/channelsX']) {
        expect(decide(reader, 'secretsmanager:GetSecretValue', secret(name)), `${reader} ${name}`).not.toBe('allow');
      }
      for (const action of [
        'secretsmanager:PutSecretValue',
        'secretsmanager:DescribeSecret',
        'secretsmanager:ListSecrets',
        'secretsmanager:DeleteSecret',
        'secretsmanager:UpdateSecret',
      ]) {
        expect(decide(reader, action, secret('sentinel/devnet/channels/desk')), `${reader} ${action}`).not.toBe('allow');
      }
    }
  });

  it('lets only the desk page invoke channel-test, and the desk page invoke nothing else', () => {
    const functionArn = (name: string) =>
      `arn:test:${Object.entries(synth.json.web.Resources).find(([, r]) => r.Properties?.['FunctionName'] === `sentinel-devnet-${name}`)?.[0]}`;
    const tester = functionArn('channel-test');
    const invokers = roles.filter((r) => evaluate(r.statements, { principal: r.principal, action: 'lambda:InvokeFunction', resource: tester }) === 'allow');
    expect(invokers.map((r) => r.owner)).toEqual(['desk-page']);
    const invokeResources = roleOf('desk-page')
      .statements.filter((s) => asList(s.Action).includes('lambda:InvokeFunction'))
      .flatMap((s) => asList(s.Resource));
    expect(invokeResources).toEqual([tester]);
    expect(decide('desk-page', 'lambda:InvokeFunction', functionArn('sign-revocation'))).not.toBe('allow');
  });

  it('gives channel-test nothing but reading channel secrets and its channels-table grant', () => {
    expect(ownActions('channel-test')).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem', 'secretsmanager:GetSecretValue']);
    for (const table of Object.keys(TABLES) as TableId[]) if (table !== 'channels') expect(tableActions('channel-test', table), table).toEqual([]);
  });

  it('lets sign-revocation, collect and the revoke-all worker read the protection switch, and nobody write it or read another parameter', () => {
    const readers = roles.filter(
      (r) => evaluate(r.statements, { principal: r.principal, action: 'ssm:GetParameter', resource: PROTECTION_PARAMETER }) === 'allow',
    );
    expect(readers.map((r) => r.owner).sort()).toEqual(['collect', 'revoke-all-worker', 'sign-revocation']);
    for (const role of roles) {
      for (const action of ['ssm:PutParameter', 'ssm:DeleteParameter', 'ssm:LabelParameterVersion']) {
        expect(evaluate(role.statements, { principal: role.principal, action, resource: PROTECTION_PARAMETER }), `${role.owner} ${action}`).not.toBe('allow');
      }
      const other = `arn:aws:ssm:${TEST_REGION}:${TEST_ACCOUNT}:parameter/sentinel/devnet/public-base-url`;
      for (const action of ['ssm:GetParameter', 'ssm:GetParameters', 'ssm:GetParametersByPath']) {
        expect(evaluate(role.statements, { principal: role.principal, action, resource: other }), `${role.owner} ${action}`).not.toBe('allow');
      }
    }
    const param = Object.values(synth.json.data.Resources).find((r) => r.Type === 'AWS::SSM::Parameter');
    expect(param?.Properties).toMatchObject({ Name: '/sentinel/devnet/protection', Type: 'String', Value: 'off' });
    expect(param?.DeletionPolicy).toBe('Retain');
  });

  it('lets each schedule role invoke exactly its one function (no version wildcard)', () => {
    const scheduleRoles = roles.filter((r) => r.owner.includes('Schedule'));
    expect(scheduleRoles).toHaveLength(2);
    for (const r of scheduleRoles) {
      const resources = r.statements.filter((s) => asList(s.Action).includes('lambda:InvokeFunction')).flatMap((s) => asList(s.Resource));
      expect(resources).toHaveLength(1);
      expect(resources[0]).not.toContain(':*');
    }
  });

  describe('link keys: each private key only where its links are minted, public keys and the anti-CSRF secret for the pages', () => {
    const secretArn = (name: string): string => `arn:aws:secretsmanager:${TEST_REGION}:${TEST_ACCOUNT}:secret:${name}-AbCdEf`;
    const readersOf = (name: string): string[] => allowedOwners('secretsmanager:GetSecretValue', secretArn(name));
    const MINTERS: Record<string, string[]> = {
      // The fan-out mints the links of the notices it fans out (revoke, revoke-all, the channel's own); the channel worker none.
      // The desk page mints them for its Revoke buttons (a signed-in viewer, an account it receives).
      revoke: ['channel-fanout', 'daily-report', 'desk-page', 'notify'],
      'revoke-all': ['channel-fanout', 'desk-page', 'notify'],
      'channel-snooze': ['channel-fanout'],
      'channel-preferences': ['channel-fanout'],
      snooze: ['notify'],
      unsubscribe: ['daily-report', 'notify'],
      preferences: ['daily-report', 'notify', 'preferences-page'],
      'security-off': ['preferences-page'],
      'desk-sign-in': ['desk-page'],
    };

    it.each(Object.entries(MINTERS))('only %s minters read its private key secret', (purpose, minters) => {
      expect(readersOf(`sentinel-devnet-link-key-${purpose}`)).toEqual(minters);
    });

    it('no page can read the revoke, revoke-all, snooze or unsubscribe private key, but the desk page the revoke and revoke-all keys (never the pages that verify them)', () => {
      for (const page of ['revoke-page', 'revoke-all-page', 'preferences-page', 'desk-page']) {
        for (const purpose of ['revoke', 'revoke-all', 'snooze', 'unsubscribe']) {
          if (page === 'desk-page' && (purpose === 'revoke' || purpose === 'revoke-all')) continue;
          expect(decide(page, 'secretsmanager:GetSecretValue', secretArn(`sentinel-devnet-link-key-${purpose}`)), `${page} reading ${purpose}`).not.toBe(
            'allow',
          );
        }
      }
    });

    it("the pages alone read the anti-CSRF secret; they and the signer (which verifies a click's link itself) the published public keys; no role reads the old shared link secret", () => {
      expect(readersOf('sentinel-devnet-csrf-secret')).toEqual(['desk-page', 'preferences-page', 'revoke-all-page', 'revoke-page']);
      const parameter = `arn:aws:ssm:${TEST_REGION}:${TEST_ACCOUNT}:parameter/sentinel/devnet/link-public-keys`;
      expect(allowedOwners('ssm:GetParameter', parameter)).toEqual(['desk-page', 'preferences-page', 'revoke-all-page', 'revoke-page', 'sign-revocation']);
      expect(roles.filter((r) => evaluate(r.statements, { principal: r.principal, action: 'ssm:PutParameter', resource: parameter }) === 'allow')).toEqual([]);
      expect(readersOf('sentinel-devnet-link-secret')).toEqual([]);
    });
  });

  it('lets only the mailers send, as the configured sender, through the identity and configuration set', () => {
    const identity = `arn:aws:ses:${TEST_REGION}:${TEST_ACCOUNT}:identity/sentinel.example.com`;
    const send = (r: RolePolicy, from: string): string =>
      evaluate(r.statements, { principal: r.principal, action: 'ses:SendRawEmail', resource: identity, context: { 'ses:FromAddress': from } });
    // preferences-page mails a mailbox its own notices (security-off confirmation and notice, a new preferences link);
    // report-dispatch and ses-events mail the operator only (missed reports; a security recipient suppressed by a bounce); desk-page mails sign-in links.
    expect(
      roles
        .filter((r) => send(r, TEST_CONTEXT.mailFrom) === 'allow')
        .map((r) => r.owner)
        .sort(),
    ).toEqual(['daily-report', 'desk-page', 'notify', 'preferences-page', 'report-dispatch', 'ses-events']);
    expect(send(roleOf('preferences-page'), 'someone-else@sentinel.example.com')).not.toBe('allow');
    expect(send(roleOf('notify'), 'someone-else@sentinel.example.com')).not.toBe('allow');
    const configSet = `arn:aws:ses:${TEST_REGION}:${TEST_ACCOUNT}:configuration-set/sentinel-devnet-mail`;
    expect(decide('notify', 'ses:SendRawEmail', configSet, { 'ses:FromAddress': TEST_CONTEXT.mailFrom })).toBe('allow');
  });

  it("lets only the deploy-time provider set the identity's default configuration set, on that identity and set, with nothing else but its own logs", () => {
    const identity = `arn:aws:ses:${TEST_REGION}:${TEST_ACCOUNT}:identity/sentinel.example.com`;
    const configSet = `arn:aws:ses:${TEST_REGION}:${TEST_ACCOUNT}:configuration-set/sentinel-devnet-mail`;
    const setters = (resource: string) => allowedOwners('ses:PutEmailIdentityConfigurationSetAttributes', resource);
    expect(setters(identity)).toEqual([IDENTITY_DEFAULT_FUNCTION]);
    expect(setters(configSet)).toEqual([IDENTITY_DEFAULT_FUNCTION]);
    expect(setters(`arn:aws:ses:${TEST_REGION}:${TEST_ACCOUNT}:identity/other.example.com`)).toEqual([]);
    const provider = roleOf(IDENTITY_DEFAULT_FUNCTION);
    // Its grants, all of them: that one SES action, and writing to its own log group (no managed policy: see collectRoles).
    expect(provider.statements.flatMap((st) => asList(st.Action)).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'ses:PutEmailIdentityConfigurationSetAttributes',
    ]);
    const decideProvider = (action: string, resource: string) => evaluate(provider.statements, { principal: provider.principal, action, resource });
    expect(decideProvider('ses:SendRawEmail', identity)).not.toBe('allow');
    expect(decideProvider('ses:PutConfigurationSetDeliveryOptions', configSet)).not.toBe('allow');
    expect(decideProvider('dynamodb:GetItem', tableArn('accounts'))).not.toBe('allow');
  });

  it('lets producers send only to their queue: dispatch -> collect, collect, sign-revocation and the revoke-all worker -> notify and fanout (the event and its fan-out), the channel worker -> notify (a channel it marked broken) and fanout (a stray fan-out passed on), report-dispatch -> report, the fan-out, notify, the report worker and the channel worker -> channel, revoke-all-page -> revocations', () => {
    const senders = (name: string): string[] => allowedOwners('sqs:SendMessage', queueArn(name));
    expect(senders('collect')).toEqual(['dispatch']);
    expect(senders('notify')).toEqual(['channel-worker', 'collect', 'revoke-all-worker', 'sign-revocation']);
    expect(senders('report')).toEqual(['report-dispatch']);
    expect(senders('fanout')).toEqual(['channel-worker', 'collect', 'daily-report', 'revoke-all-worker', 'sign-revocation']);
    expect(senders('channel')).toEqual(['channel-fanout', 'channel-worker', 'daily-report', 'notify']);
    expect(senders('revocations.fifo')).toEqual(['revoke-all-page']);
    expect(senders('decisions.fifo')).toEqual(['collect']);
    for (const dlq of ['collect-dlq', 'fanout-dlq', 'channel-dlq', 'revocations-dlq.fifo', 'decisions-dlq.fifo']) expect(senders(dlq), dlq).toEqual([]);
  });

  it("lets each consumer set a failed record's backoff on its own queue alone (sqs:ChangeMessageVisibility)", () => {
    const changers = (name: string): string[] => allowedOwners('sqs:ChangeMessageVisibility', queueArn(name));
    expect(changers('collect')).toEqual(['collect']);
    expect(changers('notify')).toEqual(['notify']);
    expect(changers('report')).toEqual(['daily-report']);
    expect(changers('fanout')).toEqual(['channel-fanout']);
    expect(changers('report-dlq')).toEqual([]);
    expect(changers('decisions.fifo')).toEqual(['decision-worker']);
  });

  it('gives the decision worker nothing but invoking the signer and consuming its own queue', () => {
    expect(ownActions('decision-worker')).toEqual([
      'lambda:InvokeFunction',
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:ReceiveMessage',
    ]);
    for (const action of ['kms:Sign', 'ssm:GetParameter', 'sqs:SendMessage']) expect(decide('decision-worker', action, '*'), action).not.toBe('allow');
  });
});

describe('owner keys', () => {
  const keyResource = (): { Properties: Record<string, unknown>; DeletionPolicy?: string } => {
    const found = Object.values(synth.json.keys.Resources).find((r) => r.Type === 'AWS::KMS::Key');
    if (!found) throw new Error('no owner key');
    return found as { Properties: Record<string, unknown>; DeletionPolicy?: string };
  };
  const keyPolicy = (): PolicyStatementJson[] => (resolveIntrinsics(keyResource().Properties['KeyPolicy']) as { Statement: PolicyStatementJson[] }).Statement;
  /** An administrator whose IAM policy allows every KMS action on every key. */
  const admin = { principal: roleArn('Administrator'), statements: [{ Effect: 'Allow', Action: 'kms:*', Resource: '*' }] as PolicyStatementJson[] };
  const onKey = (principal: string, action: string): PolicyRequest => ({
    principal,
    action,
    resource: CREATED_KEY,
    context: { 'kms:ResourceAliases': CREATED_KEY_ALIASES },
  });

  it('creates retained secp256k1 signing keys with retained stage aliases, in their own termination-protected stack', () => {
    expect(keyResource().Properties).toMatchObject({ KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY' });
    expect(keyResource().DeletionPolicy).toBe('Retain');
    synth.templates.keys.hasResource('AWS::KMS::Alias', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { AliasName: 'alias/sentinel/devnet/desk-a' },
    });
    expect(synth.stacks.keys.terminationProtection).toBe(true);
    expect(synth.assembly.getStackByName('sentinel-devnet-keys').terminationProtection).toBe(true);
    for (const part of STACK_PARTS.filter((p) => p !== 'keys')) {
      expect(
        Object.values(synth.json[part].Resources).filter((r) => r.Type === 'AWS::KMS::Key' && r.Properties?.['KeySpec'] === 'ECC_SECG_P256K1'),
        part,
      ).toEqual([]);
    }
  });

  it('names the admin actions one by one, without CreateGrant or any cryptographic operation', () => {
    for (const action of OWNER_KEY_ADMIN_ACTIONS) expect(action).not.toContain('*');
    expect(OWNER_KEY_ADMIN_ACTIONS).not.toContain('kms:CreateGrant');
    for (const op of ['kms:Sign', 'kms:Verify', 'kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey']) expect(OWNER_KEY_ADMIN_ACTIONS).not.toContain(op);
  });

  it('lets the signer role sign and read the public key, through the key policy and its own IAM policy', () => {
    const signer = roleOf('sign-revocation');
    expect(signer.principal).toBe(roleArn('sentinel-devnet-sign-revocation'));
    for (const action of ['kms:Sign', 'kms:GetPublicKey'])
      expect(kmsAllows(keyPolicy(), signer.statements, onKey(signer.principal, action)), action).toBe(true);
    // Its IAM grant reaches only keys carrying a configured alias, and the existing key by ARN.
    expect(decide('sign-revocation', 'kms:Sign', CREATED_KEY, { 'kms:ResourceAliases': ['alias/other'] })).not.toBe('allow');
    expect(decide('sign-revocation', 'kms:Sign', TEST_CONTEXT.ownerKeyArns[0])).toBe('allow');
    expect(kmsAllows(keyPolicy(), signer.statements, onKey(signer.principal, 'kms:CreateGrant'))).toBe(false);
  });

  it('denies signing and granting to every other principal, even one IAM allows kms:* on every key', () => {
    expect(kmsAllows(keyPolicy(), admin.statements, onKey(admin.principal, 'kms:Sign'))).toBe(false);
    expect(kmsAllows(keyPolicy(), admin.statements, onKey(admin.principal, 'kms:CreateGrant'))).toBe(false);
    expect(evaluate(keyPolicy(), onKey(admin.principal, 'kms:Sign'))).toBe('deny');
    expect(evaluate(keyPolicy(), onKey(roleArn('sentinel-devnet-sign-revocation'), 'kms:CreateGrant'))).toBe('deny');
    for (const role of roles.filter((r) => r.owner !== 'sign-revocation')) {
      expect(kmsAllows(keyPolicy(), role.statements, onKey(role.principal, 'kms:Sign')), role.owner).toBe(false);
    }
    // A role of the same name in another account is not the signer.
    expect(evaluate(keyPolicy(), onKey('arn:aws:iam::444455556666:role/sentinel-devnet-sign-revocation', 'kms:Sign'))).toBe('deny');
  });

  it('stays manageable by the account (CloudFormation updates, no lockout) and readable for address derivation', () => {
    for (const action of [
      'kms:PutKeyPolicy',
      'kms:DescribeKey',
      'kms:GetKeyPolicy',
      'kms:TagResource',
      'kms:UpdateKeyDescription',
      'kms:ScheduleKeyDeletion',
      'kms:GetPublicKey',
    ]) {
      expect(kmsAllows(keyPolicy(), admin.statements, onKey(admin.principal, action)), action).toBe(true);
    }
    // ... but only as far as the principal's own IAM policy allows.
    expect(kmsAllows(keyPolicy(), [], onKey(admin.principal, 'kms:PutKeyPolicy'))).toBe(false);
  });

  it('grants no other KMS use to any function (queues and tables use AWS-managed keys)', () => {
    for (const name of HANDLER_NAMES.filter((n) => n !== 'sign-revocation')) {
      const kms = roleOf(name).statements.filter((s) => asList(s.Action).some((a) => a.startsWith('kms:')));
      expect(kms, name).toEqual([]);
    }
  });
});
