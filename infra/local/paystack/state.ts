/**
 * The local Paystack server's state (docs/paystack-local.md "State"): every integration with its customers,
 * transactions, authorizations, refunds, dedicated accounts and webhook deliveries, in one JSON file under the data
 * directory. Each change is written whole before the request that made it is answered (a temporary file, flushed,
 * then renamed), so a restart or a crash finds either the old state or the new one.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export type Domain = 'test' | 'live';
export type TransactionStatus = 'success' | 'failed' | 'abandoned' | 'ongoing' | 'reversed';
export type RefundStatus = 'pending' | 'processing' | 'processed' | 'failed';
export type DeliveryStatus = 'held' | 'pending' | 'delivered' | 'failed' | 'dropped' | 'skipped';
export type Json = Record<string, unknown>;

export interface Customer {
  id: number;
  customer_code: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  metadata: unknown;
  created_at: string;
  updated_at: string;
}

/** An authorization as Paystack shows it (`authorization` of a transaction), with the customer it belongs to. */
export interface Authorization {
  customer_id: number;
  data: Json & { authorization_code: string; reusable: boolean; signature: string | null };
}

export interface Transaction {
  id: number;
  reference: string;
  access_code: string | null;
  amount: number;
  currency: string;
  customer_id: number;
  status: TransactionStatus;
  gateway_response: string;
  message: string | null;
  channel: string;
  metadata: unknown;
  ip_address: string | null;
  callback_url: string | null;
  channels: string[] | null;
  /** The authorization as it was when the transaction was paid (a transfer's carries its sender). */
  authorization: Authorization['data'] | null;
  fees: number | null;
  created_at: string;
  paid_at: string | null;
}

export interface Refund {
  id: number;
  transaction_id: number;
  amount: number;
  currency: string;
  status: RefundStatus;
  refund_reference: string | null;
  merchant_note: string;
  customer_note: string;
  created_at: string;
  updated_at: string;
  refunded_at: string | null;
  expected_at: string;
  /** When the refund moves from pending to processed (epoch ms). */
  process_at: number;
}

export interface DedicatedAccount {
  id: number;
  customer_id: number;
  bank_slug: string;
  account_name: string;
  account_number: string;
  active: boolean;
  created_at: string;
  updated_at: string;
}

export interface Delivery {
  id: number;
  event: string;
  reference: string | null;
  /** The exact bytes sent (and signed), the same on every attempt and every copy. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (epoch ms); null unless pending. */
  due_at: number | null;
  created_at: string;
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
}

export interface WebhookKnobs {
  /** Extra copies of each event. */
  duplicate: number;
  /** Wait before an event's first attempt. */
  delay_ms: number;
  /** Hold events until `count` are held, then release them in this order. */
  reorder: { count: number; order: 'reverse' | 'shuffle' } | null;
  /** Lose the next `count` events, or each with this probability. */
  drop: { count: number } | { probability: number } | null;
}

export interface ApiMode {
  mode: 'up' | 'unavailable' | 'hang' | 'slow';
  delay_ms: number;
  /** How many more API requests the mode applies to; null: until changed. */
  remaining: number | null;
}

export interface Integration {
  id: number;
  secret_key: string;
  domain: Domain;
  business_name: string;
  webhook_url: string | null;
  callback_url: string | null;
  knobs: WebhookKnobs;
  api: ApiMode;
  /** Charges of an authorization to decline next, by authorization code. */
  declines: Record<string, number>;
  customers: Customer[];
  transactions: Transaction[];
  authorizations: Authorization[];
  refunds: Refund[];
  dedicated_accounts: DedicatedAccount[];
  deliveries: Delivery[];
}

const FIRST_IDS = {
  integration: 100_001,
  customer: 180_000_001,
  transaction: 4_000_000_001,
  refund: 3_000_001,
  dedicated_account: 250_001,
  delivery: 1,
  account_number: 9_930_000_001,
};
export type Sequence = keyof typeof FIRST_IDS;

interface PaystackState {
  version: 1;
  sequences: Record<Sequence, number>;
  integrations: Record<string, Integration>;
}

export const STATE_FILE = 'paystack-state.json';
export const NO_KNOBS: WebhookKnobs = { duplicate: 0, delay_ms: 0, reorder: null, drop: null };
export const API_UP: ApiMode = { mode: 'up', delay_ms: 0, remaining: null };

export class StateFile {
  private readonly path: string;
  private readonly state: PaystackState;
  private closed = false;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, STATE_FILE);
    this.state = existsSync(this.path)
      ? readState(this.path)
      : { version: 1, sequences: { ...FIRST_IDS }, integrations: {} };
  }

  /** Writes the whole state: a temporary file, flushed, renamed over the old one. Nothing once closed. */
  save(): void {
    if (this.closed) return;
    const temporary = `${this.path}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, JSON.stringify(this.state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
  }

  /** A stopped server writes nothing more: another may have the directory by then. */
  close(): void {
    this.closed = true;
  }

  next(sequence: Sequence): number {
    const value = this.state.sequences[sequence];
    this.state.sequences[sequence] = value + 1;
    return value;
  }

  integrations(): Integration[] {
    return Object.values(this.state.integrations);
  }

  /** The integration of a secret key, created (and saved) on first use, as a new Paystack account would be. */
  integration(secretKey: string): Integration {
    const known = this.state.integrations[secretKey];
    if (known) return known;
    const created: Integration = {
      id: this.next('integration'),
      secret_key: secretKey,
      domain: secretKey.startsWith('sk_live_') ? 'live' : 'test',
      business_name: 'PAYSTACK',
      webhook_url: null,
      callback_url: null,
      knobs: { ...NO_KNOBS },
      api: { ...API_UP },
      declines: {},
      customers: [],
      transactions: [],
      authorizations: [],
      refunds: [],
      dedicated_accounts: [],
      deliveries: [],
    };
    this.state.integrations[secretKey] = created;
    this.save();
    return created;
  }
}

function readState(path: string): PaystackState {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PaystackState;
  } catch (error) {
    throw new Error(`Local Paystack: ${path} is not a state file this server wrote; move it away to start afresh.`, {
      cause: error,
    });
  }
}
