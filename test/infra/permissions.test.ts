import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLER_NAMES, type HandlerName } from '../../infra/bundling/handlerCatalog';
import type { TableId } from '../../functions/store/tableDefinitions';
import { STACK_PARTS, TEST_CONTEXT, cleanUpSynth, synthStage, type SynthResult } from './synthStage';

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
  Principal?: unknown;
}
interface Grant {
  /** Function whose execution role holds the statement, or the logical id of another role. */
  owner: string;
  actions: string[];
  resources: unknown[];
  condition: Record<string, unknown> | undefined;
}

let synth: SynthResult;
let grants: Grant[];

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** Every Allow statement of every IAM policy in the app, attributed to the function whose role holds it. */
function collectGrants(): Grant[] {
  const out: Grant[] = [];
  for (const part of STACK_PARTS) {
    const resources = synth.json[part].Resources;
    const roleOwner = new Map<string, string>();
    for (const r of Object.values(resources)) {
      if (r.Type !== 'AWS::Lambda::Function') continue;
      const roleId = (r.Properties?.['Role'] as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      roleOwner.set(roleId, String(r.Properties?.['FunctionName']).replace('sentinel-devnet-', ''));
    }
    for (const [id, r] of Object.entries(resources)) {
      const documents: { roles: string[]; statements: Statement[] }[] = [];
      if (r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy') {
        const roles = ((r.Properties?.['Roles'] ?? []) as { Ref: string }[]).map((x) => x.Ref);
        documents.push({ roles, statements: (r.Properties?.['PolicyDocument'] as { Statement: Statement[] }).Statement });
      }
      if (r.Type === 'AWS::IAM::Role') {
        for (const p of (r.Properties?.['Policies'] ?? []) as { PolicyDocument: { Statement: Statement[] } }[]) {
          documents.push({ roles: [id], statements: p.PolicyDocument.Statement });
        }
        expect(r.Properties?.['ManagedPolicyArns'], `${id} has managed policies`).toBeUndefined();
      }
      for (const doc of documents) {
        for (const s of doc.statements.filter((st) => st.Effect === 'Allow')) {
          for (const role of doc.roles) {
            out.push({ owner: roleOwner.get(role) ?? role, actions: asList(s.Action), resources: asList(s.Resource), condition: s.Condition });
          }
        }
      }
    }
  }
  return out;
}

const tableOf = (resource: unknown): string | undefined => /Tables([a-z]+)[0-9A-F]{8}Arn/.exec(JSON.stringify(resource))?.[1];

// Bundling eight functions takes a while on a loaded 2-core machine.
beforeAll(() => {
  synth = synthStage(TEST_CONTEXT, { schemaValidation: false });
  grants = collectGrants();
}, 300_000);
afterAll(cleanUpSynth);

describe('IAM statements', () => {
  it('grants no wildcard action and no Resource "*" anywhere but ses:GetSendQuota (an action without resource types)', () => {
    expect(grants.length).toBeGreaterThan(20);
    for (const g of grants) {
      for (const action of g.actions) expect(action, `${g.owner}: ${action}`).not.toContain('*');
      if (g.resources.includes('*')) expect({ actions: g.actions, resources: g.resources }, g.owner).toEqual({ actions: ['ses:GetSendQuota'], resources: ['*'] });
    }
  });

  it('lets only the two mailers read the sending quota, for their mail-rate governor', () => {
    const readers = grants.filter((g) => g.actions.includes('ses:GetSendQuota')).map((g) => g.owner);
    expect(readers.sort()).toEqual(['daily-report', 'notify']);
  });

  it('never allows a DynamoDB Scan (every read is a Query or GetItem)', () => {
    expect(grants.flatMap((g) => g.actions)).not.toContain('dynamodb:Scan');
  });

  it('gives each function exactly its table access', () => {
    const expected: Record<HandlerName, Partial<Record<TableId, 'read' | 'write' | 'readWrite'>>> = {
      dispatch: { accounts: 'readWrite' },
      collect: { accounts: 'readWrite', curves: 'readWrite', snapshots: 'readWrite', alerts: 'readWrite', delegates: 'readWrite' },
      notify: { accounts: 'read', curves: 'read', snapshots: 'read', delegates: 'read', suppressions: 'read', deliveries: 'readWrite' },
      'report-dispatch': { accounts: 'readWrite' },
      'daily-report': { accounts: 'read', curves: 'read', snapshots: 'read', delegates: 'read', suppressions: 'read', deliveries: 'readWrite' },
      'revoke-page': { accounts: 'read', delegates: 'read', tokens: 'readWrite' },
      'preferences-page': { suppressions: 'write', alerts: 'readWrite', tokens: 'readWrite' },
      'sign-revocation': { accounts: 'read', leases: 'write', audit: 'write', tokens: 'readWrite' },
      'ses-events': { suppressions: 'write' },
    };
    for (const name of HANDLER_NAMES) {
      const access: Record<string, Set<string>> = {};
      for (const g of grants.filter((x) => x.owner === name && x.actions.some((a) => a.startsWith('dynamodb:')))) {
        for (const resource of g.resources) {
          const table = tableOf(resource);
          expect(table, `${name}: ${JSON.stringify(resource)}`).toBeDefined();
          for (const a of g.actions) (access[table as string] ??= new Set()).add(a);
        }
      }
      const summary = Object.fromEntries(
        Object.entries(access).map(([table, actions]) => {
          const reads = actions.has('dynamodb:GetItem') && actions.has('dynamodb:Query');
          const writes = actions.has('dynamodb:PutItem') && actions.has('dynamodb:UpdateItem');
          return [table, reads && writes ? 'readWrite' : reads ? 'read' : 'write'];
        }),
      );
      expect(summary, name).toEqual(expected[name]);
    }
  });

  it('lets only sign-revocation use kms:Sign and kms:GetPublicKey, on exactly the owner keys', () => {
    const kmsGrants = grants.filter((g) => g.actions.some((a) => a === 'kms:Sign' || a === 'kms:GetPublicKey'));
    expect(kmsGrants.map((g) => g.owner)).toEqual(['sign-revocation']);
    const createdKeyId = Object.entries(synth.json.web.Resources).find(([, r]) => r.Type === 'AWS::KMS::Key')?.[0];
    expect(kmsGrants[0]?.resources).toHaveLength(2);
    expect(kmsGrants[0]?.resources).toEqual(expect.arrayContaining([{ 'Fn::GetAtt': [createdKeyId, 'Arn'] }, TEST_CONTEXT.ownerKeyArns[0]]));
    expect(kmsGrants[0]?.actions.sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
  });

  it('grants no other KMS use at all (queues and tables use AWS-managed keys)', () => {
    const other = grants.filter((g) => g.actions.some((a) => a.startsWith('kms:')) && g.owner !== 'sign-revocation');
    expect(other).toEqual([]);
  });

  it('lets only revoke-page invoke sign-revocation, and only that function', () => {
    const invokes = grants.filter((g) => g.actions.includes('lambda:InvokeFunction') && HANDLER_NAMES.includes(g.owner as HandlerName));
    expect(invokes.map((g) => g.owner)).toEqual(['revoke-page']);
    const signerId = Object.entries(synth.json.web.Resources).find(([, r]) => r.Type === 'AWS::Lambda::Function' && r.Properties?.['FunctionName'] === 'sentinel-devnet-sign-revocation')?.[0];
    expect(invokes[0]?.resources).toEqual([{ 'Fn::GetAtt': [signerId, 'Arn'] }]);
  });

  it('lets each schedule role invoke exactly its one function (no version wildcard)', () => {
    const scheduleGrants = grants.filter((g) => g.actions.includes('lambda:InvokeFunction') && !HANDLER_NAMES.includes(g.owner as HandlerName));
    expect(scheduleGrants).toHaveLength(2); // dispatch and report-dispatch
    for (const g of scheduleGrants) {
      expect(g.resources).toHaveLength(1);
      expect(JSON.stringify(g.resources)).not.toContain(':*');
    }
  });

  it('lets only the link minters and verifiers read the link secret', () => {
    const readers = grants.filter((g) => g.actions.includes('secretsmanager:GetSecretValue')).map((g) => g.owner);
    expect(readers.sort()).toEqual(['daily-report', 'notify', 'preferences-page', 'revoke-page']);
  });

  it('lets only the mailers send, as the configured sender, through the identity and configuration set', () => {
    const senders = grants.filter((g) => g.actions.includes('ses:SendRawEmail'));
    expect(senders.map((g) => g.owner).sort()).toEqual(['daily-report', 'notify']);
    for (const g of senders) {
      expect(g.actions).toEqual(['ses:SendRawEmail']);
      const resources = JSON.stringify(g.resources);
      expect(resources).toContain(':identity/sentinel.example.com');
      expect(resources).toContain(':configuration-set/sentinel-devnet-mail');
      expect(g.condition).toEqual({ StringEquals: { 'ses:FromAddress': TEST_CONTEXT.mailFrom } });
    }
  });

  it('lets producers send only to their queue: dispatch -> collect, collect and sign-revocation -> notify, report-dispatch -> report, ses-events -> its failure queue', () => {
    const sends = grants.filter((g) => g.actions.includes('sqs:SendMessage'));
    const byOwner = Object.fromEntries(sends.map((g) => [g.owner, JSON.stringify(g.resources)]));
    expect(Object.keys(byOwner).sort()).toEqual(['collect', 'dispatch', 'report-dispatch', 'ses-events', 'sign-revocation']);
    expect(byOwner['report-dispatch']).toContain('ReportQueue');
    expect(byOwner['report-dispatch']).not.toContain('NotifyQueue');
    expect(byOwner['ses-events']).toContain('SesEventsFailures');
    expect(byOwner['ses-events']).not.toContain('NotifyQueue');
    expect(byOwner['dispatch']).toContain('CollectQueue');
    expect(byOwner['collect']).toContain('NotifyQueue');
    expect(byOwner['sign-revocation']).toContain('NotifyQueue');
    for (const g of sends.filter((x) => x.owner !== 'ses-events')) expect(g.actions).toEqual(['sqs:SendMessage']);
    // Lambda's failure destination grant (CDK's `SqsDestination`) also reads the queue's URL and attributes.
    for (const g of sends.filter((x) => x.owner === 'ses-events')) {
      expect([...g.actions].sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    }
  });
});

describe('owner keys', () => {
  const key = (): { Properties: Record<string, unknown>; DeletionPolicy?: string } => {
    const found = Object.values(synth.json.web.Resources).find((r) => r.Type === 'AWS::KMS::Key');
    if (!found) throw new Error('no owner key');
    return found as { Properties: Record<string, unknown>; DeletionPolicy?: string };
  };

  it('creates a retained secp256k1 signing key with its stage alias', () => {
    expect(key().Properties).toMatchObject({ KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY' });
    expect(key().DeletionPolicy).toBe('Retain');
    synth.templates.web.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/sentinel/devnet/desk-a' });
  });

  it('lets the account administer the key but only the signer role sign with it', () => {
    const statements = (key().Properties['KeyPolicy'] as { Statement: Statement[] }).Statement;
    const signerRole = Object.entries(synth.json.web.Resources).find(
      ([id, r]) => r.Type === 'AWS::IAM::Role' && id.startsWith('SignRevocationRole'),
    )?.[0];
    const signing = statements.filter((s) => asList(s.Action).some((a) => a === 'kms:Sign' || a === 'kms:*' || a === 'kms:Sign*'));
    expect(signing).toHaveLength(1);
    expect(signing[0]?.Principal).toEqual({ AWS: { 'Fn::GetAtt': [signerRole, 'Arn'] } });
    expect(asList(signing[0]?.Action ?? []).sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
    for (const s of statements) expect(asList(s.Action)).not.toContain('kms:*');
  });
});
