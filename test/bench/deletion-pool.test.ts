/** The delete rows' pools (bench/deletion-pool.ts): kept answers first, topped up through `create`, each item once. */
import { describe, expect, it } from 'vitest';
import { deletionPool } from '../../bench/deletion-pool.ts';

const pool = () => {
  let made = 0;
  const created: number[] = [];
  const supply = deletionPool(
    'invoices to delete',
    (body) => Number(JSON.parse(body).data.id),
    async () => {
      const id = 1000 + ++made;
      created.push(id);
      return { ms: 1, made: id };
    },
  );
  return { supply, created };
};

describe('deletion pool', () => {
  it('hands out the kept answers in order, then makes only what is missing', async () => {
    // Prepare: a row kept three answers
    const { supply, created } = pool();
    for (const id of [7, 8, 9]) supply.keep(JSON.stringify({ data: { id } }));
    // Act
    await supply.ensure(5);
    const taken = Array.from({ length: 5 }, () => supply.take());
    // Assess
    expect(taken.slice(0, 3)).toEqual([7, 8, 9]);
    expect(created).toHaveLength(2);
    expect(new Set(taken).size).toBe(5);
  });

  it('counts what is left, not what was ever supplied', async () => {
    const { supply, created } = pool();
    await supply.ensure(2);
    supply.take();
    supply.take();
    await supply.ensure(2);
    expect(created).toHaveLength(4);
  });

  it('fails loudly when a row takes more than it was given', async () => {
    const { supply } = pool();
    supply.keep(JSON.stringify({ data: { id: 1 } }));
    await supply.ensure(1);
    supply.take();
    expect(() => supply.take()).toThrow(/no more invoices to delete/);
  });
});
