/** Runtime configuration from the environment, read once per process. Documented in README "Configuration". */
export interface Config {
  tableName: string;
  /** Set for DynamoDB Local; unset on AWS. */
  dynamodbEndpoint: string | undefined;
  region: string;
  /** Seconds an authenticated key stays cached in a warm function (SPEC §2: revocation within 60 s). */
  authCacheSeconds: number;
  logLevel: string;
}

export const DEFAULT_LOCAL_TABLE = 'invoicing-local';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const authCacheSeconds = Number(env.AUTH_CACHE_SECONDS ?? '30');
  return {
    tableName: env.TABLE_NAME ?? DEFAULT_LOCAL_TABLE,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-1',
    authCacheSeconds: Number.isFinite(authCacheSeconds) ? Math.min(Math.max(authCacheSeconds, 0), 60) : 30,
    logLevel: env.LOG_LEVEL ?? 'INFO',
  };
}
