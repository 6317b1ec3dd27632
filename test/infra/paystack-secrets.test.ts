/**
 * CDK assertions for Paystack's secrets (infra/paystack.ts): one rotated KMS key, its id given to every function and
 * to the CLI as a stack output, and decrypt/encrypt granted only to the functions that declare a use — each for the
 * purposes it declares, by the encryption context's `purpose`.
 */
import type { CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_FUNCTIONS } from '../../shared/routes.ts';
import { JOB_KINDS, type JobKind } from '../../shared/store/outbox.ts';
import { asArray, byConstruct, resourcesOfType, type SynthesisedStage, synthStage } from './template-helpers.ts';

let stage: SynthesisedStage;
const { idOf } = byConstruct(() => stage);
const keyRef = () => ({ 'Fn::GetAtt': [idOf(stage.stack.paystackSecrets.key), 'Arn'] });

/** The KMS statements of a function's role on the Paystack key: action → the purposes it is allowed for. */
function paystackGrantsOf(fn: IConstruct & { role?: IConstruct }): Record<string, string[]> {
  const roleId = stage.stack.getLogicalId(fn.role!.node.defaultChild as CfnElement);
  const statements = resourcesOfType(stage, 'AWS::IAM::Policy')
    .filter(([, policy]) => asArray(policy.Properties.Roles).some((role: any) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[])
    .filter((statement) => JSON.stringify(statement.Resource) === JSON.stringify(keyRef()));
  return Object.fromEntries(
    statements.map((s) => [s.Action, asArray(s.Condition.StringEquals['kms:EncryptionContext:purpose'])]),
  );
}

const expectedGrants = (use: { unseals?: readonly string[]; seals?: readonly string[] } | undefined) => ({
  ...(use?.unseals ? { 'kms:Decrypt': [...use.unseals] } : {}),
  ...(use?.seals ? { 'kms:Encrypt': [...use.seals] } : {}),
});

describe('Paystack secrets on AWS', () => {
  beforeAll(() => {
    stage = synthStage('dev');
  });

  it('has one rotated key, and its id as the output the CLI is given', () => {
    const key = stage.json.Resources[idOf(stage.stack.paystackSecrets.key)]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    const output = Object.entries(stage.json.Outputs).find(([id]) => id.includes('PaystackKmsKeyId'));
    expect(output?.[1].Value).toEqual({ Ref: idOf(stage.stack.paystackSecrets.key) });
  });

  it('gives each API function exactly the uses its route-table entry declares', () => {
    for (const definition of API_FUNCTIONS) {
      const fn = stage.stack.functions.get(definition.name)!;
      expect(paystackGrantsOf(fn), definition.name).toEqual(expectedGrants(definition.paystackSecrets));
      const environment = stage.json.Resources[idOf(fn)]!.Properties.Environment.Variables;
      expect(environment.PAYSTACK_KMS_KEY_ID, definition.name).toEqual({ Ref: idOf(stage.stack.paystackSecrets.key) });
    }
    expect(Object.keys(paystackGrantsOf(stage.stack.functions.get('invoices')!))).toEqual([
      'kms:Decrypt',
      'kms:Encrypt',
    ]);
  });

  it("gives each outbox worker exactly its job kind's uses, and none to the others", () => {
    for (const worker of Object.values(stage.stack.outbox.workers)) {
      const uses: JobKind['worker'] = JOB_KINDS[worker.kind].worker;
      expect(paystackGrantsOf(worker.workerFunction), worker.kind).toEqual(expectedGrants(uses));
    }
    expect(paystackGrantsOf(stage.stack.outbox.workers.webhook.workerFunction)).toEqual({});
  });
});
