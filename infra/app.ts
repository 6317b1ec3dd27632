/** CDK entry point (cdk.json `app`): `npx cdk synth|deploy -c stage=<name>`, default stage `dev`. */
import { createApp } from './invoicing-app.ts';

createApp().app.synth();
