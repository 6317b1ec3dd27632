/** Runtime configuration from the environment, read once per process (on first use). Documented in docs/deploying.md "Configuration". */
export interface Config {
  tableName: string;
  /** Set for DynamoDB Local; unset on AWS. */
  dynamodbEndpoint: string | undefined;
  region: string;
  /** Seconds an authenticated key stays cached in a warm function (docs/api.md "Authentication": revocation within 60 s). */
  authCacheSeconds: number;
  logLevel: string;
  /** Webhooks (docs/webhooks.md): the first retry delay; later ones scale with it. WEBHOOK_RETRY_BASE_MS, default 60000. */
  webhookRetryBaseMs: number;
  /** KMS key that seals webhook signing secrets on AWS (WEBHOOK_KMS_KEY_ID); unset locally. */
  webhookKmsKeyId: string | undefined;
  /** WEBHOOK_ALLOW_LOOPBACK=true lets endpoints be http://127.0.0.1:PORT or http://localhost:PORT (npm start, tests). */
  webhookAllowLoopback: boolean;
  /** Local data directory (DATA_DIR, default `.data`): holds the local webhook sealing key when no KMS key is set. */
  dataDir: string;
}

export const DEFAULT_LOCAL_TABLE = 'invoicing-local';

/** Reads a configuration from `env` (each call reads it anew; the runtime uses `loadConfig()`). */
export function readConfig(env: NodeJS.ProcessEnv): Config {
  const authCacheSeconds = Number(env.AUTH_CACHE_SECONDS ?? '30');
  return {
    tableName: env.TABLE_NAME ?? DEFAULT_LOCAL_TABLE,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-1',
    authCacheSeconds: Number.isFinite(authCacheSeconds) ? Math.min(Math.max(authCacheSeconds, 0), 60) : 30,
    logLevel: env.LOG_LEVEL ?? 'INFO',
    webhookRetryBaseMs: positiveNumber(env.WEBHOOK_RETRY_BASE_MS, 60_000),
    webhookKmsKeyId: env.WEBHOOK_KMS_KEY_ID || undefined,
    webhookAllowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === 'true',
    dataDir: env.DATA_DIR || '.data',
  };
}

let current: Config | undefined;

/** The process's configuration, read from the environment on first use. */
export function loadConfig(): Config {
  current ??= readConfig(process.env);
  return current;
}

/** Forgets the configuration read, so that the next `loadConfig()` reads the environment again (tests that change it). */
export function resetConfig(): void {
  current = undefined;
}

function positiveNumber(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) && value > 0 ? value : fallback;
}
