/**
 * Sends one built MIME message with SESv2 (`SendEmail` with raw content), tagged with its mail job so that SES's
 * later reports (bounce, complaint, reject) name the job (docs/sending-invoices.md "Delivery"). Deployed it talks to
 * SES; `npm start` and the tests point SES_ENDPOINT at the local SES server. What SES answered becomes a
 * `SendResult`: accepted, rejected for good, or worth another attempt.
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { loadConfig } from '../config.ts';
import type { SendResult } from '../domain/invoice-mail.ts';

/** The message tag carrying the job id (SES event `mail.tags`); tag values allow letters, digits, `_` and `-`. */
export const MAIL_JOB_TAG = 'mail_job_id';

/**
 * SES answers in well under a second; a request still open after 10 s is stuck. The SDK retries throttling and 5xx
 * itself (standard mode, 3 attempts in all) before the mailer counts an attempt as failed and schedules the next.
 */
export const SES_TIMEOUTS = { connectionTimeoutMs: 2_000, requestTimeoutMs: 10_000, maxAttempts: 3 } as const;

export interface OutgoingMail {
  from: string;
  to: string;
  cc: readonly string[];
  raw: Uint8Array;
  jobId: string;
}

let client: SESv2Client | undefined;

function sesClient(): SESv2Client {
  const config = loadConfig();
  client ??= new SESv2Client({
    region: config.region,
    ...(config.sesEndpoint ? { endpoint: config.sesEndpoint, credentials: config.localCredentials } : {}),
    maxAttempts: SES_TIMEOUTS.maxAttempts,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: SES_TIMEOUTS.connectionTimeoutMs,
      requestTimeout: SES_TIMEOUTS.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  });
  return client;
}

/** Forgets the client, so that the next send reads SES_ENDPOINT again (the local runtime and tests set it). */
export function resetMailSender(): void {
  client = undefined;
}

export async function sendRawMail(mail: OutgoingMail): Promise<SendResult> {
  const configurationSet = loadConfig().mailConfigurationSet;
  try {
    const out = await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: mail.from,
        Destination: { ToAddresses: [mail.to], ...(mail.cc.length > 0 ? { CcAddresses: [...mail.cc] } : {}) },
        Content: { Raw: { Data: mail.raw } },
        EmailTags: [{ Name: MAIL_JOB_TAG, Value: mail.jobId }],
        ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
      }),
    );
    return { kind: 'accepted', messageId: out.MessageId ?? '' };
  } catch (error) {
    return classifySesFailure(error);
  }
}

/** 4xx codes that mean "not now" rather than "never": throttling and the sending quota. */
const TRANSIENT_CODES = new Set(['TooManyRequestsException', 'LimitExceededException', 'ThrottlingException']);

/**
 * Throttling, a 5xx, a timeout or no answer at all → transient (the message may be tried again); any other refusal
 * (MessageRejected, an unverified sender, a suspended account, a bad request) → rejected: the same message would be
 * refused again, and saying so at once is the truth the invoice's `mail_status` owes the merchant.
 */
export function classifySesFailure(error: unknown): SendResult {
  const { name, message, $metadata } = (error ?? {}) as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = $metadata?.httpStatusCode;
  const described = `${name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}: ${message ?? 'no message'}`.slice(0, 500);
  if (status === undefined || status >= 500 || (name !== undefined && TRANSIENT_CODES.has(name)))
    return { kind: 'transient', error: described };
  return { kind: 'rejected', error: described };
}
