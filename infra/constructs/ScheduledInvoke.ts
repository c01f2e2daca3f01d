import { Stack, type Duration } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression, TimeWindow, type ISchedule, type IScheduleTarget, type ScheduleTargetConfig } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';

export interface ScheduledInvokeProps {
  readonly scheduleName: string;
  readonly description: string;
  readonly every: Duration;
  readonly target: IFunction;
  /** Retries after a failed invocation; a run that is superseded by the next one needs none. */
  readonly retryAttempts: number;
  /** Drop an invocation that could not be delivered within this age. */
  readonly maxEventAge: Duration;
}

/**
 * An EventBridge Scheduler schedule that invokes one Lambda at a fixed rate, with its own role
 * allowed to invoke exactly that function (the stock `LambdaInvoke` target also grants every
 * version and alias, `<arn>:*`). The role trusts the scheduler only for this account.
 */
export class ScheduledInvoke extends Construct implements IScheduleTarget {
  readonly schedule: Schedule;
  readonly role: Role;
  private readonly props: ScheduledInvokeProps;

  constructor(scope: Construct, id: string, props: ScheduledInvokeProps) {
    super(scope, id);
    this.props = props;
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: `Lets the ${props.scheduleName} schedule invoke its function`,
    });
    this.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.target.functionArn] }));
    this.schedule = new Schedule(this, 'Schedule', {
      scheduleName: props.scheduleName,
      description: props.description,
      schedule: ScheduleExpression.rate(props.every),
      timeWindow: TimeWindow.off(),
      target: this,
    });
  }

  /** @internal the target configuration the schedule renders. */
  bind(_schedule: ISchedule): ScheduleTargetConfig {
    return {
      arn: this.props.target.functionArn,
      role: this.role,
      retryPolicy: {
        maximumRetryAttempts: this.props.retryAttempts,
        maximumEventAgeInSeconds: this.props.maxEventAge.toSeconds(),
      },
    };
  }
}
