import { describe, expect, it } from 'vitest';
import { lambdaHeapFlags, MEMORY_SIZE_MB } from '../../infra/function-memory.ts';

describe('the heap Lambda gives a function of this memory size', () => {
  it.each([
    [512, ['--max-semi-space-size=25', '--max-old-space-size=461']],
    [1024, ['--max-semi-space-size=51', '--max-old-space-size=922']],
    [128, ['--max-semi-space-size=6', '--max-old-space-size=116']],
  ])('%i MB: a tenth young (half per semi-space), the rest old, in whole megabytes', (memoryMb, flags) => {
    expect(lambdaHeapFlags(memoryMb)).toEqual(flags);
  });

  it('defaults to the deployed functions’ memory', () => {
    expect(lambdaHeapFlags()).toEqual(lambdaHeapFlags(MEMORY_SIZE_MB));
  });
});
