import { describe, expect, it } from 'vitest';
import {
  decideClientCreation,
  decideClientDeletion,
  decideClientUpdate,
  visibleClient,
} from '../../shared/domain/client.ts';
import type { ClientRecord } from '../../shared/domain/invoice.ts';
import { clientRecord } from '../support/fixtures.ts';

const NOW = '2026-11-25 10:00:00';
const client = (overrides: Partial<ClientRecord> = {}): ClientRecord =>
  clientRecord({ name: 'Obi Ventures', email: 'Ada@Example.com', ...overrides });

describe('client rules', () => {
  it('another account’s client, an absent one and (for changes) a deleted one are all not found', () => {
    // Act / Assess
    expect(visibleClient(client({ companyId: 2 }), 1, { includeDeleted: true }).ok).toBe(false);
    expect(visibleClient(undefined, 1, { includeDeleted: true }).ok).toBe(false);
    expect(visibleClient(client({ deletedAt: NOW }), 1, { includeDeleted: false }).ok).toBe(false);
    expect(visibleClient(client({ deletedAt: NOW }), 1, { includeDeleted: true }).ok).toBe(true);
  });

  it('creation reuses a live client with the email and creates over a deleted one', () => {
    expect(decideClientCreation(client())).toEqual({ kind: 'existing', client: client() });
    expect(decideClientCreation(client({ deletedAt: NOW }))).toEqual({ kind: 'create' });
    expect(decideClientCreation(undefined)).toEqual({ kind: 'create' });
  });

  it('an update changes only the given fields; company_name is the name', () => {
    // Act
    const decision = decideClientUpdate(client(), 1, { last_name: 'Okafor', company_name: 'New Co' }, undefined, NOW);
    // Assess
    expect(decision).toEqual({
      ok: true,
      value: client({ lastName: 'Okafor', name: 'New Co', updatedAt: NOW }),
    });
  });

  it('an update to an email a live other client has is 409; to its own in another case, or a deleted one’s, is fine', () => {
    const other = client({ id: 8, email: 'bola@example.com' });
    const taken = decideClientUpdate(client(), 1, { email: 'BOLA@example.com' }, other, NOW);
    expect(taken.ok || taken.refusal.code).toBe('duplicate_client_email');
    expect(decideClientUpdate(client(), 1, { email: 'ada@example.com' }, client(), NOW).ok).toBe(true);
    expect(decideClientUpdate(client(), 1, { email: 'bola@example.com' }, { ...other, deletedAt: NOW }, NOW).ok).toBe(
      true,
    );
  });

  it('deletion is soft and repeatable', () => {
    expect(decideClientDeletion(client(), 1, NOW)).toEqual({
      ok: true,
      value: { kind: 'delete', client: client({ deletedAt: NOW, updatedAt: NOW }) },
    });
    const deleted = client({ deletedAt: '2026-02-02 00:00:00' });
    expect(decideClientDeletion(deleted, 1, NOW)).toEqual({
      ok: true,
      value: { kind: 'already_deleted', client: deleted },
    });
    const foreign = decideClientDeletion(client(), 2, NOW);
    expect(foreign.ok || foreign.refusal.code).toBe('client_not_found');
  });
});
