/** What an entry of the wake index wakes, by its item's key (shared/store/wake-index.ts `WAKE_KINDS`). */
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { WAKE_KINDS } from '../../shared/store/wake-index.ts';

describe('wake kinds', () => {
  it("an invoice header wakes its invoice; no other item of the invoice's, nor another entity's, does", () => {
    expect(WAKE_KINDS.invoice(keys.invoiceHeader('INV-1'))).toBe(true);
    expect(WAKE_KINDS.invoice(keys.invoiceBody('INV-1'))).toBe(false);
    expect(WAKE_KINDS.invoice(keys.mailJob('mail_01JZ00000000000000000000A1'))).toBe(false);
    expect(WAKE_KINDS.invoice(keys.account(1))).toBe(false);
  });

  it('a recurring series wakes itself; its period items and an invoice header do not', () => {
    const id = 'rec_01JZ0000000000000000000000';
    expect(WAKE_KINDS.recurring(keys.recurringSeries(id))).toBe(true);
    expect(WAKE_KINDS.recurring(keys.recurringPeriod(id, 1))).toBe(false);
    expect(WAKE_KINDS.recurring(keys.invoiceHeader('INV-1'))).toBe(false);
    expect(WAKE_KINDS.invoice(keys.recurringSeries(id))).toBe(false);
  });
});
