/**
 * A client's saved cards (docs/getting-paid-online.md "Saved cards"): listed with the client (`GET /clients/{id}`),
 * forgotten one at a time (`DELETE /clients/{id}/cards/{card_token}`). Cards are saved only by an online payment of
 * an invoice with `tokenize`, which needs the account's tokenization: an account without it has none to read.
 */
import { visibleClient } from '../domain/client.ts';
import { notFound } from '../domain/refusal.ts';
import { cardForgotten, clientWithCardsShown } from '../representation/online-answers.ts';
import type { Answer } from '../representation/views.ts';
import { forgetCardActions, queryClientCards, savedCardFrom, savedCardKey, signatureOf } from '../store/cards.ts';
import { clientFrom, clientKey } from '../store/clients.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { executeWrite, type WriteResult } from '../store/write-executor.ts';
import type { RequestContext } from './context.ts';
import { readClientBanking } from './virtual-account.ts';

/** The client (also a deleted one) with its saved cards; `client_not_found` when absent or another account's. */
export async function getClientWithCards(context: RequestContext, clientId: number): Promise<Answer> {
  const { account } = context;
  const [{ client, banking }, cards] = await Promise.all([
    readClientBanking(account.companyId, clientId, { includeDeleted: true }),
    account.tokenizationEnabled ? queryClientCards(account.companyId, clientId) : Promise.resolve([]),
  ]);
  return clientWithCardsShown(client, cards, banking);
}

/** Forgets one of the client's cards; `card_not_found` when it has no card with this token. */
export function forgetClientCard(context: RequestContext, clientId: number, cardToken: string): Promise<WriteResult> {
  const { companyId } = context.account;
  const byId = clientKey(companyId, clientId);
  const cardKey = savedCardKey(companyId, cardToken);
  return executeWrite(
    {
      keys: () => [byId, cardKey],
      async decide(items) {
        const client = visibleClient(clientFrom(items, byId), companyId, { includeDeleted: true });
        if (!client.ok) throw client.refusal;
        const card = savedCardFrom(items, cardKey);
        if (!card || card.clientId !== clientId) throw notFound('card_not_found');
        const others = (await queryClientCards(companyId, clientId)).filter((other) => other.token !== cardToken);
        return {
          actions: forgetCardActions(tableName(), card, signatureOf(items, cardKey)),
          response: cardForgotten(client.value, others),
        };
      },
    },
    undefined,
  );
}
