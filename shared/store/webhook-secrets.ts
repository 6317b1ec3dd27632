/**
 * Sealing of webhook signing secrets (docs/webhooks.md "How the secret is protected"): the table
 * holds only a sealed copy, so a table dump (or a backup, or a stream reader) alone cannot forge
 * signatures.
 *
 * - Deployed (WEBHOOK_KMS_KEY_ID set): KMS Encrypt/Decrypt with an encryption context naming the
 *   account, so a sealed secret copied to another account's item does not open.
 * - Local (no KMS key): AES-256-GCM with a 32-byte key file `DATA_DIR/webhook-sealing.key`
 *   (created 0600 on first use; `npm start` and the CLI share DATA_DIR), the account as associated data.
 *
 * A sealed value starts with one format byte: 1 = KMS ciphertext blob, 2 = local AES-GCM
 * (12-byte IV, 16-byte tag, ciphertext).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../config.ts';

const KMS_FORMAT = 1;
const LOCAL_FORMAT = 2;
export const LOCAL_KEY_FILE = 'webhook-sealing.key';

/**
 * What a sealed secret is for: part of its encryption context (KMS) or associated data (local), so a secret sealed
 * for one purpose never opens as another (docs/getting-paid-online.md "Connecting Paystack" seals Paystack's keys
 * this way too).
 */
export type SealingPurpose = 'webhook-signing-secret' | 'paystack-secret-key' | 'paystack-authorization';

const context = (companyId: number, purpose: SealingPurpose = 'webhook-signing-secret') => ({
  purpose,
  company_id: String(companyId),
});

let kmsClient: import('@aws-sdk/client-kms').KMSClient | undefined;
async function kms() {
  const { KMSClient } = await import('@aws-sdk/client-kms');
  kmsClient ??= new KMSClient({ region: loadConfig().region, maxAttempts: 3 });
  return { client: kmsClient, sdk: await import('@aws-sdk/client-kms') };
}

function localKeyPath(): string {
  return join(resolve(loadConfig().dataDir), LOCAL_KEY_FILE);
}

function localKey(create: boolean): Buffer {
  const path = localKeyPath();
  try {
    const key = readFileSync(path);
    if (key.length !== 32) throw new Error(`${path} must hold 32 bytes.`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw error;
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, randomBytes(32), { flag: 'wx', mode: 0o600 });
      chmodSync(path, 0o600);
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
    }
    return localKey(false);
  }
}

/**
 * Seals the raw secret bytes of one account's endpoint (or, with another purpose and KMS key, another of its
 * secrets). `kmsKeyId` unset: the local sealing key.
 */
export async function sealSecret(
  companyId: number,
  secret: Uint8Array,
  purpose: SealingPurpose = 'webhook-signing-secret',
  kmsKeyId: string | undefined = loadConfig().webhookKmsKeyId,
): Promise<Uint8Array> {
  if (kmsKeyId) {
    const { client, sdk } = await kms();
    const out = await client.send(
      new sdk.EncryptCommand({ KeyId: kmsKeyId, Plaintext: secret, EncryptionContext: context(companyId, purpose) }),
    );
    return Buffer.concat([Buffer.from([KMS_FORMAT]), Buffer.from(out.CiphertextBlob!)]);
  }
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', localKey(true), iv);
  cipher.setAAD(Buffer.from(JSON.stringify(context(companyId, purpose))));
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return Buffer.concat([Buffer.from([LOCAL_FORMAT]), iv, cipher.getAuthTag(), ciphertext]);
}

/** Opens a sealed secret; throws when it does not belong to `companyId` and `purpose` or was tampered with. */
export async function unsealSecret(
  companyId: number,
  sealed: Uint8Array,
  purpose: SealingPurpose = 'webhook-signing-secret',
): Promise<Buffer> {
  const bytes = Buffer.from(sealed);
  if (bytes[0] === KMS_FORMAT) {
    const { client, sdk } = await kms();
    const out = await client.send(
      new sdk.DecryptCommand({ CiphertextBlob: bytes.subarray(1), EncryptionContext: context(companyId, purpose) }),
    );
    return Buffer.from(out.Plaintext!);
  }
  if (bytes[0] !== LOCAL_FORMAT) throw new Error('Unknown sealed secret format.');
  const decipher = createDecipheriv('aes-256-gcm', localKey(false), bytes.subarray(1, 13));
  decipher.setAAD(Buffer.from(JSON.stringify(context(companyId, purpose))));
  decipher.setAuthTag(bytes.subarray(13, 29));
  return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
}

/** Unsealed secrets kept briefly in a warm deliverer (keyed by the sealed bytes, so a rotation is never stale). */
const cache = new Map<string, { secret: Buffer; until: number }>();
export const SECRET_CACHE_MS = 5 * 60_000;

export async function unsealSecretCached(
  companyId: number,
  sealed: Uint8Array,
  now = Date.now(),
  purpose: SealingPurpose = 'webhook-signing-secret',
): Promise<Buffer> {
  const id = `${purpose}:${companyId}:${createHash('sha256').update(sealed).digest('base64')}`;
  const hit = cache.get(id);
  if (hit && hit.until > now) return hit.secret;
  const secret = await unsealSecret(companyId, sealed, purpose);
  if (cache.size > 1000) cache.clear();
  cache.set(id, { secret, until: now + SECRET_CACHE_MS });
  return secret;
}
