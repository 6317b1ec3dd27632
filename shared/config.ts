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
  /** Running in AWS Lambda against DynamoDB (not sam local, not DynamoDB Local): required settings must be set. */
  deployed: boolean;
  /** X-Ray tracing of DynamoDB calls: deployed only, unless POWERTOOLS_TRACE_ENABLED=false. */
  tracingEnabled: boolean;
  /** Powertools service name and metrics namespace (POWERTOOLS_SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE). */
  serviceName: string;
  metricsNamespace: string;
  /**
   * The URL of a job kind's queue, by the variable that carries it (DELIVERY_QUEUE_URL, MAIL_QUEUE_URL: set by the CDK
   * stack on the outbox dispatcher and on the kind's worker; shared/store/outbox.ts).
   */
  queueUrl(variable: string): string | undefined;
  /**
   * Local only (CLOCK_OFFSET_MS, default 0; ignored when deployed): milliseconds added to the clock that decides
   * `overdue` in views and the wake sweep (shared/clock.ts).
   */
  clockOffsetMs: number;
  /** Local only (OVERDUE_SWEEP_MS, default 60000): how often `npm start` runs the wake sweep (overdue notices, reminders). */
  overdueSweepMs: number;
  /**
   * The verified SES sender invoices are e-mailed from (MAIL_FROM: the stage setting `mailFrom`); unset → sending
   * answers 501 `mail_not_configured` (docs/sending-invoices.md).
   */
  mailFrom: string | undefined;
  /** The SES configuration set every invoice e-mail is sent with (MAIL_CONFIGURATION_SET; its events reach the stack). */
  mailConfigurationSet: string | undefined;
  /** Set for the local SES server of `npm start` and the tests (SES_ENDPOINT); unset on AWS. */
  sesEndpoint: string | undefined;
  /** The first retry delay of an invoice e-mail SES throttled or failed to answer (MAIL_RETRY_BASE_MS, default 60000). */
  mailRetryBaseMs: number;
  /**
   * The stage's public base URL, without a trailing slash (PUBLIC_BASE_URL): invoices' `hosted_url` start with it.
   * Deployed, the stack sets it (the HTTP API's URL, or the stage's `publicBaseUrl`); a deployed function without it
   * throws MissingSettingError when it first needs it. Locally it defaults to `http://localhost:<PORT or 3000>`.
   */
  publicBaseUrl: () => string;
  /** Paystack's API base URL, without a trailing slash (PAYSTACK_BASE_URL: the stage setting `paystackBaseUrl`). */
  paystackBaseUrl: string;
  /**
   * The origin of Paystack's checkout page (PAYSTACK_CHECKOUT_ORIGIN: the stage setting `paystackCheckoutOrigin`): the
   * hosted page's form may lead there (docs/getting-paid-online.md "The pay button"). Default: Paystack's, or the
   * origin of PAYSTACK_BASE_URL when only that is set (a Paystack-compatible server serves both).
   */
  paystackCheckoutOrigin: string;
  /** KMS key that seals Paystack secret keys on AWS (PAYSTACK_KMS_KEY_ID); unset locally (the local sealing key). */
  paystackKmsKeyId: string | undefined;
  /** Credentials for DynamoDB Local (any value works there; AWS_ACCESS_KEY_ID/SECRET or `local`). */
  localCredentials: { accessKeyId: string; secretAccessKey: string };
}

/** A deployed function without a setting it needs: one clear line, at initialisation (like Powertools' getStringFromEnv). */
export class MissingSettingError extends Error {
  constructor(name: string) {
    super(`${name} is not set: the CDK stack sets it on every function (docs/deploying.md "Configuration").`);
    this.name = 'MissingSettingError';
  }
}

export const DEFAULT_LOCAL_TABLE = 'invoicing-local';

/** Reads a configuration from `env` (each call reads it anew; the runtime uses `loadConfig()`). */
/** Running in AWS Lambda against DynamoDB (not sam local, not DynamoDB Local). */
const isDeployed = (env: NodeJS.ProcessEnv): boolean =>
  Boolean(env.AWS_LAMBDA_FUNCTION_NAME) && env.AWS_SAM_LOCAL !== 'true' && !env.DYNAMODB_ENDPOINT;

/**
 * Whether DynamoDB calls are traced (X-Ray): deployed only, unless POWERTOOLS_TRACE_ENABLED=false. Read on its own,
 * without caching the configuration, because the store decides it when its module loads — before the local
 * runtime, the CLI or the benchmark have pointed the process at their database.
 */
export const tracingEnabledIn = (env: NodeJS.ProcessEnv): boolean =>
  isDeployed(env) && env.POWERTOOLS_TRACE_ENABLED !== 'false';

export function readConfig(env: NodeJS.ProcessEnv): Config {
  const authCacheSeconds = Number(env.AUTH_CACHE_SECONDS ?? '30');
  const deployed = isDeployed(env);
  // Deployed, a missing table name must not fall back to the local one: that would read and write nothing real.
  if (deployed && !env.TABLE_NAME) throw new MissingSettingError('TABLE_NAME');
  return {
    tableName: env.TABLE_NAME || DEFAULT_LOCAL_TABLE,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'eu-west-1',
    authCacheSeconds: Number.isFinite(authCacheSeconds) ? Math.min(Math.max(authCacheSeconds, 0), 60) : 30,
    logLevel: env.LOG_LEVEL ?? 'INFO',
    webhookRetryBaseMs: positiveNumber(env.WEBHOOK_RETRY_BASE_MS, 60_000),
    webhookKmsKeyId: env.WEBHOOK_KMS_KEY_ID || undefined,
    webhookAllowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === 'true',
    dataDir: env.DATA_DIR || '.data',
    deployed,
    tracingEnabled: tracingEnabledIn(env),
    serviceName: env.POWERTOOLS_SERVICE_NAME ?? 'invoicing',
    metricsNamespace: env.POWERTOOLS_METRICS_NAMESPACE ?? 'Invoicing',
    queueUrl: variableReader(env),
    clockOffsetMs: deployed ? 0 : finiteNumber(env.CLOCK_OFFSET_MS, 0),
    overdueSweepMs: positiveNumber(env.OVERDUE_SWEEP_MS, 60_000),
    mailFrom: env.MAIL_FROM?.trim() || undefined,
    mailConfigurationSet: env.MAIL_CONFIGURATION_SET || undefined,
    sesEndpoint: env.SES_ENDPOINT || undefined,
    mailRetryBaseMs: positiveNumber(env.MAIL_RETRY_BASE_MS, 60_000),
    publicBaseUrl: publicBaseUrlFrom(env, deployed),
    ...paystackSettingsFrom(env),
    localCredentials: {
      accessKeyId: env.AWS_ACCESS_KEY_ID ?? 'local',
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? 'local',
    },
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

function publicBaseUrlFrom(env: NodeJS.ProcessEnv, deployed: boolean): () => string {
  const configured = env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, '');
  if (configured) return () => configured;
  if (deployed)
    return () => {
      throw new MissingSettingError('PUBLIC_BASE_URL');
    };
  const local = `http://localhost:${env.PORT && env.PORT !== '0' ? env.PORT : '3000'}`;
  return () => local;
}

/** Reads a variable of `env` as it is now (a copy): the configuration is read once. */
function variableReader(env: NodeJS.ProcessEnv): (variable: string) => string | undefined {
  const copy = { ...env };
  return (variable) => copy[variable] || undefined;
}

export const DEFAULT_PAYSTACK_BASE_URL = 'https://api.paystack.co';
export const DEFAULT_PAYSTACK_CHECKOUT_ORIGIN = 'https://checkout.paystack.com';

function paystackSettingsFrom(
  env: NodeJS.ProcessEnv,
): Pick<Config, 'paystackBaseUrl' | 'paystackCheckoutOrigin' | 'paystackKmsKeyId'> {
  const baseSet = env.PAYSTACK_BASE_URL?.trim().replace(/\/+$/, '');
  const paystackBaseUrl = baseSet || DEFAULT_PAYSTACK_BASE_URL;
  const checkoutSet = env.PAYSTACK_CHECKOUT_ORIGIN?.trim();
  const paystackCheckoutOrigin = checkoutSet
    ? originOf(checkoutSet)
    : baseSet
      ? originOf(baseSet)
      : DEFAULT_PAYSTACK_CHECKOUT_ORIGIN;
  return { paystackBaseUrl, paystackCheckoutOrigin, paystackKmsKeyId: env.PAYSTACK_KMS_KEY_ID || undefined };
}

/** `https://host[:port]` of a URL; a value that is not one is kept as given (the CSP then names it as is). */
function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}

function positiveNumber(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) && value > 0 ? value : fallback;
}

function finiteNumber(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) ? value : fallback;
}
