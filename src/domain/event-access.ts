import type { Scope } from './scopes.ts';
import type { ConsentCategory, EventDeliveryState, EventType, OutboxStatus } from './vocabulary.ts';

/** The scope and consent category each event type needs (docs/contract.md, "Catalogue (v1)"; docs/decisions.md §3). */
export const EVENT_ACCESS: Record<EventType, { scope: Scope; consent: ConsentCategory }> = {
  'crew.document.processed': { scope: 'crew:documents:read', consent: 'documents' },
  'crew.document.updated': { scope: 'crew:documents:read', consent: 'documents' },
  'crew.compliance.changed': { scope: 'crew:compliance:read', consent: 'compliance' },
  'crew.status.changed': { scope: 'crew:status:subscribe', consent: 'status' },
  'crew.profile.updated': { scope: 'crew:profile:read', consent: 'profile' },
};

/** Event types whose scope the partner holds. */
export function eventTypesVisibleWith(scopes: ReadonlySet<Scope>, types: readonly EventType[]): EventType[] {
  return types.filter((t) => scopes.has(EVENT_ACCESS[t].scope));
}

/**
 * Whether a partner may still see an event it was sent: it holds the type's scope (and
 * crew:medical:read for a medical-class document) and the crew member still gives the consent.
 */
export function eventStillVisible(
  event: { type: EventType; data: Record<string, unknown> },
  scopes: ReadonlySet<Scope>,
  consents: ReadonlySet<ConsentCategory> | undefined,
): boolean {
  const access = EVENT_ACCESS[event.type];
  if (!scopes.has(access.scope) || !consents?.has(access.consent)) return false;
  if (access.consent !== 'documents') return true;
  const documentClass = (event.data.classification as { document_class?: unknown } | undefined)?.document_class;
  return documentClass !== 'medical' || scopes.has('crew:medical:read');
}

/** The feed's delivery state of an outbox event. */
export function deliveryState(status: OutboxStatus, attempts: number): EventDeliveryState {
  return status === 'pending' && attempts > 0 ? 'retrying' : status;
}
