/**
 * CDK assertions for invoice e-mail (infra/mail.ts): the SES configuration set and its EventBridge destination, the rule
 * that routes its reports, least-privilege IAM (SES scoped to the stage's sender and configuration set), alarms, and
 * cdk-nag with a sender configured. Its queue, worker and dispatch: test/infra/outbox.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../infra/invoicing-app.ts';
import { MAIL_TABLE_ACTIONS } from '../../infra/mail.ts';
import type { OutboxWorker } from '../../infra/outbox.ts';
import { StageConfigurationError } from '../../infra/stages.ts';
import { JOB_KINDS } from '../../shared/store/outbox.ts';

import {
  byConstruct,
  type CfnResource,
  cdkJsonContext,
  resourcesOfType,
  type SynthesisedStage,
  synthStage,
} from './template-helpers.ts';

const SENDER = 'billing@acme.ng';

describe.each(['dev', 'prod'] as const)('invoice e-mail on stage %s with a sender', (stageName) => {
  let stage: SynthesisedStage;
  const { idOf, resource, getAtt, statementsOf } = byConstruct(() => stage);

  beforeAll(() => {
    stage = synthStage(stageName, { mailFrom: SENDER });
  });

  it('gives the sender to the mail worker and to the outbox workers that record payments (their receipts), only', () => {
    for (const worker of Object.values(stage.stack.outbox.workers) as OutboxWorker[]) {
      const env = resource(worker.workerFunction).Properties.Environment.Variables;
      const { worker: described } = JOB_KINDS[worker.kind];
      const sends = worker.kind === 'mail' || ('recordsPayments' in described && described.recordsPayments === true);
      expect(env.MAIL_FROM, worker.kind).toBe(sends ? SENDER : undefined);
    }
    expect(JOB_KINDS.providerEvent.worker.recordsPayments).toBe(true);
  });

  it("publishes the configuration set's bounces, complaints and rejects to EventBridge, routed to mail-events", () => {
    const { mail } = stage.stack;
    const [[, destination]] = resourcesOfType(stage, 'AWS::SES::ConfigurationSetEventDestination') as [
      [string, CfnResource],
    ];
    expect(destination.Properties.ConfigurationSetName).toEqual({ Ref: idOf(mail.configurationSet) });
    expect(destination.Properties.EventDestination).toMatchObject({
      Enabled: true,
      MatchingEventTypes: ['bounce', 'complaint', 'reject'],
    });
    expect(JSON.stringify(destination.Properties.EventDestination.EventBridgeDestination)).toContain(
      'event-bus/default',
    );
    expect(resource(mail.configurationSet).Properties).toMatchObject({
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    const rule = resource(mail.reportsRule).Properties;
    expect(rule.EventPattern).toEqual({
      source: ['aws.ses'],
      detail: {
        eventType: ['Bounce', 'Complaint', 'Reject'],
        mail: {
          tags: { 'ses:configuration-set': [{ Ref: idOf(mail.configurationSet) }], mail_job_id: [{ exists: true }] },
        },
      },
    });
    expect(rule.Targets).toEqual([
      expect.objectContaining({
        Arn: getAtt(mail.eventsFunction, 'Arn'),
        DeadLetterConfig: { Arn: getAtt(mail.eventsDeadLetters, 'Arn') },
        RetryPolicy: { MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 8 },
      }),
    ]);
  });

  it('lets the mailer send only as the stage sender, with its configuration set; the table actions it performs, no more', () => {
    const { mail } = stage.stack;
    const arn = (suffix: string) => ({
      'Fn::Join': [
        '',
        ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, suffix],
      ],
    });
    const statements = statementsOf(mail.worker.workerFunction);
    const send = statements.filter((statement) =>
      statement.actions.some((action: string) => action.startsWith('ses:')),
    );
    expect(send).toHaveLength(1);
    expect(send[0]!.actions).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    expect(send[0]!.condition).toEqual({ StringEquals: { 'ses:FromAddress': SENDER } });
    const configurationSet = {
      'Fn::Join': ['', [...arn(':configuration-set/')['Fn::Join'][1], { Ref: idOf(mail.configurationSet) }]],
    };
    const sorted = (values: unknown[]) => values.map((value) => JSON.stringify(value)).sort();
    expect(sorted(send[0]!.resources)).toEqual(
      sorted([arn(`:identity/${SENDER}`), arn(':identity/acme.ng'), configurationSet]),
    );
    expect(statements).toContainEqual({
      actions: [...MAIL_TABLE_ACTIONS].sort(),
      resources: [getAtt(stage.stack.table, 'Arn')],
    });
    const reports = statementsOf(mail.eventsFunction);
    expect(reports.some((s) => s.actions.some((a: string) => a.startsWith('ses:')))).toBe(false);
    expect(reports).toContainEqual({
      actions: [...MAIL_TABLE_ACTIONS].sort(),
      resources: [getAtt(stage.stack.table, 'Arn')],
    });
    expect(
      statementsOf(stage.stack.outbox.dispatchFunction).some((s) =>
        s.actions.some((a: string) => /^ses:|^dynamodb:.*Item/.test(a)),
      ),
    ).toBe(false);
  });

  it('gives the API functions and the mailer the sender; the mailer also the queue and the configuration set', () => {
    const { mail, functions } = stage.stack;
    expect(resource(functions.get('invoices')!).Properties.Environment.Variables.MAIL_FROM).toBe(SENDER);
    expect(resource(mail.worker.workerFunction).Properties.Environment.Variables).toMatchObject({
      MAIL_FROM: SENDER,
      MAIL_QUEUE_URL: { Ref: idOf(mail.worker.queue) },
      MAIL_CONFIGURATION_SET: { Ref: idOf(mail.configurationSet) },
    });
    expect(resource(mail.worker.workerFunction).Properties.Environment.Variables).not.toHaveProperty('SES_ENDPOINT');
  });

  it("watches the reports' dead letters, failed e-mails and the bounce and complaint rates; alarms only with alarms on", () => {
    const { mail } = stage.stack;
    expect(mail.watchedMetrics.map((watched) => watched.id)).toEqual([
      'MailReportDeadLetters',
      'MailFailures',
      'MailBounceRate',
      'MailComplaintRate',
    ]);
    const alarms = resourcesOfType(stage, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    const bounce = alarms.find((alarm) => String(alarm.AlarmName).endsWith('-MailBounceRate'));
    if (stageName === 'dev') expect(bounce).toBeUndefined();
    else {
      expect(bounce).toMatchObject({ Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Threshold: 0.04 });
      const failures = alarms.find((alarm) => String(alarm.AlarmName).endsWith('-MailFailures'));
      expect(failures).toMatchObject({ Namespace: 'Invoicing', MetricName: 'MailFailed', Threshold: 1 });
    }
  });
});

describe('a stage without a sender', () => {
  it('sets no MAIL_FROM anywhere (sending answers 501) and grants no SES permission', () => {
    const stage = synthStage('dev');
    const text = JSON.stringify(stage.json.Resources);
    expect(text).not.toContain('MAIL_FROM');
    expect(text).not.toContain('ses:SendEmail');
  });

  it('refuses a mailFrom that is not an address', () => {
    expect(() => synthStage('dev', { mailFrom: 'not an address' })).toThrow(StageConfigurationError);
  });
});

it('cdk-nag passes with a sender configured (the SES statement names its resources)', () => {
  const built = createApp({
    ...cdkJsonContext(),
    stage: 'prod',
    alarmEmail: 'alarms@acme.test',
    mailFrom: SENDER,
    'aws:cdk:bundling-stacks': [],
  });
  const assembly = built.app.synth();
  const reportFile = path.join(assembly.directory, 'validation-report.json');
  expect(existsSync(reportFile)).toBe(true);
  expect(JSON.parse(readFileSync(reportFile, 'utf8')).pluginReports).toEqual([]);
}, 120_000);
