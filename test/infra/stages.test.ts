import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { InvoicingStack } from '../../infra/stack.ts';
import { resolveStage, STAGES, StageConfigurationError, withPublicBaseUrl } from '../../infra/stages.ts';
import { synthStage } from './template-helpers.ts';

describe('stage settings', () => {
  it('defaults to dev', () => {
    expect(resolveStage()).toEqual({ name: 'dev', settings: STAGES.dev });
  });

  it('-c publicBaseUrl sets the base of hosted_url: an https address without query, fragment or credentials', () => {
    const dev = resolveStage('dev');
    expect(withPublicBaseUrl(dev, undefined)).toBe(dev);
    expect(withPublicBaseUrl(dev, 'https://pay.example.com/').settings.publicBaseUrl).toBe('https://pay.example.com');
    expect(withPublicBaseUrl(dev, 'https://example.com/billing').settings.publicBaseUrl).toBe(
      'https://example.com/billing',
    );
    for (const wrong of ['http://pay.example.com', 'pay.example.com', 'https://a.com/?x=1', 'https://u:p@a.com', 42])
      expect(() => withPublicBaseUrl(dev, wrong), String(wrong)).toThrow(StageConfigurationError);
  });

  it('prod retains data, protects the table, and keeps logs a year; dev is disposable and keeps logs a week', () => {
    expect(STAGES.prod).toMatchObject({
      retainData: true,
      deletionProtection: true,
      pointInTimeRecovery: true,
      logRetention: 365,
    });
    expect(STAGES.dev).toMatchObject({
      retainData: false,
      deletionProtection: false,
      pointInTimeRecovery: true,
      logRetention: 7,
    });
    expect(STAGES.prod.throttling.rateLimit).toBeGreaterThan(STAGES.dev.throttling.rateLimit);
  });

  it('gives any other valid name (a personal or branch stack) the dev settings', () => {
    expect(resolveStage('pr-42')).toEqual({ name: 'pr-42', settings: STAGES.dev });
  });

  it.each(['Prod', 'my_stage', '1st', '', 'a'.repeat(31)])('rejects the stage name %j', (name) => {
    expect(() => resolveStage(name)).toThrow(/Invalid stage name/);
  });

  // A whole stage's synthesis: seconds of CPU, and more than vitest's 30 s default on a loaded machine.
  it('synthesises a custom stage as its own stack', { timeout: 120_000 }, () => {
    expect(synthStage('pr-42').stack.stackName).toBe('Invoicing-pr-42');
  });

  it('turns point-in-time recovery off only when a stage setting says so', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new InvoicingStack(app, 'Invoicing-nopitr', {
      stage: { name: 'nopitr', settings: { ...STAGES.dev, pointInTimeRecovery: false } },
    });
    Template.fromStack(stack).hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      Replicas: [{ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: false } }],
    });
  });
});
