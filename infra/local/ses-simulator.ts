/**
 * What SES does with a message after accepting it, for the local SES server (docs/running-locally.md "E-mail"): the
 * mailbox simulator's addresses behave as SES documents them — `success@simulator.amazonses.com` is delivered,
 * `bounce@` bounces (hard), `complaint@` is delivered and reported as spam, `suppressionlist@` bounces as an address
 * on the suppression list, `ooto@` is delivered (an out-of-office reply, no event) — and each report is built as the
 * EventBridge event the stage's configuration set publishes, for the same handler (functions/mail-events).
 *
 * One local rule has no SES counterpart, so that a permanent rejection can be seen without AWS: a message with a
 * recipient in the reserved `.invalid` top-level domain (RFC 2606), e.g. `rejected@example.invalid`, is refused at once
 * with 400 `MessageRejected`, as SES refuses a message it will not send (deployed, such an address would bounce).
 */
import { randomUUID } from 'node:crypto';
import type { SesEventBridgeEvent } from '../../shared/store/mail.ts';

export const SIMULATOR_DOMAIN = 'simulator.amazonses.com';

/** The SendEmail request fields the simulator reads. */
export interface SendEmailRequest {
  FromEmailAddress?: string;
  ConfigurationSetName?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  EmailTags?: { Name: string; Value: string }[];
}

export const recipientsOf = (request: SendEmailRequest): string[] => [
  ...(request.Destination?.ToAddresses ?? []),
  ...(request.Destination?.CcAddresses ?? []),
  ...(request.Destination?.BccAddresses ?? []),
];

/** The address part of `Name <address>` or a bare address, lower-cased. */
const bareAddress = (address: string): string => (/<([^>]+)>/.exec(address)?.[1] ?? address).trim().toLowerCase();

/** Recipients the local server refuses (400 MessageRejected): any in the reserved `.invalid` top-level domain. */
export function rejectedRecipients(request: SendEmailRequest): string[] {
  return recipientsOf(request).filter((address) => bareAddress(address).endsWith('.invalid'));
}

type Outcome = 'bounce' | 'suppressed' | 'complaint';

/** What the simulator does with one address (`bounce+label@` is `bounce@`), or undefined for an ordinary delivery. */
function simulated(address: string): Outcome | undefined {
  const [local, domain] = bareAddress(address).split('@');
  if (domain !== SIMULATOR_DOMAIN) return undefined;
  const box = local!.split('+')[0];
  if (box === 'bounce') return 'bounce';
  if (box === 'suppressionlist') return 'suppressed';
  if (box === 'complaint') return 'complaint';
  return undefined;
}

/** The events SES would publish for an accepted message: one per kind of report, naming every recipient concerned. */
export function simulatedEvents(request: SendEmailRequest, messageId: string, now = new Date()): SesEventBridgeEvent[] {
  const recipients = recipientsOf(request);
  const byOutcome = (outcome: Outcome) => recipients.filter((address) => simulated(address) === outcome);
  const events: SesEventBridgeEvent[] = [];
  const bounced = [...byOutcome('bounce'), ...byOutcome('suppressed')];
  if (bounced.length > 0) {
    const subType = byOutcome('bounce').length > 0 ? 'General' : 'OnAccountSuppressionList';
    events.push(event('Email Bounced', 'Bounce', bounceDetail(bounced, subType, now), request, messageId, now));
  }
  const complained = byOutcome('complaint');
  if (complained.length > 0)
    events.push(
      event('Email Complaint Received', 'Complaint', complaintDetail(complained, now), request, messageId, now),
    );
  return events;
}

function bounceDetail(recipients: string[], subType: string, now: Date) {
  return {
    bounce: {
      feedbackId: randomUUID(),
      bounceType: 'Permanent',
      bounceSubType: subType,
      bouncedRecipients: recipients.map((address) => ({
        emailAddress: bareAddress(address),
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: 'smtp; 550 5.1.1 user unknown',
      })),
      timestamp: now.toISOString(),
      reportingMTA: 'dsn; local-ses',
    },
  };
}

function complaintDetail(recipients: string[], now: Date) {
  return {
    complaint: {
      feedbackId: randomUUID(),
      complainedRecipients: recipients.map((address) => ({ emailAddress: bareAddress(address) })),
      complaintFeedbackType: 'abuse',
      timestamp: now.toISOString(),
    },
  };
}

function event(
  detailType: string,
  eventType: string,
  body: Record<string, unknown>,
  request: SendEmailRequest,
  messageId: string,
  now: Date,
): SesEventBridgeEvent & Record<string, unknown> {
  const tags: Record<string, string[]> = {};
  for (const tag of request.EmailTags ?? []) tags[tag.Name] = [tag.Value];
  if (request.ConfigurationSetName) tags['ses:configuration-set'] = [request.ConfigurationSetName];
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source: 'aws.ses',
    account: '000000000000',
    time: now.toISOString(),
    region: 'local',
    resources: [],
    detail: {
      eventType,
      ...body,
      mail: {
        timestamp: now.toISOString(),
        source: request.FromEmailAddress ?? '',
        messageId,
        destination: recipientsOf(request).map(bareAddress),
        headersTruncated: false,
        tags,
      },
    },
  };
}
