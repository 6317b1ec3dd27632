/** Budgets stated for the reference machine and the ratio limits a row's CPU budget implies (no timing assertions). */
import { describe, expect, it } from 'vitest';
import { cpuBoundLimits, evaluateBudget, formatBudget, machineTime } from '../../bench/budgets.ts';
import { calibrationOf, REFERENCE_CALIBRATION_MS } from '../../bench/calibration.ts';

const STATED = { p50: 1.15, p99: 1.25, throughput: 0.85, tailP99: 1.3 };

describe('budgets on another machine', () => {
  it('multiplies an absolute time by the machine factor, and says what was stated', () => {
    const budget = { name: 'our CPU', value: 3.5, comparator: '<=' as const, limit: 3, scale: machineTime(3) };
    const slower = evaluateBudget(budget, 1.25);
    expect(slower).toMatchObject({ limit: 3.75, referenceLimit: 3, met: true });
    expect(slower).not.toHaveProperty('scale');
    expect(formatBudget(slower)).toBe('met: our CPU = 3.5 (budget <= 3.75; 3 as stated)');
    expect(evaluateBudget(budget, 1).met).toBe(false);
    expect(evaluateBudget(budget, 0.8)).toMatchObject({ limit: 2.4, met: false });
  });

  it('leaves a budget without a scale alone, whatever the machine', () => {
    const result = evaluateBudget({ name: 'round trips', value: 2, comparator: '<=', limit: 2 }, 3);
    expect(result).toMatchObject({ limit: 2, met: true });
    expect(result).not.toHaveProperty('referenceLimit');
  });

  it('takes the machine factor as the least calibration over the reference (contention only adds CPU time)', () => {
    const at = (x: number) => x * REFERENCE_CALIBRATION_MS;
    expect(calibrationOf([at(1.2), at(1.4), at(1.1)]).factor).toBe(1.1);
    expect(calibrationOf([at(0.9), at(1.1)]).factor).toBe(0.9);
  });
});

describe('ratio limits a row CPU budget implies', () => {
  const floor = { p50Ms: 30, p99Ms: 60, machineCpuMsAtC8: 7, dynamoDbLocalGapMsAtC8: 0 };

  it('allows at c=1 the floor plus the CPU budget, where that is more than the stated ratio', () => {
    const limits = cpuBoundLimits(STATED, 7.5, floor);
    expect(limits.p50(1)).toBeCloseTo(1.25);
    expect(limits.p99(1)).toBe(1.25); // 1 + 7.5 / 60 = 1.125: the stated 1.25 is more
    expect(limits.p50(2)).toBeCloseTo(1.5);
  });

  it('allows at c=8 the throughput of a saturated machine that spends the CPU budget per request', () => {
    const limits = cpuBoundLimits(STATED, 3, floor);
    expect(limits.throughput(1)).toBeCloseTo(0.7); // 7 / (7 + 3)
    expect(limits.tailP99(1)).toBeCloseTo(10 / 7);
    const expensiveFloor = cpuBoundLimits(STATED, 3, { ...floor, machineCpuMsAtC8: 30 });
    expect(expensiveFloor.throughput(1)).toBe(0.85); // 30 / 33 = 0.91: the stated 0.85 is stricter
    expect(expensiveFloor.tailP99(1)).toBe(1.3);
  });

  it("takes out at c=8 what DynamoDB Local spent more (or less) on the endpoint's blocks than on the floor's", () => {
    const slowerJvm = cpuBoundLimits(STATED, 3, { ...floor, dynamoDbLocalGapMsAtC8: 2 });
    expect(slowerJvm.throughput(1)).toBeCloseTo(7 / 12);
    expect(slowerJvm.tailP99(1)).toBeCloseTo(12 / 7);
    const fasterJvm = cpuBoundLimits(STATED, 3, { ...floor, dynamoDbLocalGapMsAtC8: -1 });
    expect(fasterJvm.throughput(1)).toBeCloseTo(7 / 9);
    expect(fasterJvm.tailP99(1)).toBe(1.3); // 9 / 7 = 1.29: the stated 1.3 is more
    // At c=1 the two sides share DynamoDB Local's CPU evenly: nothing to take out there.
    expect(slowerJvm.p50(1)).toBeCloseTo(cpuBoundLimits(STATED, 3, floor).p50(1));
  });

  it('misses when the floor was not measured (a failed block): no limit hides it', () => {
    const limits = cpuBoundLimits(STATED, 3, { ...floor, p50Ms: Number.NaN });
    const result = evaluateBudget({ name: 'p50', value: 1.1, comparator: '<=', limit: 1.15, scale: limits.p50 }, 1);
    expect(result.met).toBe(false);
  });
});
