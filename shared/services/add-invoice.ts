/** Add invoice (SPEC §5): one read, one transaction; every uniqueness rule is a condition. */
import { ApiError, ConflictError, NotFoundError } from '../errors';
import { buildInvoice, invoiceTotal, type ClientRecord } from '../domain/invoice';
import { formatTimestamp } from '../domain/dates';
import { generateReferenceCode } from '../domain/reference-code';
import type { AddInvoiceInput, NewClientInput } from '../schemas';
import { invoiceView } from '../views';
import { tableName } from '../store/client';
import { keys } from '../store/keys';
import { itemOf } from '../store/batch';
import { clientEmailItem, clientFromAttributes, clientItem, invoiceBodyItem, invoiceHeaderItem, type Item } from '../store/items';
import { IdAllocator, type IdClaim } from '../store/sequences';
import { executeWrite, ReadAgain, type TransactItem, type WriteResult } from '../store/write-executor';
import { idempotencyRequest } from '../store/idempotency';
import { storedError, storedSuccess, type RequestContext } from './context';

export const INVOICE_CREATED = 'Invoice created successfully.';

function newClient(companyId: number, id: number, input: NewClientInput, now: string): ClientRecord {
  return {
    id,
    companyId,
    name: input.company_name ?? '',
    firstName: input.first_name,
    lastName: input.last_name,
    email: input.email,
    phone: input.phone,
    website: '',
    address: input.address ?? '',
    type: input.type ?? 'Customer',
    settlementBank: input.settlement_bank ?? '',
    accountName: '',
    accountNumber: input.account_number ?? '',
    createdAt: now,
    updatedAt: now,
  };
}

const exists = (key: { PK: string; SK: string }, table: string): TransactItem => ({
  ConditionCheck: { TableName: table, Key: key, ConditionExpression: 'attribute_exists(PK)' },
});

const putNew = (item: Item, table: string): TransactItem => ({
  Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' },
});

export async function addInvoice(context: RequestContext, input: AddInvoiceInput): Promise<WriteResult> {
  const { account } = context;
  const companyId = account.companyId;
  invoiceTotal(input); // 400 for a zero or over-the-cap total, before any database work
  const table = tableName();
  const clientKey =
    input.client_id !== undefined ? keys.client(companyId, input.client_id) : keys.clientEmail(companyId, input.client!.email);
  const invoiceIds = new IdAllocator(table, companyId, 'invoice');
  const clientIds = new IdAllocator(table, companyId, 'client');
  const claimed: IdClaim[] = [];
  const claim = (allocator: IdAllocator, items: Map<string, Item>): number => {
    const id = allocator.claim(items);
    if (!id) throw new ReadAgain();
    claimed.push(id);
    return id.id;
  };
  const merchantRefKey = input.merchant_ref !== undefined ? keys.merchantRef(companyId, input.merchant_ref) : undefined;

  try {
    return await executeWrite(
      {
        keys: async () => [
          clientKey,
          ...(merchantRefKey ? [merchantRefKey] : []),
          ...(await invoiceIds.keysToRead()),
          ...(input.client ? await clientIds.keysToRead() : []),
        ],
        settle(committed) {
          invoiceIds.settle(committed);
          clientIds.settle(committed);
        },
        errorResponse: (error: ApiError) => storedError(error, context.requestId),
        decide(items) {
          claimed.length = 0;
          if (input.tokenize === true && !account.tokenizationEnabled) {
            throw new ApiError('tokenization_not_enabled', 'Card tokenization is not enabled for this account. Contact support to enable it.');
          }
          if (merchantRefKey && itemOf(items, merchantRefKey)) {
            throw new ConflictError('duplicate_merchant_ref', 'An invoice with this merchant_ref already exists.', [
              { code: 'conflict', field: 'merchant_ref', message: 'must be unique within your account' },
            ]);
          }
          const now = formatTimestamp(new Date());
          const actions: TransactItem[] = [];
          const existingClient = itemOf(items, clientKey);
          let client: ClientRecord;
          if (existingClient) {
            client = clientFromAttributes(existingClient);
            actions.push(exists(clientKey, table));
          } else if (input.client_id !== undefined) {
            throw new NotFoundError('client_not_found', 'Client not found');
          } else {
            client = newClient(companyId, claim(clientIds, items), input.client!, now);
            actions.push(putNew(clientItem(client), table), putNew(clientEmailItem(client), table));
          }
          const invoiceId = claim(invoiceIds, items);
          const invoice = buildInvoice(input, client, { invoiceId, referenceCode: generateReferenceCode() }, account.currency, now);
          actions.push(putNew(invoiceHeaderItem(invoice), table), putNew(invoiceBodyItem(invoice.details), table));
          if (merchantRefKey) {
            actions.push(putNew({ ...merchantRefKey, entity: 'merchant_ref', company_id: companyId, reference_code: invoice.details.referenceCode }, table));
          }
          for (const id of claimed) if (id.action) actions.push(id.action);
          return { actions, response: storedSuccess(201, INVOICE_CREATED, invoiceView(invoice, { withClient: true })) };
        },
      },
      context.idempotencyKey === undefined ? undefined : idempotencyRequest(companyId, 'add-invoice', context.idempotencyKey, input),
    );
  } finally {
    invoiceIds.release(); clientIds.release();
  }
}
