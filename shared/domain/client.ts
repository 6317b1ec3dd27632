/**
 * Pure client rules (docs/api.md "Clients"): unique per account by e-mail (case-insensitive) among clients
 * that are not deleted; an update may not take another client's e-mail; deletion is soft and frees the e-mail.
 */
import type { ClientRecord } from './invoice.ts';
import type { NewClientRequest } from './invoice-request.ts';
import { accept, type Decision, notFound, Refusal, refuse } from './refusal.ts';

/** The fields a `PUT /clients/{id}` may change; absent ones stay as they are. */
export type ClientChanges = Partial<NewClientRequest>;

const clientNotFound = () => notFound('client_not_found');

/** The client as its owner may see it: absent, another account's or (for changes) deleted all read as not found. */
export function visibleClient(
  client: ClientRecord | undefined,
  companyId: number,
  options: { includeDeleted: boolean },
): Decision<ClientRecord> {
  if (!client || client.companyId !== companyId) return refuse(clientNotFound());
  if (client.deletedAt !== null && !options.includeDeleted) return refuse(clientNotFound());
  return accept(client);
}

/**
 * The client's contact details under their snake_case names. The API shows them and the table stores them under the
 * same names, both fixed for good (docs/api.md "Clients", docs/data-design.md), so the mapping is declared once, here.
 */
export function contactFields(client: ClientRecord) {
  return {
    first_name: client.firstName,
    last_name: client.lastName,
    email: client.email,
    phone: client.phone,
    website: client.website,
    address: client.address,
  };
}

/** `POST /clients`: the live client that already has the e-mail (200, unchanged), or a new one to create (201). */
export type ClientCreation = { kind: 'existing'; client: ClientRecord } | { kind: 'create' };

export function decideClientCreation(sameEmail: ClientRecord | undefined): ClientCreation {
  return sameEmail && sameEmail.deletedAt === null ? { kind: 'existing', client: sameEmail } : { kind: 'create' };
}

const emailsEqual = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** Whether an update moves the client to another e-mail (its uniqueness item moves with it). */
export const changesEmail = (client: ClientRecord, changes: ClientChanges): boolean =>
  changes.email !== undefined && !emailsEqual(changes.email, client.email);

/**
 * `PUT /clients/{id}`: the client with the given fields changed, or `client_not_found` (absent, another account's,
 * deleted) or `duplicate_client_email` when the new e-mail belongs to another live client (`emailOwner`, read by it).
 */
export function decideClientUpdate(
  client: ClientRecord | undefined,
  companyId: number,
  changes: ClientChanges,
  emailOwner: ClientRecord | undefined,
  now: string,
): Decision<ClientRecord> {
  const visible = visibleClient(client, companyId, { includeDeleted: false });
  if (!visible.ok) return visible;
  const current = visible.value;
  if (changesEmail(current, changes) && emailOwner && emailOwner.deletedAt === null && emailOwner.id !== current.id)
    return refuse(
      new Refusal('duplicate_client_email', 'Another client of your account has this email.', [
        { code: 'conflict', field: 'email', message: 'must be unique among your clients' },
      ]),
    );
  return accept(applyClientChanges(current, changes, now));
}

function applyClientChanges(client: ClientRecord, changes: ClientChanges, now: string): ClientRecord {
  return {
    ...client,
    name: changes.company_name ?? client.name,
    firstName: changes.first_name ?? client.firstName,
    lastName: changes.last_name ?? client.lastName,
    email: changes.email ?? client.email,
    phone: changes.phone ?? client.phone,
    address: changes.address ?? client.address,
    website: changes.website ?? client.website,
    type: changes.type ?? client.type,
    settlementBank: changes.settlement_bank ?? client.settlementBank,
    accountNumber: changes.account_number ?? client.accountNumber,
    updatedAt: now,
  };
}

/** `DELETE /clients/{id}`: soft-delete (freeing its e-mail), or the same 200 again for a client already deleted. */
export type ClientDeletion =
  | { kind: 'delete'; client: ClientRecord }
  | { kind: 'already_deleted'; client: ClientRecord };

export function decideClientDeletion(
  client: ClientRecord | undefined,
  companyId: number,
  now: string,
): Decision<ClientDeletion> {
  const visible = visibleClient(client, companyId, { includeDeleted: true });
  if (!visible.ok) return visible;
  const current = visible.value;
  if (current.deletedAt !== null) return accept({ kind: 'already_deleted', client: current });
  return accept({ kind: 'delete', client: { ...current, deletedAt: now, updatedAt: now } });
}
