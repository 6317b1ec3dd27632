import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../infra/invoicing-app.ts';
import { cdkJsonContext } from './template-helpers.ts';

/** Every finding the stack accepts. Adding to this list needs a reason in infra/stack.ts (or infra/webhooks.ts). */
const ACKNOWLEDGED = [
  'AwsSolutions-APIG4',
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
  'AwsSolutions-IAM5[Resource::*]',
  'AwsSolutions-L1',
  'AwsSolutions-SQS3',
];

const build = (stage: string) =>
  createApp({ ...cdkJsonContext(), stage, alarmEmail: 'alarms@acme.test', 'aws:cdk:bundling-stacks': [] });

describe.each(['dev', 'prod'])('cdk-nag AwsSolutionsChecks on %s', (stage) => {
  it('passes: synthesis succeeds and the validation report lists no violation', () => {
    const assembly = build(stage).app.synth();
    const reportFile = path.join(assembly.directory, 'validation-report.json');
    expect(existsSync(reportFile)).toBe(true);
    expect(JSON.parse(readFileSync(reportFile, 'utf8')).pluginReports).toEqual([]);
  });

  it('accepts only the listed findings, each with a written reason', () => {
    const { stack } = build(stage);
    const acknowledgements = stack.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
    expect(acknowledgements.length).toBeGreaterThan(0);
    const ids = new Set(acknowledgements.map(([id]) => id.replace(/^Annotation::/, '')));
    expect([...ids].sort()).toEqual([...ACKNOWLEDGED].sort());
    for (const [, reason] of acknowledgements) expect(reason.length).toBeGreaterThan(40);
  });
});

it('cdk-nag is wired in: an unacknowledged finding fails synthesis', () => {
  const { app, stack } = build('dev');
  new Bucket(stack, 'UnloggedBucket');
  expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
});
