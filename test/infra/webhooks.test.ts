/**
 * CDK assertions for what only webhook delivery has (infra/webhooks.ts): the sealing key its worker may decrypt with,
 * and the outputs the webhook CLI is given. Its queue, worker and dispatch: test/infra/outbox.test.ts.
 */

import type { CfnElement } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { asArray, byConstruct, resourcesOfType, type SynthesisedStage, synthStage } from './template-helpers.ts';

describe.each(['dev', 'prod'] as const)('webhook delivery on stage %s', (stageName) => {
  let stage: SynthesisedStage;
  const { idOf, resource, getAtt } = byConstruct(() => stage);

  beforeAll(() => {
    stage = synthStage(stageName);
  });

  it('gives the worker the KMS key id and kms:Decrypt on that key, nothing more', () => {
    const { webhooks } = stage.stack;
    const fn = webhooks.worker.workerFunction;
    expect(resource(fn).Properties.Environment.Variables.WEBHOOK_KMS_KEY_ID).toEqual({
      Ref: idOf(webhooks.signingSecretKey),
    });
    const roleId = stage.stack.getLogicalId(fn.role!.node.defaultChild as CfnElement);
    const statements = resourcesOfType(stage, 'AWS::IAM::Policy')
      .filter(([, policy]) => asArray(policy.Properties.Roles).some((role: any) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[]);
    expect(statements.filter(({ Action }) => asArray(Action).some((a: string) => a.startsWith('kms:')))).toEqual([
      expect.objectContaining({ Action: 'kms:Decrypt', Resource: getAtt(webhooks.signingSecretKey, 'Arn') }),
    ]);
    expect(resource(stage.stack.outbox.dispatchFunction).Properties.Environment.Variables).not.toHaveProperty(
      'WEBHOOK_KMS_KEY_ID',
    );
  });

  it('creates the sealing key with rotation and outputs its id for the CLI, and the dead-letter queue for operators', () => {
    const { webhooks } = stage.stack;
    expect(resource(webhooks.signingSecretKey).Properties.EnableKeyRotation).toBe(true);
    const output = (name: string) => Object.entries(stage.json.Outputs).find(([id]) => id.includes(name))?.[1];
    expect(output('WebhookKmsKeyId')?.Value).toEqual({ Ref: idOf(webhooks.signingSecretKey) });
    expect(output('WebhookDeadLetterQueueUrl')?.Value).toEqual({ Ref: idOf(webhooks.worker.deadLetterQueue) });
  });
});
