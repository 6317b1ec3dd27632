/**
 * What the control endpoints take (docs/paystack-local.md "Control endpoints"), checked: an integration's settings,
 * its webhook knobs, its API mode, a count of declines. A wrong value is refused with 400 and what was expected.
 */
import { type Fields, invalid } from './http.ts';
import { API_UP, type ApiMode, type Integration, type Json, NO_KNOBS, type WebhookKnobs } from './state.ts';

const HOUR_MS = 60 * 60 * 1000;

export function integrationView(integration: Integration): Json {
  const { id, domain, business_name, webhook_url, callback_url, knobs, api } = integration;
  return { id, domain, business_name, webhook_url, callback_url, knobs, api };
}

function wholeNumber(value: unknown, name: string, max: number): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (!Number.isInteger(number) || (number as number) < 0 || (number as number) > max)
    throw invalid(`${name} must be a whole number from 0 to ${max}`);
  return number as number;
}

function urlOrNull(value: unknown, name: string): string | null {
  if (value === null || value === '') return null;
  if (typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)) return value;
  throw invalid(`${name} must be an http(s) URL or null`);
}

/** The settings a `POST /_local/integration` changes; those it leaves out stay as they are. */
export function settingsFrom(fields: Fields): Partial<Integration> {
  const settings: Partial<Integration> = {};
  if ('webhook_url' in fields) settings.webhook_url = urlOrNull(fields.webhook_url, 'webhook_url');
  if ('callback_url' in fields) settings.callback_url = urlOrNull(fields.callback_url, 'callback_url');
  if ('business_name' in fields) {
    if (typeof fields.business_name !== 'string' || fields.business_name.trim() === '')
      throw invalid('business_name must be a non-empty string');
    settings.business_name = fields.business_name.trim();
  }
  return settings;
}

function reorderFrom(value: unknown): WebhookKnobs['reorder'] {
  if (value === null || value === false) return null;
  const given = (typeof value === 'object' ? value : {}) as { count?: unknown; order?: unknown };
  const order = given.order ?? 'reverse';
  if (order !== 'reverse' && order !== 'shuffle') throw invalid('reorder.order must be "reverse" or "shuffle"');
  const count = wholeNumber(given.count ?? 2, 'reorder.count', 1000);
  if (count < 1) throw invalid('reorder.count must be at least 1');
  return { count, order };
}

function dropFrom(value: unknown): WebhookKnobs['drop'] {
  if (value === null || value === false) return null;
  const given = (typeof value === 'object' ? value : { count: value }) as { count?: unknown; probability?: unknown };
  if (given.probability !== undefined) {
    const p = given.probability;
    if (typeof p !== 'number' || p < 0 || p > 1) throw invalid('drop.probability must be a number from 0 to 1');
    return { probability: p };
  }
  const count = wholeNumber(given.count, 'drop.count', 1_000_000);
  return count === 0 ? null : { count };
}

/** The knobs after a `POST /_local/webhook-knobs`: `{"reset":true}` clears them; each field given replaces its own. */
export function knobsFrom(current: WebhookKnobs, fields: Fields): WebhookKnobs {
  const knobs = fields.reset === true ? { ...NO_KNOBS } : { ...current };
  if ('duplicate' in fields) knobs.duplicate = wholeNumber(fields.duplicate, 'duplicate', 10);
  if ('delay_ms' in fields) knobs.delay_ms = wholeNumber(fields.delay_ms, 'delay_ms', HOUR_MS);
  if ('reorder' in fields) knobs.reorder = reorderFrom(fields.reorder);
  if ('drop' in fields) knobs.drop = dropFrom(fields.drop);
  return knobs;
}

/** `{"mode":"up"|"unavailable"|"hang"|"slow","delay_ms":N,"count":N}`: `count` requests, or until changed. */
export function apiModeFrom(fields: Fields): ApiMode {
  const mode = fields.mode;
  if (mode !== 'up' && mode !== 'unavailable' && mode !== 'hang' && mode !== 'slow')
    throw invalid('mode must be "up", "unavailable", "hang" or "slow"');
  if (mode === 'up') return { ...API_UP };
  const delayMs = mode === 'slow' ? wholeNumber(fields.delay_ms ?? 6000, 'delay_ms', HOUR_MS) : 0;
  const count = fields.count === undefined ? null : wholeNumber(fields.count, 'count', 1_000_000);
  if (count === 0) throw invalid('count must be at least 1 (leave it out for "until changed")');
  return { mode, delay_ms: delayMs, remaining: count };
}

export function declineCount(fields: Fields): number {
  const count = wholeNumber(fields.count ?? 1, 'count', 1_000_000);
  if (count < 1) throw invalid('count must be at least 1');
  return count;
}
