/**
 * The wake sweep on AWS (docs/api.md "Overdue", docs/operations.md "Overdue sweep"): a function run by an EventBridge rule
 * every few minutes (functions/wake-sweep/handler.ts → services/wake-sweep.ts). It reads only the sparse wake index
 * (GSI2) and what its entries name — invoices, recurring series and their accounts — and writes each overdue notice or
 * reminder with its outbox event (and a reminder's mail job) in one transaction, and each series' period invoice in
 * one transaction with its period item (docs/recurring-invoices.md). Its errors and throttles are alarmed by the
 * stack's Monitoring (`addFunction`).
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { TABLE } from '../shared/store/table.ts';
import type { OutboxProps } from './outbox.ts';
import { acknowledgeFunctionFindings, serviceFunction } from './service-function.ts';

/** How often the sweep runs: an invoice's notification comes at most this long into its first overdue day. */
export const WAKE_SWEEP_RATE = Duration.minutes(5);
/** Below the rate, so runs rarely overlap (an overlap is harmless: every write is conditional). */
export const WAKE_SWEEP_TIMEOUT = Duration.minutes(4);
/**
 * Reads invoices, series and collections (BatchGetItem) and accounts (GetItem); notifies (transaction: Update + Put),
 * starts a saved card's charge (transaction: Update, ConditionCheck of the invoice's version, Put of the job and its
 * reference), creates a series' period invoice as add invoice does (transaction: Put, Update, and a ConditionCheck that
 * its client still exists) or leaves the index (UpdateItem).
 */
export const WAKE_SWEEP_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:UpdateItem',
  'dynamodb:PutItem',
  'dynamodb:ConditionCheckItem',
] as const;
/** Queries the wake index, only. */
export const WAKE_SWEEP_INDEX_ACTIONS = ['dynamodb:Query'] as const;

export interface WakeSweepProps extends OutboxProps {
  /** The stage's verified sender: the sweep queues reminders only when there is one (the mailer sends them). */
  mailFrom?: string | undefined;
}

export class WakeSweep extends Construct {
  readonly sweepFunction: NodejsFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: WakeSweepProps) {
    super(scope, id);
    const { table } = props;
    this.sweepFunction = serviceFunction(this, 'Sweep', {
      entry: 'functions/wake-sweep/handler.ts',
      description:
        'Scheduled: what the wake index (GSI2) says is due — invoice.overdue, reminders, recurring invoices, once each',
      timeout: WAKE_SWEEP_TIMEOUT,
      environment: { ...props.environment, ...(props.mailFrom ? { MAIL_FROM: props.mailFrom } : {}) },
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.sweepFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WakeSweepTableAccess',
        actions: [...WAKE_SWEEP_TABLE_ACTIONS],
        resources: [table.tableArn],
      }),
    );
    this.sweepFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WakeIndexAccess',
        actions: [...WAKE_SWEEP_INDEX_ACTIONS],
        resources: [`${table.tableArn}/index/${TABLE.wakeIndex.name}`],
      }),
    );
    this.schedule = new events.Rule(this, 'Schedule', {
      description: `Runs the wake sweep every ${WAKE_SWEEP_RATE.toHumanString()}`,
      schedule: events.Schedule.rate(WAKE_SWEEP_RATE),
      // A failed run is not retried: the next one, minutes later, does its work (and the errors alarm fires).
      targets: [new targets.LambdaFunction(this.sweepFunction, { retryAttempts: 0 })],
    });
    acknowledgeFunctionFindings(this.sweepFunction, 'table and index access', 'test/infra/wake-sweep.test.ts');
  }
}
