/**
 * Webhook delivery on AWS (docs/webhooks.md "Delivery architecture"): the outbox's webhook kind (infra/outbox.ts) — its
 * delivery queue, dead letters and `webhook-deliver` worker, which schedules retries through the message's visibility
 * timeout — built here with what only webhooks need: the KMS key that seals the endpoints' signing secrets, which the
 * worker may decrypt with, and the stack outputs the webhook CLI is given.
 */
import { CfnOutput } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { type OutboxProps, OutboxWorker } from './outbox.ts';

export class WebhookDelivery extends Construct {
  /** Seals the endpoints' signing secrets (WEBHOOK_KMS_KEY_ID); the CLI encrypts with it, the worker decrypts. */
  readonly signingSecretKey: kms.Key;
  readonly worker: OutboxWorker;

  constructor(scope: Construct, id: string, props: OutboxProps) {
    super(scope, id);
    this.signingSecretKey = new kms.Key(this, 'SigningSecretKey', {
      description: 'Seals webhook signing secrets (encryption context: company_id)',
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    this.worker = new OutboxWorker(this, 'webhook', {
      ...props,
      environment: { ...props.environment, WEBHOOK_KMS_KEY_ID: this.signingSecretKey.keyId },
    });
    this.signingSecretKey.grantDecrypt(this.worker.workerFunction);

    new CfnOutput(this, 'WebhookKmsKeyId', {
      value: this.signingSecretKey.keyId,
      description: 'KMS key sealing webhook secrets; pass it as WEBHOOK_KMS_KEY_ID to the webhook CLI',
    });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', {
      value: this.worker.deadLetterQueue.queueUrl,
      description: 'Webhook deliveries that failed to process; see docs/webhooks.md "Delivery architecture"',
    });
  }
}
