import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { attemptsOf, retryDelayMs as delayAfter, WEBHOOK_RETRY_SCHEDULE } from '../../shared/domain/retry-schedule.ts';
import { EVENT_ID_PATTERN, invoiceCreatedEvents, paymentEvents } from '../../shared/domain/webhook-events.ts';

const MAX_ATTEMPTS = attemptsOf(WEBHOOK_RETRY_SCHEDULE);
const retryDelayMs = (attemptsMade: number, baseMs?: number) =>
  delayAfter(WEBHOOK_RETRY_SCHEDULE, attemptsMade, baseMs);

import {
  formatSecret,
  secretKeyBytes,
  signWebhook,
  verifySignature,
  webhookHeaders,
} from '../../shared/domain/webhook-signature.ts';
import { addressProblem, parseIpv6, parseWebhookUrl } from '../../shared/domain/webhook-url-policy.ts';

const deployed = { allowLoopback: false };
const local = { allowLoopback: true };
let counter = 0;
const context = {
  companyId: 7,
  createdAt: '2026-11-22 10:00:00',
  newUlid: () => `01JD000000000000000000${String(counter++).padStart(4, '0')}`,
};

describe('event bodies', () => {
  it('invoice.created carries the add-invoice response data as is', () => {
    // Prepare
    const data = { id: 1, reference_code: 'abc', client: { id: 2 } };
    // Act
    const [event, ...rest] = invoiceCreatedEvents(data, context);
    // Assess
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ type: 'invoice.created', created_at: '2026-11-22 10:00:00', company_id: '7' });
    expect(event!.data).toBe(data);
    expect(event!.id).toMatch(EVENT_ID_PATTERN);
  });

  it('a payment that does not settle the invoice is payment.recorded only', () => {
    // Prepare
    const data = { id: 3, client: { id: 2 }, invoice: { id: 1, payment_status: 'partially_paid', amount_due: '5.00' } };
    // Act
    const events = paymentEvents({ settles: false }, data, context);
    // Assess
    expect(events.map((e) => e.type)).toEqual(['payment.recorded']);
    expect(events[0]!.data).toBe(data);
  });

  it('the payment that settles the invoice adds invoice.paid: the invoice with client, under its own id', () => {
    // Prepare
    const client = { id: 2, email: 'a@b.co' };
    const invoice = { id: 1, payment_status: 'paid', amount_due: '0.00' };
    // Act
    const events = paymentEvents({ settles: true }, { id: 3, client, invoice }, context);
    // Assess
    expect(events.map((e) => e.type)).toEqual(['payment.recorded', 'invoice.paid']);
    expect(events[1]!.data).toEqual({ ...invoice, client });
    expect(events[0]!.id).not.toBe(events[1]!.id);
  });
});

describe('Standard Webhooks signature', () => {
  const secret = formatSecret(Buffer.alloc(32, 7));

  it('matches the published test vector of the Standard Webhooks spec', () => {
    // Prepare: the example of the standardwebhooks reference libraries
    const key = secretKeyBytes('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    // Act
    const signature = signWebhook(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    // Assess
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('any id, timestamp and body verify with the standardwebhooks library, and a changed body does not', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string(),
        fc.string({ minLength: 1 }),
        (keyBytes, body, suffix) => {
          // Prepare
          const whsec = formatSecret(keyBytes);
          const timestamp = Math.floor(Date.now() / 1000);
          const headers = webhookHeaders(secretKeyBytes(whsec), 'evt_01JD0000000000000000000000', timestamp, body);
          const receiver = new Webhook(whsec);
          // Act / Assess
          expect(() => receiver.verify(body, headers, { jsonParse: false })).not.toThrow();
          expect(() => receiver.verify(body + suffix, headers, { jsonParse: false })).toThrow(/signature/i);
          expect(
            verifySignature(keyBytes, headers['webhook-id']!, timestamp, body, headers['webhook-signature']!),
          ).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('a secret is whsec_ + base64 of the key bytes, and round-trips', () => {
    // Act
    const bytes = secretKeyBytes(secret);
    // Assess
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(bytes).toEqual(Buffer.alloc(32, 7));
    expect(() => secretKeyBytes('sk_nope')).toThrow();
  });
});

describe('retry schedule', () => {
  it('is about 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then nothing (8 attempts, docs/webhooks.md)', () => {
    // Act: well past the end of the schedule, with the default base
    const delays = Array.from({ length: 12 }, (_, i) => retryDelayMs(i + 1));
    // Assess
    const minute = 60_000;
    expect(delays).toEqual([
      minute,
      5 * minute,
      30 * minute,
      120 * minute,
      300 * minute,
      600 * minute,
      600 * minute,
      ...Array(5).fill(undefined),
    ]);
    expect(retryDelayMs(MAX_ATTEMPTS)).toBeUndefined(); // the last attempt is the 8th
  });

  it('scales with the base: every delay is a fixed multiple of the first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }),
        (base, attempt) => {
          expect(retryDelayMs(attempt, base)! / retryDelayMs(1, base)!).toBe(retryDelayMs(attempt)! / retryDelayMs(1)!);
          expect(retryDelayMs(attempt + 1, base) ?? Infinity).toBeGreaterThanOrEqual(retryDelayMs(attempt, base)!);
        },
      ),
    );
  });
});

describe('address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.1', 'multicast or reserved'],
    ['255.255.255.255', 'multicast or reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00::1', 'private'],
    ['fc12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:0101::1', 'private'],
  ])('refuses %s (%s)', (address, problem) => {
    expect(addressProblem(address, deployed)).toBe(problem);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows %s',
    (address) => {
      expect(addressProblem(address, deployed)).toBeUndefined();
    },
  );

  it('allows loopback only when the local switch is on', () => {
    expect(addressProblem('127.0.0.1', local)).toBeUndefined();
    expect(addressProblem('::1', local)).toBeUndefined();
    expect(addressProblem('::ffff:127.0.0.1', local)).toBeUndefined();
    expect(addressProblem('10.0.0.1', local)).toBe('private');
  });

  it('parses every IPv4-mapped form to the same bytes as the IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
        const hex = `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(parseIpv6(`::ffff:${v4}`)).toEqual(parseIpv6(hex));
        expect(addressProblem(`::ffff:${v4}`, deployed)).toBe(addressProblem(v4, deployed));
      }),
    );
  });

  it('parses any valid IPv6 text to 16 bytes', () => {
    fc.assert(
      fc.property(fc.ipV6(), (v6) => {
        expect(parseIpv6(v6)).toHaveLength(16);
      }),
    );
  });
});

describe('endpoint URLs', () => {
  it.each([
    ['https://example.com/hooks', 'https://example.com/hooks'],
    ['https://Example.COM:8443/a?b=c', 'https://example.com:8443/a?b=c'],
    ['https://93.184.216.34/x', 'https://93.184.216.34/x'],
  ])('deployed accepts %s', (input, normalised) => {
    expect(parseWebhookUrl(input, deployed)).toEqual({ ok: true, value: normalised });
  });

  it.each([
    ['http://example.com/hooks', 'must use https'],
    ['ftp://example.com/', 'must use https'],
    ['https://localhost/x', 'localhost'],
    ['https://api.localhost/x', 'localhost'],
    ['http://127.0.0.1:3000/x', 'must use https'],
    ['https://127.0.0.1/x', 'loopback'],
    ['https://10.0.0.1/x', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[::1]/x', 'loopback'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['https://[fe80::1]/x', 'link-local'],
    ['https://0x7f000001/x', 'loopback'], // the URL parser reads this as 127.0.0.1
    ['https://2130706433/x', 'loopback'],
    ['https://intranet/x', 'fully qualified'],
    ['https://user:pw@example.com/x', 'user name'],
    ['https://example.com/x#frag', 'fragment'],
    ['not a url', 'absolute URL'],
  ])('deployed refuses %s', (input, reason) => {
    const result = parseWebhookUrl(input, deployed);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(reason);
  });

  it.each(['http://127.0.0.1:3999/hook', 'http://localhost:3999/hook', 'https://localhost:8443/'])(
    'the local runtime also accepts %s',
    (input) => {
      expect(parseWebhookUrl(input, local).ok).toBe(true);
    },
  );

  it('the local runtime still refuses plain http to other hosts and private addresses', () => {
    expect(parseWebhookUrl('http://example.com/', local).ok).toBe(false);
    expect(parseWebhookUrl('http://10.0.0.1/', local).ok).toBe(false);
    expect(parseWebhookUrl('https://192.168.0.1/', local).ok).toBe(false);
  });
});
