/**
 * Per-stage settings, decided at synth time (no CloudFormation parameters or conditions).
 * `npx cdk deploy -c stage=<name>` picks one; see docs/deploying.md "Stages".
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface StageSettings {
  /** Keep the table (and log groups) when the stack is deleted; otherwise they are destroyed with it. */
  retainData: boolean;
  /** DynamoDB deletion protection: the table cannot be deleted until this is turned off. */
  deletionProtection: boolean;
  /** DynamoDB point-in-time recovery (35 days of continuous backups). */
  pointInTimeRecovery: boolean;
  /** Retention of the function and API access log groups. */
  logRetention: RetentionDays;
  /** LOG_LEVEL given to the functions (Powertools Logger). */
  logLevel: LogLevel;
  /** API Gateway default-stage throttling, applied to every route. */
  throttling: { rateLimit: number; burstLimit: number };
  /** Alarms, where they go, and the dashboard (infra/monitoring.ts; docs/operations.md "Alarms"). */
  monitoring: MonitoringSettings;
  /**
   * The verified SES identity invoices are e-mailed from (docs/deploying.md "E-mail"); `-c mailFrom=…` overrides it.
   * Unset: sending answers 501 `mail_not_configured` and the mailer gets no SES permission.
   */
  mailFrom?: string | undefined;
  /**
   * The base of invoices' `hosted_url` (docs/sending-invoices.md "The link"), e.g. `https://pay.example.com` when a
   * custom domain fronts the HTTP API. Unset: the HTTP API's own URL. `-c publicBaseUrl=https://…` overrides it.
   */
  publicBaseUrl?: string | undefined;
  /**
   * Paystack's API base URL (docs/getting-paid-online.md "Configuration"), given to the functions as
   * PAYSTACK_BASE_URL. Unset: `https://api.paystack.co`. A Paystack-compatible server (a staging stand-in) is named here.
   */
  paystackBaseUrl?: string | undefined;
  /**
   * The origin of Paystack's checkout page (PAYSTACK_CHECKOUT_ORIGIN): the only origin the hosted page's pay form may
   * lead to. Unset: `https://checkout.paystack.com`, or the origin of `paystackBaseUrl` when that is set.
   */
  paystackCheckoutOrigin?: string | undefined;
}

export interface MonitoringSettings {
  /** Create the SNS topic and the alarms. The dashboard is created either way. */
  alarms: boolean;
  /**
   * Email address subscribed to the stage's alarm topic (it must confirm the subscription once).
   * `-c alarmEmail=ops@yourcompany.com` overrides it at deploy time.
   */
  alarmEmail?: string | undefined;
  thresholds: AlarmThresholds;
}

/** Every alarm looks at 5-minute periods and fires after `evaluationPeriods` breaching ones in a row. */
export interface AlarmThresholds {
  /** Percentage of all API requests answered with a 5xx. */
  api5xxRatePercent: number;
  /** p99 of API Gateway latency, per route, in milliseconds. */
  routeP99LatencyMs: number;
  /** Lambda `Errors` (crashes and timeouts; handled errors are 5xx responses, not errors) per function. */
  functionErrors: number;
  /** Lambda `Throttles` per function. */
  functionThrottles: number;
  /** DynamoDB `ThrottledRequests` on the table, all operations. */
  dynamoDbThrottledRequests: number;
  /** DynamoDB `SystemErrors` (500s from DynamoDB) on the table, all operations. */
  dynamoDbSystemErrors: number;
  evaluationPeriods: number;
}

/**
 * Defaults: any crash, throttle or DynamoDB system error is worth a look; a payments API answering
 * more than 1 % 5xx, or a route whose p99 is over 2.5 s (the function timeout is 10 s, the local p50
 * is under 30 ms: docs/performance.md), is failing its clients.
 */
export const DEFAULT_ALARM_THRESHOLDS: AlarmThresholds = {
  api5xxRatePercent: 1,
  routeP99LatencyMs: 2500,
  functionErrors: 1,
  functionThrottles: 1,
  dynamoDbThrottledRequests: 1,
  dynamoDbSystemErrors: 1,
  evaluationPeriods: 1,
};

export const DEFAULT_STAGE = 'dev';

/** The prod stage's address until a team sets its own: a stage with alarms refuses to synthesise with it. */
export const PLACEHOLDER_ALARM_EMAIL = 'invoicing-alarms@example.com';

/** A mistake in `-c stage=…` or `-c alarmEmail=…`: infra/app.ts prints its one-line message, without a stack trace. */
export class StageConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StageConfigurationError';
  }
}

export const STAGES = {
  dev: {
    retainData: false,
    deletionProtection: false,
    pointInTimeRecovery: true,
    logRetention: RetentionDays.ONE_WEEK,
    logLevel: 'DEBUG',
    throttling: { rateLimit: 50, burstLimit: 100 },
    // Dev and personal stages are noisy and disposable: no alarms, no topic (the dashboard stays).
    monitoring: { alarms: false, thresholds: DEFAULT_ALARM_THRESHOLDS },
  },
  prod: {
    retainData: true,
    deletionProtection: true,
    pointInTimeRecovery: true,
    logRetention: RetentionDays.ONE_YEAR,
    logLevel: 'INFO',
    throttling: { rateLimit: 500, burstLimit: 1000 },
    // A placeholder: set your team's address here, or deploy with -c alarmEmail=… (docs/operations.md).
    monitoring: { alarms: true, alarmEmail: PLACEHOLDER_ALARM_EMAIL, thresholds: DEFAULT_ALARM_THRESHOLDS },
  },
} as const satisfies Record<string, StageSettings>;

export type KnownStage = keyof typeof STAGES;

export interface Stage {
  name: string;
  settings: StageSettings;
}

// Stage names end up in the stack name `Invoicing-<stage>`, so they must be valid there.
const STAGE_NAME = /^[a-z][a-z0-9-]{0,29}$/;

/**
 * Resolves `-c stage=<name>`. Named stages (`dev`, `prod`) use their own settings; any other valid
 * name (a personal or per-branch stack such as `alice` or `pr-42`) gets the dev settings, so it is
 * disposable and never inherits production's retention by accident.
 */
export function resolveStage(name: string = DEFAULT_STAGE): Stage {
  if (!STAGE_NAME.test(name)) {
    throw new StageConfigurationError(
      `Invalid stage name "${name}": use lower-case letters, digits and dashes, starting with a letter (max 30 characters).`,
    );
  }
  const settings: StageSettings = isKnownStage(name) ? STAGES[name] : STAGES[DEFAULT_STAGE];
  return { name, settings };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The stage with its alarm email replaced (from `-c alarmEmail=…`); undefined keeps the configured one. */
export function withAlarmEmail(stage: Stage, alarmEmail: unknown): Stage {
  if (alarmEmail === undefined) return requireRealAlarmEmail(stage);
  if (typeof alarmEmail !== 'string' || !EMAIL.test(alarmEmail)) {
    throw new StageConfigurationError(
      `Invalid alarmEmail "${String(alarmEmail)}": give one email address, e.g. -c alarmEmail=ops@yourcompany.com.`,
    );
  }
  return { ...stage, settings: { ...stage.settings, monitoring: { ...stage.settings.monitoring, alarmEmail } } };
}

/** The stage with its hosted pages' base URL from `-c publicBaseUrl=https://…`; undefined keeps the configured one. */
export function withPublicBaseUrl(stage: Stage, publicBaseUrl: unknown): Stage {
  if (publicBaseUrl === undefined) return stage;
  const url = typeof publicBaseUrl === 'string' && URL.canParse(publicBaseUrl) ? new URL(publicBaseUrl) : undefined;
  if (url?.protocol !== 'https:' || url.search || url.hash || url.username) {
    throw new StageConfigurationError(
      `Invalid publicBaseUrl "${String(publicBaseUrl)}": give the https:// address that serves this stage's API, e.g. -c publicBaseUrl=https://pay.example.com.`,
    );
  }
  return { ...stage, settings: { ...stage.settings, publicBaseUrl: url.href.replace(/\/+$/, '') } };
}

/** A stage with alarms must send them to someone: the placeholder address would silently page no one. */
function requireRealAlarmEmail(stage: Stage): Stage {
  const { alarms, alarmEmail } = stage.settings.monitoring;
  if (alarms && alarmEmail === PLACEHOLDER_ALARM_EMAIL) {
    throw new StageConfigurationError(
      `Stage ${stage.name} sends alarms by email: give the address with -c alarmEmail=ops@yourcompany.com (or set it in infra/stages.ts); ${PLACEHOLDER_ALARM_EMAIL} is a placeholder.`,
    );
  }
  return stage;
}

/** The stage with its sender replaced (from `-c mailFrom=…`); undefined keeps the configured one. */
export function withMailFrom(stage: Stage, mailFrom: unknown): Stage {
  if (mailFrom === undefined) return stage;
  if (typeof mailFrom !== 'string' || !EMAIL.test(mailFrom)) {
    throw new StageConfigurationError(
      `Invalid mailFrom "${String(mailFrom)}": give the verified SES address invoices are sent from, e.g. -c mailFrom=billing@yourcompany.com.`,
    );
  }
  return { ...stage, settings: { ...stage.settings, mailFrom } };
}

function isKnownStage(name: string): name is KnownStage {
  return Object.hasOwn(STAGES, name);
}

/**
 * The stage with Paystack's API and checkout from `-c paystackBaseUrl=… -c paystackCheckoutOrigin=…` (a
 * Paystack-compatible server; docs/getting-paid-online.md "Configuration"); undefined keeps the configured ones.
 */
export function withPaystack(stage: Stage, baseUrl: unknown, checkoutOrigin: unknown): Stage {
  const settings = { ...stage.settings };
  if (baseUrl !== undefined) settings.paystackBaseUrl = httpsUrl('paystackBaseUrl', baseUrl).replace(/\/+$/, '');
  if (checkoutOrigin !== undefined)
    settings.paystackCheckoutOrigin = new URL(httpsUrl('paystackCheckoutOrigin', checkoutOrigin)).origin;
  return { ...stage, settings };
}

function httpsUrl(name: string, value: unknown): string {
  const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'https:' || url.search || url.hash || url.username)
    throw new StageConfigurationError(
      `Invalid ${name} "${String(value)}": give an https:// address, e.g. -c ${name}=https://api.paystack.co.`,
    );
  return url.href;
}
