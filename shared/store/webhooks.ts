/** `entity` attribute (S) of the items whose INSERT must be dispatched to the delivery queue. */
export const DISPATCHABLE_ENTITIES = ['webhook_event', 'webhook_resend'] as const;
/** Every dispatchable item carries `event_id` (S): 'evt_' + ULID. */
export const EVENT_ID_ATTRIBUTE = 'event_id';
/** Lambda event-source-mapping filter pattern (also applied by the local poller). */
export const STREAM_FILTER_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: [...DISPATCHABLE_ENTITIES] } } },
} as const;
