/**
 * Builds the CDK app for one stage. `infra/app.ts` runs it under the CDK CLI; the tests call it
 * directly with extra context (for example to skip bundling).
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { InvoicingStack } from './stack.ts';
import {
  DEFAULT_STAGE,
  resolveStage,
  withAlarmEmail,
  withMailFrom,
  withPaystack,
  withPublicBaseUrl,
} from './stages.ts';

export const stackName = (stage: string) => `Invoicing-${stage}`;

export interface InvoicingApp {
  app: App;
  stack: InvoicingStack;
}

/** `outdir` defaults to the CLI's (CDK_OUTDIR) or, outside the CLI, a temporary directory. */
export function createApp(context: Record<string, unknown> = {}, outdir?: string): InvoicingApp {
  const app = new App({ context, outdir });
  const stageContext = app.node.tryGetContext('stage') as unknown;
  const stage = withMailFrom(
    withPublicBaseUrl(
      withAlarmEmail(
        resolveStage(typeof stageContext === 'string' ? stageContext : DEFAULT_STAGE),
        app.node.tryGetContext('alarmEmail') as unknown,
      ),
      app.node.tryGetContext('publicBaseUrl') as unknown,
    ),
    app.node.tryGetContext('mailFrom') as unknown,
  );
  const withPaystackSettings = withPaystack(
    stage,
    app.node.tryGetContext('paystackBaseUrl') as unknown,
    app.node.tryGetContext('paystackCheckoutOrigin') as unknown,
  );
  const stack = new InvoicingStack(app, stackName(stage.name), {
    stage: withPaystackSettings,
    description: `Invoicing and payments API, stage ${stage.name}`,
    tags: { service: 'invoicing', stage: stage.name },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
