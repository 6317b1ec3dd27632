/**
 * The one way a test waits for something it cannot be told about (a webhook received, a mail job sent, a process
 * gone): poll `condition` every `intervalMs` until it holds, or fail naming what was awaited. A condition that
 * spawns a process (the CLI) wants a longer interval than one that reads memory.
 */
export async function until(
  what: string | (() => string),
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, intervalMs));
  }
}
