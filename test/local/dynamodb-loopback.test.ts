/**
 * Issue 17 §6: the unauthenticated DynamoDB Local of `npm start`, the CLI and the tests listens on 127.0.0.1
 * only (infra/local/LoopbackDynamoDbLocal.java): reachable on loopback, refused on the machine's other addresses.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';

let database: DynamoDbLocal;

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect({ host, port, timeout: 2_000 });
    const done = (result: boolean) => {
      socket.destroy();
      answer(result);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const otherAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((address) => address && !address.internal && address.family === 'IPv4')
    .map((address) => address!.address);

beforeAll(async () => {
  database = await startDynamoDbLocal();
}, 120_000);

afterAll(async () => {
  await database?.stop();
});

describe('DynamoDB Local listens on loopback only', () => {
  it('answers on 127.0.0.1', async () => {
    expect(await connects('127.0.0.1', database.port)).toBe(true);
  });

  it("refuses connections on the machine's other addresses", async () => {
    const addresses = otherAddresses();
    expect(addresses.length, 'this test needs a machine with a non-loopback IPv4 address').toBeGreaterThan(0);
    for (const address of addresses) expect(await connects(address, database.port), address).toBe(false);
  });
});
