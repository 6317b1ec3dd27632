/**
 * Sealing of webhook secrets: the local AES-256-GCM key file, and the KMS path against a small fake
 * of the KMS JSON API on 127.0.0.1 (AWS_ENDPOINT_URL_KMS), which checks the key id and binds the
 * ciphertext to the encryption context as KMS does.
 */

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentRestorer } from '../../infra/tools/environment.ts';
import { resetConfig } from '../../shared/config.ts';
import { LOCAL_KEY_FILE, sealSecret, unsealSecret, unsealSecretCached } from '../../shared/store/webhook-secrets.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-sealing-'));
const KEY_ID = 'arn:aws:kms:eu-west-1:111122223333:key/test-webhooks';
const fakeKey = randomBytes(32);
const calls: { target: string; body: Record<string, any> }[] = [];
let server: Server;

/** Encrypt/Decrypt of the KMS JSON 1.1 protocol; the context is the AES-GCM associated data, as KMS binds it. */
function fakeKms(target: string, body: Record<string, any>): [number, Record<string, unknown>] {
  const aad = Buffer.from(JSON.stringify(Object.entries(body.EncryptionContext ?? {}).sort()));
  if (target === 'TrentService.Encrypt') {
    if (body.KeyId !== KEY_ID) return [400, { __type: 'NotFoundException', message: 'no such key' }];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', fakeKey, iv).setAAD(aad);
    const blob = Buffer.concat([
      iv,
      cipher.update(Buffer.from(body.Plaintext, 'base64')),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return [200, { CiphertextBlob: blob.toString('base64'), KeyId: KEY_ID }];
  }
  if (target === 'TrentService.Decrypt') {
    const blob = Buffer.from(body.CiphertextBlob, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', fakeKey, blob.subarray(0, 12)).setAAD(aad);
      decipher.setAuthTag(blob.subarray(-16));
      const plain = Buffer.concat([decipher.update(blob.subarray(12, -16)), decipher.final()]);
      return [200, { Plaintext: plain.toString('base64'), KeyId: KEY_ID }];
    } catch {
      return [400, { __type: 'InvalidCiphertextException', message: 'context mismatch' }];
    }
  }
  return [400, { __type: 'UnknownOperationException' }];
}

const restoreEnvironment = environmentRestorer(['DATA_DIR', 'AWS_ENDPOINT_URL_KMS', 'WEBHOOK_KMS_KEY_ID']);
beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const target = String(request.headers['x-amz-target']);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      calls.push({ target, body });
      const [status, answer] = fakeKms(target, body);
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.DATA_DIR = dataDir;
  process.env.AWS_ENDPOINT_URL_KMS = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  resetConfig(); // the configuration is read once per process
});
afterAll(async () => {
  restoreEnvironment();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('local sealing (no KMS key)', () => {
  it('round-trips, creates a 0600 key file, and refuses another account or a tampered value', async () => {
    // Prepare
    delete process.env.WEBHOOK_KMS_KEY_ID;
    resetConfig(); // the configuration is read once per process
    const secret = randomBytes(32);
    // Act
    const sealed = Buffer.from(await sealSecret(7, secret));
    // Assess
    expect(sealed[0]).toBe(2);
    expect(sealed.includes(secret)).toBe(false);
    expect(statSync(join(dataDir, LOCAL_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(await unsealSecret(7, sealed)).toEqual(secret);
    await expect(unsealSecret(8, sealed)).rejects.toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    await expect(unsealSecret(7, tampered)).rejects.toThrow();
  });
});

describe('KMS sealing (WEBHOOK_KMS_KEY_ID set)', () => {
  it('encrypts with the key and an account context; decrypts only for that account; caches the plaintext briefly', async () => {
    // Prepare
    process.env.WEBHOOK_KMS_KEY_ID = KEY_ID;
    resetConfig(); // the configuration is read once per process
    const secret = randomBytes(32);
    // Act
    const sealed = Buffer.from(await sealSecret(42, secret));
    // Assess
    expect(sealed[0]).toBe(1);
    expect(sealed.includes(secret)).toBe(false);
    expect(calls.at(-1)).toMatchObject({
      target: 'TrentService.Encrypt',
      body: { KeyId: KEY_ID, EncryptionContext: { purpose: 'webhook-signing-secret', company_id: '42' } },
    });
    expect(await unsealSecret(42, sealed)).toEqual(secret);
    expect(calls.at(-1)!.target).toBe('TrentService.Decrypt');
    await expect(unsealSecret(43, sealed)).rejects.toThrow(/context mismatch|InvalidCiphertext/);

    const before = calls.length;
    expect(await unsealSecretCached(42, sealed)).toEqual(secret);
    expect(await unsealSecretCached(42, sealed)).toEqual(secret);
    expect(calls.length).toBe(before + 1);
  });
});
