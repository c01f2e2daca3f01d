/**
 * A small evaluator of IAM and KMS key policy statements as synthesized, for the permission tests:
 * for a principal ARN, an action and a resource ARN (and request context keys), does a set of
 * statements allow it, deny it, or say nothing? Explicit Deny wins over Allow.
 *
 * Covers what the templates use: `Action` and `Resource` with `*`/`?` wildcards (Resource `*`),
 * `Principal` `*`, `{AWS: <arn or *>}`, account roots, and the condition operators `StringEquals`,
 * `StringNotEquals`, `StringLike`, `StringNotLike`, `ArnEquals`, `ArnNotEquals`, `ArnLike`,
 * `ArnNotLike`, `Bool`, `Null`, with `ForAnyValue:`/`ForAllValues:` prefixes and `IfExists`. An operator it
 * does not know makes it throw, so a test can never pass on a condition it ignored.
 */

/** A statement after intrinsic functions were resolved (see {@link resolveIntrinsics}). */
export interface PolicyStatementJson {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Action?: string | string[];
  readonly NotAction?: string | string[];
  readonly Resource?: string | string[];
  readonly Principal?: '*' | { AWS?: string | string[]; Service?: string | string[] };
  readonly Condition?: Record<string, Record<string, string | string[] | boolean>>;
}

/** One request. `principal` is the caller's `aws:PrincipalArn` (a role ARN). */
export interface PolicyRequest {
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
  /** Other request context keys (e.g. `kms:ResourceAliases`), multi-valued as arrays. */
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
}

export type Decision = 'allow' | 'deny' | 'implicit-deny';

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** `*` and `?` wildcards, case-sensitive unless `ignoreCase` (actions are case-insensitive). */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const regex = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    ignoreCase ? 'i' : '',
  );
  return regex.test(value);
}

/** The account id of an IAM ARN (`arn:aws:iam::111122223333:role/x` -> `111122223333`). */
function accountOf(arn: string): string | undefined {
  return /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(arn)?.[1];
}

function principalMatches(principal: PolicyStatementJson['Principal'], caller: string): boolean {
  if (principal === undefined) return true; // identity policy: the statement belongs to the caller
  if (principal === '*') return true;
  return list(principal.AWS).some((p) => {
    if (p === '*') return true;
    if (/^arn:[^:]+:iam::\d{12}:root$/.test(p) || /^\d{12}$/.test(p)) return accountOf(caller) === (accountOf(p) ?? p);
    return p === caller;
  });
}

function conditionHolds(operatorKey: string, key: string, expected: string | string[] | boolean, request: PolicyRequest): boolean {
  const m = /^(ForAnyValue:|ForAllValues:)?([A-Za-z]+?)(IfExists)?$/.exec(operatorKey);
  if (!m) throw new Error(`unknown condition operator ${operatorKey}`);
  const [, setOp, op, ifExists] = m;
  const actualRaw = key === 'aws:PrincipalArn' ? request.principal : request.context?.[key];
  if (op === 'Null') {
    // `Null: true` holds when the key is absent from the request, `false` when it is present.
    if (setOp || ifExists) throw new Error(`unsupported condition operator ${operatorKey}`);
    const absent = actualRaw === undefined || (typeof actualRaw !== 'string' && actualRaw.length === 0);
    return list(expected)
      .map(String)
      .every((w) => (w === 'true' ? absent : !absent));
  }
  if (actualRaw === undefined) {
    if (ifExists) return true;
    if (setOp === 'ForAllValues:') return true;
    return op !== undefined && /Not/.test(op) && !setOp; // a negated operator on a missing key matches
  }
  const actual = typeof actualRaw === 'string' ? [actualRaw] : [...actualRaw];
  const wanted = list(expected).map(String);
  const one = (value: string): boolean => {
    switch (op) {
      case 'StringEquals':
      case 'ArnEquals':
        return wanted.includes(value);
      case 'StringNotEquals':
      case 'ArnNotEquals':
        return !wanted.includes(value);
      case 'StringLike':
      case 'ArnLike':
        return wanted.some((w) => wildcardMatch(w, value));
      case 'StringNotLike':
      case 'ArnNotLike':
        return !wanted.some((w) => wildcardMatch(w, value));
      case 'Bool':
        return wanted.includes(value);
      default:
        throw new Error(`unknown condition operator ${operatorKey}`);
    }
  };
  if (setOp === 'ForAllValues:') return actual.every(one);
  if (setOp === 'ForAnyValue:') return actual.some(one);
  if (actual.length !== 1) throw new Error(`${key} is multi-valued: use ForAnyValue/ForAllValues`);
  return one(actual[0] as string);
}

/** Whether one statement applies to the request (its effect is then the statement's). */
export function statementApplies(s: PolicyStatementJson, request: PolicyRequest): boolean {
  const actionMatches =
    s.Action !== undefined
      ? list(s.Action).some((a) => wildcardMatch(a, request.action, true))
      : !list(s.NotAction).some((a) => wildcardMatch(a, request.action, true));
  if (!actionMatches) return false;
  if (!list(s.Resource).some((r) => wildcardMatch(r, request.resource))) return false;
  if (!principalMatches(s.Principal, request.principal)) return false;
  for (const [operator, entries] of Object.entries(s.Condition ?? {})) {
    for (const [key, expected] of Object.entries(entries)) {
      if (!conditionHolds(operator, key, expected, request)) return false;
    }
  }
  return true;
}

/** The decision of one policy (a list of statements) on its own. */
export function evaluate(statements: readonly PolicyStatementJson[], request: PolicyRequest): Decision {
  const applying = statements.filter((s) => statementApplies(s, request));
  if (applying.some((s) => s.Effect === 'Deny')) return 'deny';
  return applying.some((s) => s.Effect === 'Allow') ? 'allow' : 'implicit-deny';
}

/**
 * KMS authorization for a caller in the key's own account: an explicit Deny in either policy
 * denies; otherwise the key policy must allow the caller, either naming it or naming the account
 * root (then the caller's IAM policy must allow too).
 */
export function kmsAllows(keyPolicy: readonly PolicyStatementJson[], identityPolicy: readonly PolicyStatementJson[], request: PolicyRequest): boolean {
  if (evaluate(keyPolicy, request) === 'deny' || evaluate(identityPolicy, request) === 'deny') return false;
  const direct = keyPolicy.filter((s) => s.Effect === 'Allow' && s.Principal !== '*' && list(s.Principal?.AWS).includes(request.principal));
  if (evaluate(direct, request) === 'allow') return true;
  const viaAccount = keyPolicy.filter((s) => s.Effect === 'Allow' && !direct.includes(s));
  return evaluate(viaAccount, request) === 'allow' && evaluate(identityPolicy, request) === 'allow';
}

/** Pseudo parameters the tests resolve templates with. */
export const TEST_ACCOUNT = '111122223333';
export const TEST_REGION = 'eu-west-1';

/**
 * Resolves the intrinsics the templates use in policies: `Ref` of pseudo parameters, `Fn::Join`,
 * `Fn::GetAtt <id>.Arn` and `Ref <id>` (to `arn:test:<id>` / `ref:<id>`, so a resource of the same
 * template can be matched by its logical id), `Fn::ImportValue` (to `import:<name>`).
 */
export function resolveIntrinsics(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolveIntrinsics);
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1) {
    const [k] = keys as [string];
    const v = obj[k];
    if (k === 'Ref') {
      const pseudo: Record<string, string> = {
        'AWS::Partition': 'aws',
        'AWS::AccountId': TEST_ACCOUNT,
        'AWS::Region': TEST_REGION,
        'AWS::URLSuffix': 'amazonaws.com',
      };
      return pseudo[String(v)] ?? `ref:${String(v)}`;
    }
    if (k === 'Fn::Join') {
      const [sep, parts] = v as [string, unknown[]];
      return parts.map((p) => String(resolveIntrinsics(p))).join(sep);
    }
    if (k === 'Fn::GetAtt') return `arn:test:${(v as string[])[0]}`;
    if (k === 'Fn::ImportValue') return `import:${JSON.stringify(v)}`;
  }
  return Object.fromEntries(Object.entries(obj).map(([key, inner]) => [key, resolveIntrinsics(inner)]));
}
