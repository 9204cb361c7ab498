/** The webhook event types of schema version 1 (docs/contract.md, "Catalogue (v1) and payloads"). */
export const EVENT_TYPES = [
  'crew.document.processed',
  'crew.document.updated',
  'crew.compliance.changed',
  'crew.status.changed',
  'crew.profile.updated',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const SCHEMA_VERSION = 1;

export function isEventType(name: unknown): name is EventType {
  return typeof name === 'string' && (EVENT_TYPES as readonly string[]).includes(name);
}
