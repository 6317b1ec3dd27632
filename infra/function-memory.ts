/**
 * The deployed functions' memory, in a module without the CDK so that the bench can start its processes with the
 * heap Lambda gives such a function (bench/processes.ts).
 */

/** CPU scales with memory; 512 MB cuts module-load (cold start) time without paying for idle RAM. */
export const MEMORY_SIZE_MB = 512;

/**
 * The V8 heap limits Lambda's Node.js runtime starts a function's process with. Its bootstrap
 * (`/var/runtime/bootstrap` in AWS's Node.js base images) gives a tenth of the memory to the young generation,
 * half of that to each semi-space, and the rest to the old generation, in whole megabytes (shell `expr` arithmetic).
 * For 512 MB: 25 MB semi-spaces (Node's own default is 16) and 461 MB of old space. docs/performance.md, "Method".
 */
export function lambdaHeapFlags(memoryMb: number = MEMORY_SIZE_MB): string[] {
  const youngMb = Math.floor(memoryMb / 10);
  return [`--max-semi-space-size=${Math.floor(youngMb / 2)}`, `--max-old-space-size=${memoryMb - youngMb}`];
}
