/**
 * One of the stage's Lambda functions (an API route's or webhook delivery's), built and sized like every other:
 * runtime, architecture, tracing, bundling (infra/function-settings.ts), memory (infra/function-memory.ts) and its
 * own log group. The one place a function of this service is constructed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { MEMORY_SIZE_MB } from './function-memory.ts';
import { ARCHITECTURE, BUNDLING, PDF_AND_UBL_BUNDLING, PDF_BUNDLING, RUNTIME, TIMEOUT } from './function-settings.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServiceFunctionProps {
  /** Handler module relative to the repository root; it exports `handler`. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** Default: the API functions' TIMEOUT. */
  timeout?: Duration;
  /** It renders invoice PDFs: ship the PDF engine and the fonts beside its bundle (PDF_BUNDLING). */
  rendersPdf?: boolean;
  /** It also serves e-invoices: ship the UBL engine too (PDF_AND_UBL_BUNDLING). */
  rendersUbl?: boolean;
}

/** `<id>Function` with its `<id>Logs` log group. */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): NodejsFunction {
  return new NodejsFunction(scope, `${id}Function`, {
    description: props.description,
    entry: path.join(REPO_ROOT, props.entry),
    handler: 'handler',
    projectRoot: REPO_ROOT,
    depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
    runtime: RUNTIME,
    architecture: ARCHITECTURE,
    memorySize: MEMORY_SIZE_MB,
    timeout: props.timeout ?? TIMEOUT,
    tracing: lambda.Tracing.ACTIVE,
    logGroup: new LogGroup(scope, `${id}Logs`, { retention: props.logRetention, removalPolicy: props.removalPolicy }),
    environment: props.environment,
    bundling: props.rendersUbl ? PDF_AND_UBL_BUNDLING : props.rendersPdf ? PDF_BUNDLING : BUNDLING,
  });
}

/**
 * The AwsSolutions findings every function of the stack accepts, with the reason (test/infra/nag.test.ts lists the
 * ids): the managed role that only writes logs, X-Ray's `Resource: *`, the pinned runtime. `access` says what the
 * function's own statements grant, each naming its resources (asserted in `assertedIn`).
 */
export function acknowledgeFunctionFindings(fn: NodejsFunction, access: string, assertedIn: string): void {
  Validations.of(fn).acknowledge(
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        'AWSLambdaBasicExecutionRole only allows writing CloudWatch logs (CreateLogGroup/CreateLogStream/PutLogEvents); ' +
        `${access} is granted separately by statements naming those resources.`,
    },
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only the X-Ray statement (xray:PutTraceSegments, xray:PutTelemetryRecords) uses Resource *: X-Ray does not support ' +
        `resource-level permissions. The other statements name their ARNs (asserted in ${assertedIn}).`,
    },
    {
      id: 'AwsSolutions-L1',
      reason:
        'The runtime is pinned to nodejs22.x on purpose: the bundles target node22, and a runtime upgrade is a ' +
        'deliberate, tested change rather than a side effect of a CDK upgrade.',
    },
  );
}
