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
}

export const DEFAULT_STAGE = 'dev';

export const STAGES = {
  dev: {
    retainData: false,
    deletionProtection: false,
    pointInTimeRecovery: true,
    logRetention: RetentionDays.ONE_WEEK,
    logLevel: 'DEBUG',
    throttling: { rateLimit: 50, burstLimit: 100 },
  },
  prod: {
    retainData: true,
    deletionProtection: true,
    pointInTimeRecovery: true,
    logRetention: RetentionDays.ONE_YEAR,
    logLevel: 'INFO',
    throttling: { rateLimit: 500, burstLimit: 1000 },
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
    throw new Error(
      `Invalid stage name "${name}": use lower-case letters, digits and dashes, starting with a letter (max 30 characters).`,
    );
  }
  const settings: StageSettings = isKnownStage(name) ? STAGES[name] : STAGES[DEFAULT_STAGE];
  return { name, settings };
}

function isKnownStage(name: string): name is KnownStage {
  return Object.hasOwn(STAGES, name);
}
