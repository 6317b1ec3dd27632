/**
 * The overdue sweep on AWS (docs/api.md "Overdue", docs/operations.md "Overdue sweep"): a function run by an EventBridge rule every
 * few minutes (functions/overdue-sweep/handler.ts → services/sweep-overdue.ts). It reads only the sparse wake index
 * (GSI2) and the invoices and accounts it names, and writes each notification or reminder with its outbox event (and a
 * reminder's mail job) in one transaction.
 * Its errors and throttles are alarmed by the stack's Monitoring (`addFunction`).
 */
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { TABLE } from '../shared/store/table.ts';
import { serviceFunction } from './service-function.ts';

/** How often the sweep runs: an invoice's notification comes at most this long into its first overdue day. */
export const OVERDUE_SWEEP_RATE = Duration.minutes(5);
/** Below the rate, so runs rarely overlap (an overlap is harmless: every write is conditional). */
export const OVERDUE_SWEEP_TIMEOUT = Duration.minutes(4);
/** Reads invoices (BatchGetItem) and accounts (GetItem); notifies (transaction: Update + Put) or leaves the index (UpdateItem). */
export const OVERDUE_SWEEP_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:UpdateItem',
  'dynamodb:PutItem',
] as const;
/** Queries the overdue index, only. */
export const OVERDUE_SWEEP_INDEX_ACTIONS = ['dynamodb:Query'] as const;

export interface OverdueSweepProps {
  table: dynamodb.TableV2;
  /** Environment every function of the stage gets (TABLE_NAME, LOG_LEVEL, Powertools settings). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** The stage's verified sender: the sweep queues reminders only when there is one (the mailer sends them). */
  mailFrom?: string | undefined;
}

export class OverdueSweep extends Construct {
  readonly sweepFunction: NodejsFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: OverdueSweepProps) {
    super(scope, id);
    const { table } = props;
    this.sweepFunction = serviceFunction(this, 'Sweep', {
      entry: 'functions/overdue-sweep/handler.ts',
      description: 'Scheduled: invoice.overdue and reminders, once each per invoice, from the wake index (GSI2)',
      timeout: OVERDUE_SWEEP_TIMEOUT,
      environment: { ...props.environment, ...(props.mailFrom ? { MAIL_FROM: props.mailFrom } : {}) },
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.sweepFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'OverdueTableAccess',
        actions: [...OVERDUE_SWEEP_TABLE_ACTIONS],
        resources: [table.tableArn],
      }),
    );
    this.sweepFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'OverdueIndexAccess',
        actions: [...OVERDUE_SWEEP_INDEX_ACTIONS],
        resources: [`${table.tableArn}/index/${TABLE.overdueIndex.name}`],
      }),
    );
    this.schedule = new events.Rule(this, 'Schedule', {
      description: `Runs the overdue sweep every ${OVERDUE_SWEEP_RATE.toHumanString()}`,
      schedule: events.Schedule.rate(OVERDUE_SWEEP_RATE),
      // A failed run is not retried: the next one, minutes later, does its work (and the errors alarm fires).
      targets: [new targets.LambdaFunction(this.sweepFunction, { retryAttempts: 0 })],
    });
    this.acknowledgeNagFindings();
  }

  /** Every AwsSolutions finding the function accepts, with the reason (test/infra/nag.test.ts lists the ids). */
  private acknowledgeNagFindings() {
    Validations.of(this.sweepFunction).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          'AWSLambdaBasicExecutionRole only allows writing CloudWatch logs (CreateLogGroup/CreateLogStream/PutLogEvents); ' +
          'table and index access are granted separately by statements naming those resources.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Only the X-Ray statement (xray:PutTraceSegments, xray:PutTelemetryRecords) uses Resource *: X-Ray does not support ' +
          'resource-level permissions. The table and index statements name their ARNs (asserted in test/infra/overdue.test.ts).',
      },
      {
        id: 'AwsSolutions-L1',
        reason:
          'The runtime is pinned to nodejs22.x on purpose, like the other functions: the bundles target node22, and a runtime ' +
          'upgrade is a deliberate, tested change rather than a side effect of a CDK upgrade.',
      },
    );
  }
}
