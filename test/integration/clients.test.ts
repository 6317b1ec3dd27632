/** docs/api.md "Clients": create, read, list, update and (soft) delete, with e-mail uniqueness per account. */
import { describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { call, invoiceBody, newAccount, uniqueEmail } from '../support/api.ts';

const clientFields = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Albert',
  last_name: 'Jane',
  email: uniqueEmail(),
  phone: '+2348012345678',
  company_name: 'Albert Specialist Hospital',
  ...overrides,
});
const byId = (id: unknown) => ({ pathParameters: { id: String(id) } });
/** Control characters mail software drops or rewrites: NUL, BS, ESC, DEL and two of C1 (NEL, APC). */
const CONTROL_CHARACTERS = ['\u0000', '\b', '\u001b', '\u007f', '\u0085', '\u009f'];

describe('POST /clients', () => {
  it('creates a client (201) and answers an existing email, in any case, with that client unchanged (200)', async () => {
    const { key, account } = await newAccount();
    const fields = clientFields();
    const created = await call('add-client', { key, body: fields });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Client created successfully.');
    expect(created.body.data).toMatchObject({
      company_id: account.companyId,
      name: 'Albert Specialist Hospital',
      company_name: 'Albert Specialist Hospital',
      first_name: 'Albert',
      email: fields.email,
      type: 'Customer',
      status: '1',
      deleted_at: null,
    });
    const again = await call('add-client', {
      key,
      body: { ...fields, email: fields.email.toUpperCase(), first_name: 'X' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'success', message: 'Client already exist.', data: created.body.data });
  });

  it('keeps the website it is given (the SDKs send one; the interface shows it), on create, update and invoices', async () => {
    const { key } = await newAccount();
    const created = await call('add-client', { key, body: clientFields({ website: ' https://hospital.example ' }) });
    expect(created.body.data.website).toBe('https://hospital.example');
    const unset = await call('add-client', { key, body: clientFields({ website: null }) });
    expect(unset.body.data.website).toBe('');

    const updated = await call('update-client', {
      key,
      ...byId(created.body.data.id),
      body: { website: 'https://new.example', address: null },
    });
    expect(updated.body.data).toMatchObject({ website: 'https://new.example', name: 'Albert Specialist Hospital' });
    const nulled = await call('update-client', { key, ...byId(created.body.data.id), body: { website: null } });
    expect(nulled.body.data.website).toBe('https://new.example');

    const invoice = await call('add-invoice', {
      key,
      body: invoiceBody({ client: { ...clientFields(), website: 'https://client.example' } }),
    });
    expect(invoice.body.data.client.website).toBe('https://client.example');
    const { client: _nested, ...withoutClient } = invoiceBody();
    const flat = await call('add-invoice', {
      key,
      body: { ...withoutClient, ...clientFields(), website: 'https://flat.example' },
    });
    expect(flat.body.data.client.website).toBe('https://flat.example');
    const tooLong = await call('add-client', { key, body: clientFields({ website: 'x'.repeat(10_000) }) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].field).toBe('website');
  });

  it('validates the fields as add invoice does (400 naming each field)', async () => {
    const { key } = await newAccount();
    const result = await call('add-client', { key, body: { first_name: 'A', email: 'not-an-email', phone: '12' } });
    expect(result.status).toBe(400);
    expect(result.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'last_name', 'phone']);
  });

  it('refuses an e-mail address with a control character in it, on create and on update (400 naming `email`)', async () => {
    const { key } = await newAccount();
    const client = (await call('add-client', { key, body: clientFields() })).body.data;
    for (const control of CONTROL_CHARACTERS) {
      const email = `ct${control}rl@example.com`;
      const created = await call('add-client', { key, body: clientFields({ email }) });
      const updated = await call('update-client', { key, ...byId(client.id), body: { email } });
      for (const result of [created, updated]) {
        expect(result.status, JSON.stringify(control)).toBe(400);
        expect(result.body).toMatchObject({
          code: 'validation_failed',
          errors: [{ code: 'invalid_email', field: 'email' }],
        });
      }
    }
    expect((await call('get-client', { key, ...byId(client.id) })).body.data).toEqual({ ...client, cards: [] });
  });

  it('replays with the same Idempotency-Key and refuses the key with another body (422)', async () => {
    const { key } = await newAccount();
    const fields = clientFields();
    const first = await call('add-client', { key, body: fields, idempotencyKey: 'client-1' });
    const replay = await call('add-client', { key, body: fields, idempotencyKey: 'client-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await call('add-client', { key, body: clientFields(), idempotencyKey: 'client-1' });
    expect(reused.status).toBe(422);
  });

  it('creates one client when the same email is posted concurrently', async () => {
    const { key } = await newAccount();
    const fields = clientFields();
    const results = await Promise.all(Array.from({ length: 6 }, () => call('add-client', { key, body: fields })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
  });
});

describe('round trips of the client writes', () => {
  it('add, update and delete read the client with its credit and virtual account: two round trips each', async () => {
    const { key } = await newAccount();
    await call('list-clients', { key }); // the key's first use reads the key and its account: not the routes' cost
    const commandsOf = async (route: Parameters<typeof call>[0], options: Parameters<typeof call>[1]) => {
      const commands: string[] = [];
      const remove = dynamoHooks.add({ before: (c) => void commands.push(c.command) });
      try {
        const answer = await call(route, { key, ...options });
        expect(answer.status, answer.rawBody).toBeLessThan(300);
        expect(answer.body.data).toMatchObject({ credit_balance: '0.00', virtual_account: null });
        return { commands, data: answer.body.data };
      } finally {
        remove();
      }
    };
    const added = await commandsOf('add-client', { body: clientFields() });
    const id = String(added.data.id);
    const updated = await commandsOf('update-client', { pathParameters: { id }, body: { first_name: 'Renamed' } });
    const deleted = await commandsOf('delete-client', { pathParameters: { id } });
    for (const { commands } of [added, updated, deleted])
      expect(commands).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand']);
  });
});

describe('GET /clients and GET /clients/{id}', () => {
  it('lists live clients newest first, paginated with limit and cursor, never another account’s', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    await call('add-client', { key: other.key, body: clientFields() });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call('add-client', { key, body: clientFields() })).body.data.id);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('list-clients', { key, query: { limit: '2', ...(cursor ? { cursor } : {}) } });
      expect(page.status).toBe(200);
      expect(page.body.data.clients.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.clients.map((c: { id: number }) => c.id));
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('refuses a cursor of another listing or account (400 invalid_cursor) and a bad limit (400)', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    for (let i = 0; i < 2; i++) await call('add-client', { key: other.key, body: clientFields() });
    const theirs = await call('list-clients', { key: other.key, query: { limit: '1' } });
    const stolen = await call('list-clients', { key, query: { cursor: theirs.body.data.next_cursor } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe('invalid_cursor');
    expect((await call('list-clients', { key, query: { limit: '501' } })).status).toBe(400);
  });

  it('reads one client; another account’s, an unknown id and a non-numeric id are 404 client_not_found', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const mine = (await call('add-client', { key, body: clientFields() })).body.data;
    // Ids are per account: the other account's third client has an id this account has not used.
    let theirs: { id: number } = { id: 0 };
    for (let i = 0; i < 3; i++) theirs = (await call('add-client', { key: other.key, body: clientFields() })).body.data;
    expect(theirs.id).not.toBe(mine.id);
    const read = await call('get-client', { key, ...byId(mine.id) });
    expect(read.status).toBe(200);
    // GET /clients/{id} adds the client's saved cards (docs/getting-paid-online.md "Saved cards").
    expect(read.body.data).toEqual({ ...mine, cards: [] });
    for (const id of [theirs.id, 999999, 'abc']) {
      const result = await call('get-client', { key, ...byId(id) });
      expect(result.status, String(id)).toBe(404);
      expect(result.body.code).toBe('client_not_found');
    }
  });
});

describe('PUT /clients/{id}', () => {
  it('changes the given fields only, and moves the email (the old one is free, the new one found by invoices)', async () => {
    const { key } = await newAccount();
    const client = (await call('add-client', { key, body: clientFields() })).body.data;
    const newEmail = uniqueEmail();
    const updated = await call('update-client', {
      key,
      ...byId(client.id),
      body: { last_name: 'Okafor', email: newEmail },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Client updated successfully.');
    expect(updated.body.data).toMatchObject({
      ...client,
      last_name: 'Okafor',
      email: newEmail,
      updated_at: expect.any(String),
    });
    const invoice = await call('add-invoice', {
      key,
      body: invoiceBody({ client: { ...clientFields(), email: newEmail } }),
    });
    expect(invoice.body.data.client_id).toBe(String(client.id));
    const reused = await call('add-client', { key, body: clientFields({ email: client.email }) });
    expect(reused.status).toBe(201);
  });

  it('refuses an email another live client has (409 duplicate_client_email), a bad field (400), others’ clients (404)', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const a = (await call('add-client', { key, body: clientFields() })).body.data;
    const b = (await call('add-client', { key, body: clientFields() })).body.data;
    const taken = await call('update-client', { key, ...byId(a.id), body: { email: b.email.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('duplicate_client_email');
    expect((await call('update-client', { key, ...byId(a.id), body: { phone: 'x' } })).status).toBe(400);
    const foreign = await call('update-client', { key: other.key, ...byId(a.id), body: { first_name: 'Eve' } });
    expect(foreign.status).toBe(404);
    expect((await call('get-client', { key, ...byId(a.id) })).body.data).toEqual({ ...a, cards: [] });
  });
});

describe('concurrent changes of one client', () => {
  it('six updates racing to six emails: the client ends with one of them, and only that email stays taken', async () => {
    const { key } = await newAccount();
    const client = (await call('add-client', { key, body: clientFields() })).body.data;
    const emails = Array.from({ length: 6 }, () => uniqueEmail());
    const results = await Promise.all(
      emails.map((email) => call('update-client', { key, ...byId(client.id), body: { email } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = (await call('get-client', { key, ...byId(client.id) })).body.data.email;
    expect(emails).toContain(final);
    for (const email of [client.email, ...emails]) {
      const probe = await call('add-client', { key, body: clientFields({ email }) });
      expect(probe.status, email).toBe(email === final ? 200 : 201);
    }
  });

  it('a delete racing updates: the client ends deleted with its email free, or updated and live — never half', async () => {
    const { key } = await newAccount();
    const client = (await call('add-client', { key, body: clientFields() })).body.data;
    const newEmail = uniqueEmail();
    const [deleted, updated] = await Promise.all([
      call('delete-client', { key, ...byId(client.id) }),
      call('update-client', { key, ...byId(client.id), body: { email: newEmail } }),
    ]);
    expect(deleted.status).toBe(200);
    const state = (await call('get-client', { key, ...byId(client.id) })).body.data;
    expect(state.deleted_at).toEqual(expect.any(String));
    // Deleted last: whichever email it had is free again.
    for (const email of [client.email, newEmail])
      expect((await call('add-client', { key, body: clientFields({ email }) })).status, email).toBe(201);
    expect([200, 404]).toContain(updated.status);
  });
});

describe('DELETE /clients/{id}', () => {
  it('soft-deletes: deleted_at set, out of the list, not invoiceable by id, its email makes a new client', async () => {
    const { key } = await newAccount();
    const client = (await call('add-client', { key, body: clientFields() })).body.data;
    const deleted = await call('delete-client', { key, ...byId(client.id) });
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Client deleted successfully.');
    expect(deleted.body.data.deleted_at).toEqual(expect.any(String));
    expect((await call('delete-client', { key, ...byId(client.id) })).body).toEqual(deleted.body);
    expect((await call('get-client', { key, ...byId(client.id) })).body.data.deleted_at).toBe(
      deleted.body.data.deleted_at,
    );
    const list = await call('list-clients', { key });
    expect(list.body.data.clients.map((c: { id: number }) => c.id)).not.toContain(client.id);
    const { client: _inline, ...body } = invoiceBody();
    const byClientId = await call('add-invoice', { key, body: { ...body, client_id: client.id } });
    expect(byClientId.status).toBe(404);
    expect(byClientId.body.code).toBe('client_not_found');
    const byEmail = await call('add-invoice', {
      key,
      body: invoiceBody({ client: clientFields({ email: client.email }) }),
    });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body.data.client_id).not.toBe(String(client.id));
    expect((await call('update-client', { key, ...byId(client.id), body: { first_name: 'Z' } })).status).toBe(404);
  });
});
