/** Client request schemas (docs/api.md "Add invoice" `client`, "Clients"). */
import * as z from 'zod/mini';
import type { ClientChanges } from '../domain/client.ts';
import type { NewClientRequest } from '../domain/invoice-request.ts';
import {
  CLIENT_TYPES,
  email,
  enumField,
  meta,
  optionalText,
  pageCursor,
  pageLimit,
  phone,
  requiredText,
} from './fields.ts';

export const newClientSchema = meta(
  z.object({
    first_name: requiredText('First name'),
    last_name: requiredText('Last name'),
    email,
    phone,
    company_name: optionalText("The client's company name; returned as the client's `name`"),
    address: optionalText('Postal address'),
    website: optionalText('Website address (stored as given)'),
    type: enumField(CLIENT_TYPES, 'Client type (default Customer); matched case-insensitively', {
      optional: true,
      caseInsensitive: true,
    }),
    settlement_bank: optionalText('Settlement bank code'),
    account_number: optionalText('Bank account number'),
  }),
  { description: 'A new client, created with the invoice unless one with the same email already exists.' },
);

/** `GET /clients` query parameters. */
export const listClientsSchema = z.object({ limit: pageLimit, cursor: pageCursor });

/** `POST /clients`: the client fields of add invoice's `client`, flat in the body. */
export const addClientSchema = newClientSchema;

/** `PUT /clients/{id}`: any of the client fields; those given are validated as for a new client and changed. */
export const updateClientSchema = z.partial(newClientSchema);

export type NewClientInput = z.output<typeof newClientSchema>;
// The requests map onto the domain's own input types as they are: a change on either side that breaks this fails tsc.
export const toNewClientRequest = (input: NewClientInput): NewClientRequest => input;
export type ClientChangesInput = z.output<typeof updateClientSchema>;
export const toClientChanges = (input: ClientChangesInput): ClientChanges => input;
export type ListClientsInput = z.output<typeof listClientsSchema>;
