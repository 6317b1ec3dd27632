/** shared/services/one-at-a-time.ts: one key's tasks run one after another; a failure does not hold up the next. */
import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../shared/services/one-at-a-time.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('oneAtATime', () => {
  it('runs the tasks of one key in order, never two at once, and other keys beside them', async () => {
    // Prepare
    const log: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    // Act
    const [a, b, c] = await Promise.all([
      oneAtATime('k', task('a')),
      oneAtATime('k', task('b')),
      oneAtATime('k', task('c')),
      oneAtATime('other', async () => log.push('other')),
    ]);
    // Assess: the other key's task did not wait for the first key's
    expect([a, b, c]).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'other', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('passes a failure to its caller only, and runs the next task', async () => {
    // Act
    const failed = oneAtATime('k', async () => {
      throw new Error('refused');
    });
    const next = oneAtATime('k', async () => 'ran');
    // Assess
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('ran');
  });
});
