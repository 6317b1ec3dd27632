/**
 * The tests' API driver: infra/tools/api-driver.ts, with every response any test produces checked against the
 * OpenAPI document (test/support/contract.ts).
 */
import { responseChecks } from '../../infra/tools/api-driver.ts';
import { assertContract } from './contract.ts';

responseChecks.push(assertContract);

export * from '../../infra/tools/api-driver.ts';
