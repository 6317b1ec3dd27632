/**
 * The table's stream records, read here and nowhere else (docs/webhooks.md "Delivery architecture"): which records
 * are outbox INSERTs the dispatcher handles (the filter the event source mapping applies), the event id each asks to
 * deliver, the mail job each new job's INSERT asks to send (docs/sending-invoices.md "Delivery"), and each record's
 * position in the stream (what Lambda retries from).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { type FilterPattern, matchesFilterPattern } from '../domain/filter-pattern.ts';
import { MAIL_JOB_ID_PATTERN, MAIL_STREAM_FILTER_PATTERN } from './mail-jobs.ts';
import { EVENT_ID_ATTRIBUTE, STREAM_FILTER_PATTERN } from './webhooks.ts';

/**
 * True when a stream record is an outbox INSERT the dispatcher handles (the filter the event source mapping applies).
 */
export function isDispatchableRecord(record: DynamoDBRecord): boolean {
  return matchesFilterPattern(STREAM_FILTER_PATTERN as unknown as FilterPattern, record);
}

/** The event id a stream record asks to deliver, or undefined when the record is not dispatchable. */
export function dispatchableEventId(record: DynamoDBRecord): string | undefined {
  if (!isDispatchableRecord(record)) return undefined;
  return record.dynamodb?.NewImage?.[EVENT_ID_ATTRIBUTE]?.S || undefined;
}

/** The events a batch of stream records asks to deliver, in stream order. */
export interface DispatchBatch {
  /** Each event id with its record's position: a batch item failure names the position to retry from. */
  events: { eventId: string; position: string }[];
  /** Positions of dispatchable records written without an event id (nothing to deliver; never retried). */
  withoutEventId: string[];
}

export function readDispatchBatch(records: readonly DynamoDBRecord[]): DispatchBatch {
  const batch: DispatchBatch = { events: [], withoutEventId: [] };
  for (const record of records) {
    const position = record.dynamodb?.SequenceNumber ?? '';
    const eventId = dispatchableEventId(record);
    if (eventId) batch.events.push({ eventId, position });
    else if (isDispatchableRecord(record)) batch.withoutEventId.push(position);
  }
  return batch;
}

/** The job id a stream record asks to send, or undefined when the record is not a new mail job. */
export function mailJobIdOf(record: DynamoDBRecord): string | undefined {
  if (!matchesFilterPattern(MAIL_STREAM_FILTER_PATTERN as unknown as FilterPattern, record)) return undefined;
  const jobId = record.dynamodb?.NewImage?.job_id?.S;
  return jobId && MAIL_JOB_ID_PATTERN.test(jobId) ? jobId : undefined;
}

/** The new mail jobs of a batch of stream records, in stream order, each with its record's position. */
export function readMailJobBatch(records: readonly DynamoDBRecord[]): { jobId: string; position: string }[] {
  return records.flatMap((record) => {
    const jobId = mailJobIdOf(record);
    return jobId ? [{ jobId, position: record.dynamodb?.SequenceNumber ?? '' }] : [];
  });
}
