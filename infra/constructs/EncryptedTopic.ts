import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

export interface EncryptedTopicProps {
  readonly topicName: string;
  /** AWS services that publish to the topic (e.g. `cloudwatch.amazonaws.com`, `ses.amazonaws.com`). */
  readonly publishers: readonly string[];
}

/**
 * An SNS topic encrypted with its own customer-managed key (rotated yearly) and refusing non-TLS
 * publishers. A customer key, not `aws/sns`: AWS services that publish (CloudWatch alarms, SES
 * events) need `kms:GenerateDataKey*`/`kms:Decrypt` granted in the key policy, which the AWS-managed
 * key does not allow. The grant is limited to this account's calls.
 */
export class EncryptedTopic extends Construct {
  /** Physical name: other stacks refer to the topic by it, never through an export. */
  readonly topicName: string;
  readonly topic: Topic;
  readonly key: Key;

  constructor(scope: Construct, id: string, props: EncryptedTopicProps) {
    super(scope, id);
    this.topicName = props.topicName;
    this.key = new Key(this, 'Key', {
      description: `Encrypts the SNS topic ${props.topicName}`,
      enableKeyRotation: true,
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowPublishingServices',
        principals: props.publishers.map((service) => new ServicePrincipal(service)),
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    this.topic = new Topic(this, 'Topic', { topicName: props.topicName, masterKey: this.key, enforceSSL: true });
  }
}
