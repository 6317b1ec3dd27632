/** Synthesises a stage in-process (no bundling) and looks resources up by their construct path or by the construct. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { createApp, type InvoicingApp } from '../../infra/invoicing-app.ts';
import { REPO_ROOT } from '../../infra/stack.ts';
import { type RouteName, routeNamed } from '../../shared/routes.ts';

export interface CfnResource {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Metadata?: Record<string, unknown>;
}

export interface SynthesisedStage extends InvoicingApp {
  template: Template;
  json: { Resources: Record<string, CfnResource>; Outputs: Record<string, any> };
}

/** The feature flags from cdk.json, so in-process synths match what `npx cdk synth` produces. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

/**
 * Each stage synthesised once per worker and context: the `cdk` project's files share their modules (vitest.config.ts),
 * and a synthesised stage is only read.
 */
const synthesised = new Map<string, SynthesisedStage>();

export function synthStage(stage: string, extraContext: Record<string, unknown> = {}): SynthesisedStage {
  const key = JSON.stringify([stage, extraContext]);
  const known = synthesised.get(key) ?? synthesise(stage, extraContext);
  synthesised.set(key, known);
  return known;
}

function synthesise(stage: string, extraContext: Record<string, unknown>): SynthesisedStage {
  const built = createApp({
    ...cdkJsonContext(),
    stage,
    'aws:cdk:bundling-stacks': [],
    // The CLI adds construct paths to the template by default; an in-process App only when asked.
    'aws:cdk:enable-path-metadata': true,
    // prod refuses the placeholder alarm address (infra/stages.ts); dev ignores it (no alarms).
    alarmEmail: 'alarms@acme.test',
    ...extraContext,
  });
  const template = Template.fromStack(built.stack);
  return { ...built, template, json: template.toJSON() as SynthesisedStage['json'] };
}

/** Logical id of the resource synthesised at `<stack>/<constructPath>`. */
export function logicalIdAt(stage: SynthesisedStage, constructPath: string): string {
  const wanted = `${stage.stack.stackName}/${constructPath}`;
  const found = Object.entries(stage.json.Resources).filter(
    ([, resource]) => resource.Metadata?.['aws:cdk:path'] === wanted,
  );
  if (found.length !== 1) throw new Error(`expected one resource at ${wanted}, found ${found.length}`);
  return found[0]![0];
}

export function resourceAt(stage: SynthesisedStage, constructPath: string): CfnResource {
  return stage.json.Resources[logicalIdAt(stage, constructPath)]!;
}

export function resourcesOfType(stage: SynthesisedStage, type: string): [string, CfnResource][] {
  return Object.entries(stage.json.Resources).filter(([, resource]) => resource.Type === type);
}

export const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** A statement of a role's policy: its actions (sorted), its resources, and its condition when it has one. */
export interface RoleStatement {
  actions: string[];
  resources: unknown[];
  condition?: unknown;
}

/**
 * Look-ups by construct in a stage a `beforeAll` synthesises (`stageOf` reads it when called): a construct's logical
 * id, its resource, an attribute of it, and the statements of a function's role.
 */
export function byConstruct(stageOf: () => SynthesisedStage) {
  const idOf = (construct: IConstruct) => stageOf().stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const statementsOf = (fn: IConstruct & { role?: IConstruct }): RoleStatement[] => {
    const roleId = idOf(fn.role!);
    return resourcesOfType(stageOf(), 'AWS::IAM::Policy')
      .filter(([, policy]) => asArray(policy.Properties.Roles).some((role: any) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[])
      .map(({ Action, Resource, Condition }) => ({
        actions: asArray(Action as string | string[]).sort(),
        resources: asArray(Resource),
        ...(Condition ? { condition: Condition } : {}),
      }));
  };
  return {
    idOf,
    resource: (construct: IConstruct): CfnResource => stageOf().json.Resources[idOf(construct)]!,
    getAtt: (construct: IConstruct, attribute: string) => ({ 'Fn::GetAtt': [idOf(construct), attribute] }),
    statementsOf,
  };
}

/** Construct ids of the API functions; docs/deploying.md and `sam local invoke` use these names. */
export const FUNCTION_IDS = {
  invoices: 'InvoicesFunction',
  payments: 'PaymentsFunction',
  history: 'HistoryFunction',
} as const;

/** The construct id of the function that serves a route. */
export const functionIdOf = (route: RouteName): string => FUNCTION_IDS[routeNamed(route).function];

export interface DynamoGrants {
  /** DynamoDB actions allowed on the table ARN. */
  table: string[];
  /** DynamoDB actions allowed on `<table ARN>/index/<name>`, by index name. */
  indexes: Record<string, string[]>;
  /** Statements naming anything else (should be none). */
  other: Record<string, unknown>[];
}

/** The DynamoDB actions a function's role is granted, sorted, split by resource (table or index). */
export function dynamoGrantsOf(stage: SynthesisedStage, functionId: string, tableId: string): DynamoGrants {
  const roleId = logicalIdAt(stage, `${functionId}/ServiceRole/Resource`);
  const statements = resourcesOfType(stage, 'AWS::IAM::Policy')
    .filter(([, policy]) =>
      (policy.Properties.Roles as unknown[]).some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: roleId })),
    )
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[])
    .filter((statement) =>
      asArray(statement.Action as string | string[]).some((action) => action.startsWith('dynamodb:')),
    );
  const grants: DynamoGrants = { table: [], indexes: {}, other: [] };
  const tableArn = JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] });
  for (const statement of statements) {
    const actions = asArray(statement.Action as string | string[]);
    const resources = asArray(statement.Resource as unknown);
    for (const resource of resources) {
      const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
      const suffix = join && join[0] === '' && JSON.stringify(join[1][0]) === tableArn ? String(join[1][1]) : undefined;
      if (statement.Effect === 'Allow' && JSON.stringify(resource) === tableArn) grants.table.push(...actions);
      else if (statement.Effect === 'Allow' && suffix?.startsWith('/index/') && join![1].length === 2) {
        (grants.indexes[suffix.slice('/index/'.length)] ??= []).push(...actions);
      } else grants.other.push(statement);
    }
  }
  grants.table.sort();
  for (const name of Object.keys(grants.indexes)) grants.indexes[name]!.sort();
  return grants;
}
