/** Client routes: parse → call the service → respond (docs/api.md "Clients"). */
import { outcomeResponse, withIdempotencyKey, writeResponse } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { clientListPosition, clientListResponse } from '../../shared/http/history-page.ts';
import {
  addClientSchema,
  listClientsSchema,
  toClientChanges,
  toNewClientRequest,
  updateClientSchema,
} from '../../shared/schemas/client.ts';
import { refundCreditSchema } from '../../shared/schemas/client-credit.ts';
import { sendStatementSchema } from '../../shared/schemas/history.ts';
import { addClient } from '../../shared/services/add-client.ts';
import { deleteClient, updateClient } from '../../shared/services/change-client.ts';
import { refundClientCredit } from '../../shared/services/client-credit.ts';
import { listClients } from '../../shared/services/read-clients.ts';
import { forgetClientCard, getClientWithCards } from '../../shared/services/saved-cards.ts';
import { sendStatement } from '../../shared/services/send-statement.ts';
import { createVirtualAccount } from '../../shared/services/virtual-account.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /clients */
export const addClientRoute: RouteHandler = async ({ context, body, headers }) => {
  const input = toNewClientRequest(parseRequest(addClientSchema, body));
  return writeResponse(await addClient(withIdempotencyKey(context, headers), input));
};

/** GET /clients (limit and cursor in the query string) */
export const listClientsRoute: RouteHandler = async ({ context, query }) => {
  const input = parseRequest(listClientsSchema, query);
  const page = await listClients(context, input, clientListPosition(context.account, input.cursor));
  return clientListResponse(page, context.account);
};

/** GET /clients/{id}: the client with its saved cards (docs/getting-paid-online.md "Saved cards") */
export const getClientRoute: RouteHandler = async ({ context, pathParameters }) =>
  outcomeResponse(await getClientWithCards(context, Number(pathParameters.id)));

/** PUT /clients/{id} */
export const updateClientRoute: RouteHandler = async ({ context, body, pathParameters }) => {
  const changes = toClientChanges(parseRequest(updateClientSchema, body ?? {}));
  return writeResponse(await updateClient(context, Number(pathParameters.id), changes));
};

/** DELETE /clients/{id} */
export const deleteClientRoute: RouteHandler = async ({ context, pathParameters }) =>
  writeResponse(await deleteClient(context, Number(pathParameters.id)));

/** DELETE /clients/{id}/cards/{card_token} */
export const forgetClientCardRoute: RouteHandler = async ({ context, pathParameters }) =>
  writeResponse(await forgetClientCard(context, Number(pathParameters.id), pathParameters.card_token ?? ''));

/** POST /clients/{id}/statement/send: the statement's period, optional `to` (docs/receivables.md "One client: the statement") */
export const sendClientStatementRoute: RouteHandler = async ({ context, body, headers, pathParameters }) => {
  const input = parseRequest(sendStatementSchema, body, { periodFields: ['period', 'start', 'end'] });
  return writeResponse(await sendStatement(withIdempotencyKey(context, headers), Number(pathParameters.id), input));
};

/** POST /clients/{id}/virtual-account (docs/bank-transfers.md "Virtual accounts") */
export const createVirtualAccountRoute: RouteHandler = async ({ context, pathParameters }) =>
  writeResponse(await createVirtualAccount(context, Number(pathParameters.id)));

/** POST /clients/{id}/credit/refund (docs/bank-transfers.md "Refunding credit") */
export const refundClientCreditRoute: RouteHandler = async ({ context, body, pathParameters }) => {
  const input = parseRequest(refundCreditSchema, body);
  return writeResponse(await refundClientCredit(context, Number(pathParameters.id), input.amount));
};
