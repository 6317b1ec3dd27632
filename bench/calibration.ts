/**
 * How fast this machine runs JavaScript, measured in the same run as the figures it scales (docs/performance.md
 * "Budgets": CPU budgets on a slower machine). A fixed workload, independent of the project's code (so a slower
 * service cannot slow its own yardstick): building, serialising and parsing a page of 100 payment-shaped objects and
 * formatting their amounts — the kind of work our handlers do per request. Its CPU time (the least of a few
 * repetitions, at several points of the run, so a moment of contention does not count) ÷ the same on the reference
 * machine is the machine factor:
 * every budget that is an absolute time (our CPU per request, render times, the latency guards on DynamoDB Local's
 * shape) is stated for the reference machine and multiplied by it.
 */
import { cpuUsage } from 'node:process';

/**
 * The workload's CPU time on the reference machine (the 2-core machine the budgets are stated for), least of 40
 * repetitions over 10 fresh processes (`npx tsx bench/calibration.ts`).
 */
export const REFERENCE_CALIBRATION_MS = 17;

export interface Calibration {
  /** The workload's CPU time in this run (ms): the least repetition at each point it was measured. */
  samplesMs: number[];
  /** The least of them ÷ REFERENCE_CALIBRATION_MS: > 1 on a slower machine. */
  factor: number;
}

const REPETITIONS = 7;

/** One pass of the workload; returns a checksum so that nothing can be optimised away. */
function workload(): number {
  let checksum = 0;
  for (let page = 0; page < 60; page++) {
    const payments = Array.from({ length: 100 }, (_, i) => ({
      id: page * 100 + i,
      reference_code: `REF${String(page * 7919 + i * 104_729).padStart(17, '0')}`,
      amount: ((page * 100 + i) * 1234.5).toFixed(2),
      channel: ['Cash', 'BankTransfer', 'POS', 'Cheque'][i % 4],
      date: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      client: { id: i, first_name: 'Ada', last_name: `Obi ${i}`, email: `ada.${i}@example.com` },
      items: [{ item: 'Website design', unit_cost: '150,000.00', quantity: String(i % 9) }],
    }));
    const text = JSON.stringify({ status: true, data: { payments, next_cursor: null } });
    const parsed = JSON.parse(text) as { data: { payments: { amount: string; reference_code: string }[] } };
    for (const p of parsed.data.payments)
      checksum += (Number(p.amount.replace(/\./, '')) % 97) + p.reference_code.toLowerCase().charCodeAt(5);
    checksum += text.length;
  }
  return checksum;
}

/** The workload's CPU time in this process: the least of `repetitions` runs, after one unmeasured (the JIT). */
export function calibrationMs(repetitions = REPETITIONS): number {
  workload();
  let least = Number.POSITIVE_INFINITY;
  for (let r = 0; r < repetitions; r++) {
    const before = cpuUsage();
    if (workload() === -1) throw new Error('unreachable');
    const used = cpuUsage(before);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return Math.round(least * 100) / 100;
}

/**
 * The machine factor from the calibration samples taken in a run: the least ÷ the reference. Contention (another
 * process on the same core, a busy hypervisor) only ever adds CPU time, so the least is the machine's own speed; a run
 * disturbed by load is not one to judge (docs/performance.md "How to reproduce").
 */
export function calibrationOf(samplesMs: readonly number[]): Calibration {
  const least = Math.min(...samplesMs);
  return { samplesMs: [...samplesMs], factor: Math.round((least / REFERENCE_CALIBRATION_MS) * 1000) / 1000 };
}

// `npx tsx bench/calibration.ts`: prints this process's calibration time (to set or check the reference).
if (import.meta.url === `file://${process.argv[1]}`)
  console.log(`calibration ${calibrationMs(8)} ms (reference ${REFERENCE_CALIBRATION_MS} ms)`);
