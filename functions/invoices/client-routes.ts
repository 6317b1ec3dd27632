/** Client routes: parse → call the service → respond (SPEC §13 "Clients"). */
import { jsonResponse, successBody } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { clientListPosition, clientListResponse } from '../../shared/http/history-page.ts';
import { idempotencyKeyOf, writeResponse } from '../../shared/http/responses.ts';
import { clientView } from '../../shared/http/views.ts';
import { clientAnswers } from '../../shared/http/write-answers.ts';
import {
  addClientSchema,
  listClientsSchema,
  toClientChanges,
  toNewClientRequest,
  updateClientSchema,
} from '../../shared/schemas/client.ts';
import { addClient } from '../../shared/services/add-client.ts';
import { deleteClient, updateClient } from '../../shared/services/change-client.ts';
import { getClient, listClients } from '../../shared/services/read-clients.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /clients */
export const addClientRoute: RouteHandler = async ({ account, body, headers, requestId }) => {
  const input = toNewClientRequest(parseRequest(addClientSchema, body));
  const idempotencyKey = idempotencyKeyOf(headers);
  return writeResponse(await addClient({ account, requestId, idempotencyKey }, input, clientAnswers));
};

/** GET /clients (limit and cursor in the query string) */
export const listClientsRoute: RouteHandler = async ({ account, query }) => {
  const input = parseRequest(listClientsSchema, query);
  const page = await listClients(account, input, clientListPosition(account, input.cursor));
  return clientListResponse(page, account);
};

/** GET /clients/{id} */
export const getClientRoute: RouteHandler = async ({ account, pathParameters }) => {
  const client = await getClient(account, Number(pathParameters.id));
  return jsonResponse(200, successBody(clientView(client)));
};

/** PUT /clients/{id} */
export const updateClientRoute: RouteHandler = async ({ account, body, pathParameters, requestId }) => {
  const changes = toClientChanges(parseRequest(updateClientSchema, body ?? {}));
  const clientId = Number(pathParameters.id);
  const context = { account, requestId, idempotencyKey: undefined };
  return writeResponse(await updateClient(context, clientId, changes, clientAnswers));
};

/** DELETE /clients/{id} */
export const deleteClientRoute: RouteHandler = async ({ account, pathParameters, requestId }) => {
  const context = { account, requestId, idempotencyKey: undefined };
  return writeResponse(await deleteClient(context, Number(pathParameters.id), clientAnswers));
};
