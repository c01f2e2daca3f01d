import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { LINK_API_STAGE, linkWebAclName } from '../config/resourceNames';
import { LINK_RATE_WINDOW_SECONDS, type StageConfig } from '../config/stageConfig';

/** Names of the web ACL's rules; each is also its `Rule` metric dimension. */
export const LINK_FIREWALL_RULES = {
  ipReputation: 'ip-reputation',
  anonymousIp: 'anonymous-ip',
  malformedPost: 'post-without-token',
  perClient: 'per-client-rate',
  perClientPosts: 'per-client-post-rate',
  anonymousPosts: 'anonymous-post-rate',
  deskSignIn: 'desk-sign-in-rate',
} as const;

/**
 * A link token as it appears in a form body or query string (`token=v2.<8-char kid>.<claims>.<86-char
 * Ed25519 signature>`; base64url and `.` are never percent-encoded). WAF cannot check the signature;
 * the page does. A `v1` (HMAC) token from before the per-purpose keys is not well formed here.
 */
export const WELL_FORMED_TOKEN = '(^|&)token=v2\\.[A-Za-z0-9_-]{8}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{86}(&|$)';

/**
 * POSTs per {@link LINK_RATE_WINDOW_SECONDS} from one address the anonymous-IP list names (VPNs,
 * Tor, hosting providers): stricter than `linkPostRateLimit`, yet enough for a person on a VPN
 * to revoke (a confirmation is one POST); blocking such addresses outright would lock them out.
 */
export const ANONYMOUS_POST_RATE_LIMIT = 10;

/**
 * POSTs to the desk's sign-in page and passkey sign-in per {@link LINK_RATE_WINDOW_SECONDS} from one
 * address: asking for a link and using one are a POST each, a passkey sign-in two; the page limits each address and each client further
 * (`SIGN_IN_LIMITS`), this rule stops a flood before the function runs.
 */
export const DESK_SIGN_IN_RATE_LIMIT = 20;

/**
 * The desk page's paths as WAF sees the URI: `/desk...` behind the custom domain, `/<stage>/desk...`
 * on the execute-api endpoint. Its forms carry a session's anti-CSRF value, not a link token.
 */
export const DESK_URI = `^(/${LINK_API_STAGE})?/desk(/|$)`;
const DESK_SIGN_IN_URI = `^(/${LINK_API_STAGE})?/desk/(sign-in|api/passkeys/sign-in/(options|verify))/?$`;

/** The label namespace the anonymous-IP managed rule group adds (its rules run in Count mode). */
const ANONYMOUS_IP_LABELS = 'awswaf:managed:aws:anonymous-ip-list:';

/** Seconds a client turned away is told to wait (`Retry-After`): the rate window. */
const RETRY_AFTER_SECONDS = String(LINK_RATE_WINDOW_SECONDS);

export interface LinkFirewallProps {
  /** Stage prefix `sentinel-<stage>-`: the web ACL is `<prefix>links`. */
  readonly prefix: string;
  readonly limits: StageConfig['linkRateLimit'];
  /** The REST API stage the ACL guards (every way into it: execute-api endpoint and custom domain). */
  readonly stage: Stage;
}

/**
 * A regional WAF web ACL on the link endpoint's stage: requests from addresses on the AWS IP
 * reputation list are blocked; a POST whose body and query carry no well-formed link token
 * ({@link WELL_FORMED_TOKEN}) gets 400 before it counts against any throttle; each client (source
 * IP) may make `limits.requests` requests, `limits.posts` of them POSTs, per
 * {@link LINK_RATE_WINDOW_SECONDS}, and an address on the anonymous-IP list (that rule group runs
 * in Count mode: it only labels) {@link ANONYMOUS_POST_RATE_LIMIT} POSTs; above that, 429 with
 * `Retry-After` until its rate falls back. Everything else is allowed and goes on to the stage's
 * own throttle. Metrics per rule in `AWS/WAFV2` (`WebACL`, `Region`, `Rule`). The query string
 * (the link token) is substituted in the sampled requests WAF keeps.
 */
export class LinkFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly webAclName: string;

  constructor(scope: Construct, id: string, props: LinkFirewallProps) {
    super(scope, id);
    this.webAclName = linkWebAclName(props.prefix);
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const tooMany: CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: 'too-many-requests',
          responseHeaders: [{ name: 'retry-after', value: RETRY_AFTER_SECONDS }],
        },
      },
    };
    const perClient = (limit: number, scopeDownStatement?: CfnWebACL.StatementProperty): CfnWebACL.StatementProperty => ({
      rateBasedStatement: {
        limit,
        aggregateKeyType: 'IP',
        evaluationWindowSec: LINK_RATE_WINDOW_SECONDS,
        ...(scopeDownStatement ? { scopeDownStatement } : {}),
      },
    });
    const isPost: CfnWebACL.StatementProperty = {
      byteMatchStatement: {
        fieldToMatch: { method: {} },
        positionalConstraint: 'EXACTLY',
        searchString: 'POST',
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    };
    const uriMatches = (regexString: string): CfnWebACL.StatementProperty => ({
      regexMatchStatement: { fieldToMatch: { uriPath: {} }, regexString, textTransformations: [{ priority: 0, type: 'NONE' }] },
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.webAclName,
      // WAF descriptions allow letters, digits, spaces and =:#@/-,. only (no parentheses).
      description: 'Link endpoint: IP reputation list, POSTs without a well-formed token, per-client rate limits, stricter for anonymous addresses.',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(this.webAclName),
      // The query string carries the link token: replaced in sampled requests (and in logs, were any enabled).
      dataProtectionConfig: { dataProtections: [{ field: { fieldType: 'QUERY_STRING' }, action: 'SUBSTITUTION' }] },
      customResponseBodies: {
        'too-many-requests': {
          contentType: 'TEXT_PLAIN',
          content: 'Too many requests from your network. Please wait a few minutes and open the link again.',
        },
        'no-token': {
          contentType: 'TEXT_PLAIN',
          content: 'This request carries no valid link. Open the link from the email again and press the button there.',
        },
      },
      rules: [
        {
          name: LINK_FIREWALL_RULES.ipReputation,
          priority: 0,
          overrideAction: { none: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' } },
          visibilityConfig: visibility(LINK_FIREWALL_RULES.ipReputation),
        },
        {
          // Count mode: labels anonymous addresses for the stricter rate rule, blocks nobody.
          name: LINK_FIREWALL_RULES.anonymousIp,
          priority: 1,
          overrideAction: { count: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAnonymousIpList' } },
          visibilityConfig: visibility(LINK_FIREWALL_RULES.anonymousIp),
        },
        {
          name: LINK_FIREWALL_RULES.malformedPost,
          priority: 2,
          action: { block: { customResponse: { responseCode: 400, customResponseBodyKey: 'no-token' } } },
          statement: {
            andStatement: {
              statements: [
                isPost,
                // The desk's forms carry its session's anti-CSRF value instead of a link token.
                { notStatement: { statement: uriMatches(DESK_URI) } },
                {
                  notStatement: {
                    statement: {
                      orStatement: {
                        statements: [
                          {
                            regexMatchStatement: {
                              fieldToMatch: { body: { oversizeHandling: 'CONTINUE' } },
                              regexString: WELL_FORMED_TOKEN,
                              textTransformations: [{ priority: 0, type: 'NONE' }],
                            },
                          },
                          {
                            regexMatchStatement: {
                              fieldToMatch: { queryString: {} },
                              regexString: WELL_FORMED_TOKEN,
                              textTransformations: [{ priority: 0, type: 'NONE' }],
                            },
                          },
                        ],
                      },
                    },
                  },
                },
              ],
            },
          },
          visibilityConfig: visibility(LINK_FIREWALL_RULES.malformedPost),
        },
        {
          name: LINK_FIREWALL_RULES.perClient,
          priority: 3,
          action: tooMany,
          statement: perClient(props.limits.requests),
          visibilityConfig: visibility(LINK_FIREWALL_RULES.perClient),
        },
        {
          name: LINK_FIREWALL_RULES.perClientPosts,
          priority: 4,
          action: tooMany,
          statement: perClient(props.limits.posts, isPost),
          visibilityConfig: visibility(LINK_FIREWALL_RULES.perClientPosts),
        },
        {
          name: LINK_FIREWALL_RULES.anonymousPosts,
          priority: 5,
          action: tooMany,
          statement: perClient(Math.min(ANONYMOUS_POST_RATE_LIMIT, props.limits.posts), {
            andStatement: { statements: [isPost, { labelMatchStatement: { scope: 'NAMESPACE', key: ANONYMOUS_IP_LABELS } }] },
          }),
          visibilityConfig: visibility(LINK_FIREWALL_RULES.anonymousPosts),
        },
        {
          name: LINK_FIREWALL_RULES.deskSignIn,
          priority: 6,
          action: tooMany,
          statement: perClient(Math.min(DESK_SIGN_IN_RATE_LIMIT, props.limits.posts), {
            andStatement: { statements: [isPost, uriMatches(DESK_SIGN_IN_URI)] },
          }),
          visibilityConfig: visibility(LINK_FIREWALL_RULES.deskSignIn),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
