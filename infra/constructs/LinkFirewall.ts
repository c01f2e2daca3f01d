import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { linkWebAclName } from '../config/resourceNames';
import { LINK_RATE_WINDOW_SECONDS, type StageConfig } from '../config/stageConfig';

/** Names of the web ACL's rules; each is also its `Rule` metric dimension. */
export const LINK_FIREWALL_RULES = {
  ipReputation: 'ip-reputation',
  perClient: 'per-client-rate',
  perClientPosts: 'per-client-post-rate',
} as const;

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
 * reputation list are blocked, and each client (source IP) may make `limits.requests` requests,
 * `limits.posts` of them POSTs, per {@link LINK_RATE_WINDOW_SECONDS}; above that it gets 429 with
 * `Retry-After` until its rate falls back. Everything else is allowed and goes on to the stage's
 * own throttles. Metrics per rule in `AWS/WAFV2` (`WebACL`, `Region`, `Rule`). The query string
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
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: this.webAclName,
      description: 'Link endpoint: IP reputation list and per-client rate limits.',
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
          name: LINK_FIREWALL_RULES.perClient,
          priority: 1,
          action: tooMany,
          statement: perClient(props.limits.requests),
          visibilityConfig: visibility(LINK_FIREWALL_RULES.perClient),
        },
        {
          name: LINK_FIREWALL_RULES.perClientPosts,
          priority: 2,
          action: tooMany,
          statement: perClient(props.limits.posts, {
            byteMatchStatement: {
              fieldToMatch: { method: {} },
              positionalConstraint: 'EXACTLY',
              searchString: 'POST',
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          }),
          visibilityConfig: visibility(LINK_FIREWALL_RULES.perClientPosts),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
