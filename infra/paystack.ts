/**
 * Paystack's secrets on AWS (docs/getting-paid-online.md "Connecting Paystack"): the KMS key that seals each account's
 * Paystack secret key and its saved cards' authorizations (PAYSTACK_KMS_KEY_ID), and the grants that let a function
 * open or seal them — each for the purposes it declares only (the route table's functions, the outbox's job kinds),
 * held by the encryption context's `purpose` (shared/store/webhook-secrets.ts).
 */
import { CfnOutput, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export type PaystackSealingPurpose = 'paystack-secret-key' | 'paystack-authorization';

export interface PaystackSecretUse {
  unseals?: readonly PaystackSealingPurpose[];
  seals?: readonly PaystackSealingPurpose[];
}

export class PaystackSecrets extends Construct {
  /** Seals Paystack secret keys and card authorizations; the CLI encrypts with it (`account:update`). */
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: { removalPolicy: RemovalPolicy }) {
    super(scope, id);
    this.key = new kms.Key(this, 'SealingKey', {
      description:
        "Seals Paystack secret keys and saved cards' authorizations (encryption context: purpose, company_id)",
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    new CfnOutput(this, 'PaystackKmsKeyId', {
      value: this.key.keyId,
      description:
        'KMS key sealing Paystack secrets; pass it as PAYSTACK_KMS_KEY_ID to account:update --paystack-secret-key',
    });
  }

  /** Lets `fn` decrypt and encrypt with the key, for the purposes `use` names and no other. */
  allow(fn: iam.IGrantable, use: PaystackSecretUse, sid: string): void {
    const statement = (actions: string[], purposes: readonly PaystackSealingPurpose[], suffix: string) =>
      fn.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: `${sid}${suffix}`,
          actions,
          resources: [this.key.keyArn],
          conditions: { StringEquals: { 'kms:EncryptionContext:purpose': [...purposes] } },
        }),
      );
    if (use.unseals?.length) statement(['kms:Decrypt'], use.unseals, 'UnsealsPaystack');
    if (use.seals?.length) statement(['kms:Encrypt'], use.seals, 'SealsPaystack');
  }
}
