/**
 * Bearer secret-key authentication (SPEC §2). A resolved key is cached in the warm function for at most
 * AUTH_CACHE_SECONDS (≤ 60), so a revoked key stops working within 60 s. Failures are never cached, and
 * every failure gets the same 401.
 */
import { invalidApiKey } from '../errors';
import { findAccountByKey, hashSecretKey, SECRET_KEY_PATTERN, type Account } from '../store/accounts';
import { loadConfig } from '../config';

const MAX_CACHED_KEYS = 1000;
const cache = new Map<string, { account: Account; expiresAt: number }>();

export function clearAuthCache(): void {
  cache.clear();
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export async function resolveAccount(authorization: string | undefined): Promise<Account> {
  const secret = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (!secret || !SECRET_KEY_PATTERN.test(secret)) throw invalidApiKey();
  const hash = hashSecretKey(secret);
  const now = Date.now();
  const cached = cache.get(hash);
  if (cached && cached.expiresAt > now) return cached.account;

  const account = await findAccountByKey(secret);
  if (!account) {
    cache.delete(hash);
    throw invalidApiKey();
  }
  const ttlMs = loadConfig().authCacheSeconds * 1000;
  if (ttlMs > 0) {
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(hash, { account, expiresAt: now + ttlMs });
  }
  return account;
}
