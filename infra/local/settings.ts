/**
 * Environment settings shared by `npm start` and the account CLI, so both reach the same database.
 */
import { join, resolve } from 'node:path';
import { DEFAULT_LOCAL_TABLE, resetConfig } from '../../shared/config.ts';

export interface LocalSettings {
  /** HTTP port of the local API (PORT, default 3000; 0 picks a free one). */
  port: number;
  /** Interface the local API binds to (HOST, default 127.0.0.1). */
  host: string;
  /** DynamoDB Local's port (DYNAMODB_PORT, default 8000). */
  dynamodbPort: number;
  /** The local SES server's port (SES_PORT, default 8005; 0 picks a free one). */
  sesPort: number;
  /** Whether SES_PORT was set: when it was not and 8005 is taken, `npm start` picks a free port instead of failing. */
  sesPortExplicit: boolean;
  /** The local Paystack server's port (PAYSTACK_PORT, default 8006; 0 picks a free one). */
  paystackPort: number;
  /** Whether PAYSTACK_PORT was set: when it was not and 8006 is taken, a free port is used instead. */
  paystackPortExplicit: boolean;
  /** Absolute DATA_DIR (default `.data/`). */
  dataDir: string;
  /** Where DynamoDB Local keeps its database: `DATA_DIR/dynamodb`. */
  dynamodbDir: string;
  tableName: string;
}

function portFrom(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < min || port > 65535)
    throw new Error(`${name} must be a port number (${min}-65535), got "${value}".`);
  return port;
}

/** aws-ses-v2-local's own default port. */
export const DEFAULT_SES_PORT = 8005;

/** The local Paystack server's own default (infra/local/paystack-runner.ts). */
export const DEFAULT_PAYSTACK_PORT = 8006;

/** Reads PORT, HOST, DYNAMODB_PORT, SES_PORT, PAYSTACK_PORT, DATA_DIR and TABLE_NAME. Throws on an invalid port. */
export function readLocalSettings(env: NodeJS.ProcessEnv = process.env): LocalSettings {
  const dataDir = resolve(env.DATA_DIR || '.data');
  return {
    port: portFrom(env.PORT, 'PORT', 3000, 0),
    host: env.HOST || '127.0.0.1',
    dynamodbPort: portFrom(env.DYNAMODB_PORT, 'DYNAMODB_PORT', 8000, 1),
    sesPort: portFrom(env.SES_PORT, 'SES_PORT', DEFAULT_SES_PORT, 0),
    sesPortExplicit: env.SES_PORT !== undefined && env.SES_PORT !== '',
    paystackPort: portFrom(env.PAYSTACK_PORT, 'PAYSTACK_PORT', DEFAULT_PAYSTACK_PORT, 0),
    paystackPortExplicit: env.PAYSTACK_PORT !== undefined && env.PAYSTACK_PORT !== '',
    dataDir,
    dynamodbDir: join(dataDir, 'dynamodb'),
    tableName: env.TABLE_NAME || DEFAULT_LOCAL_TABLE,
  };
}

/** Points the AWS SDK and the store at DynamoDB Local, with dummy credentials so no real account is ever used. */
export function useLocalDynamoDb(endpoint: string, tableName: string, env: NodeJS.ProcessEnv = process.env): void {
  env.DYNAMODB_ENDPOINT = endpoint;
  env.TABLE_NAME = tableName;
  env.AWS_ACCESS_KEY_ID = 'local';
  env.AWS_SECRET_ACCESS_KEY = 'local';
  delete env.AWS_SESSION_TOKEN;
  delete env.AWS_PROFILE;
  // The runtime configuration is read once per process: read it again now that it points at DynamoDB Local.
  if (env === process.env) resetConfig();
}

/** The environment the webhook worker and the CLI read, for the local runtime (explicit settings win). */
export function useLocalWebhookSettings(dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  // Locally, receivers run on this machine: http://127.0.0.1:PORT and http://localhost:PORT are allowed.
  env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
  // The worker and the CLI find the local signing-secret key under DATA_DIR.
  env.DATA_DIR = dataDir;
  if (env === process.env) resetConfig(); // the configuration is read once per process: read it again with these
}
