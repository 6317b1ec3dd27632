/** CDK entry point (cdk.json `app`): `npx cdk synth|deploy -c stage=<name>`, default stage `dev`. */
import { createApp } from './invoicing-app.ts';
import { StageConfigurationError } from './stages.ts';

try {
  createApp().app.synth();
} catch (error) {
  if (!(error instanceof StageConfigurationError)) throw error;
  // A wrong -c option: the one line that says what to do, not a stack trace.
  console.error(error.message);
  process.exit(1);
}
