import type { Scope } from './scopes.ts';
import { EVENT_CATALOGUE, SNAPSHOT_SUBJECTS, type EventAccess, type PayloadRestriction } from './event-catalogue.ts';
import {
  EVENT_TYPES,
  type ConsentCategory,
  type EventDeliveryState,
  type EventType,
  type OutboxStatus,
  type SuppressReason,
} from './vocabulary.ts';

/** The scope and consent category each event type needs, read from the catalogue (src/domain/event-catalogue.ts). */
export const EVENT_ACCESS: Record<EventType, EventAccess> = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, EVENT_CATALOGUE[type].access]),
) as Record<EventType, EventAccess>;

/** Event types whose scope the partner holds. */
export function eventTypesVisibleWith(scopes: ReadonlySet<Scope>, types: readonly EventType[]): EventType[] {
  return types.filter((t) => scopes.has(EVENT_ACCESS[t].scope));
}

/** Where a crew member stands with a partner now: on its fleet or not, and the consents given to it. */
export interface CrewStanding {
  onFleet: boolean;
  consents: ReadonlySet<ConsentCategory>;
}

/**
 * The one access rule for an event leaving the service (webhook attempt, replay, events feed), the
 * read API's rule applied to events: null when the partner may receive it now, else why not. The
 * endpoint must subscribe to its type (when `subscribed` is given), the crew member must be on
 * the partner's fleet, the partner must hold the type's scope (and the scope of its subject's
 * restriction where the payload falls under it: crew:medical:read for a medical-class document,
 * read from the payload, or for a payload recorded as holding medical data when it was built,
 * `payloadScope`) and the crew member must give the type's consent category.
 */
export function accessVerdict(
  event: { type: EventType; data: Record<string, unknown>; payloadScope?: Scope | null },
  scopes: ReadonlySet<Scope>,
  standing: CrewStanding | undefined,
  subscribed?: readonly string[],
): SuppressReason | null {
  const access = EVENT_ACCESS[event.type];
  const restriction: PayloadRestriction | null = SNAPSHOT_SUBJECTS[EVENT_CATALOGUE[event.type].subject].restriction;
  if (subscribed && !subscribed.includes(event.type)) return 'subscription';
  if (!standing?.onFleet) return 'fleet';
  if (!scopes.has(access.scope)) return 'scope';
  if (restriction?.applies?.(event.data) && !scopes.has(restriction.scope)) return 'scope';
  if (event.payloadScope && !scopes.has(event.payloadScope)) return 'scope';
  return standing.consents.has(access.consent) ? null : 'consent';
}

/** The feed's delivery state of an outbox event. */
export function deliveryState(status: OutboxStatus, attempts: number): EventDeliveryState {
  return status === 'pending' && attempts > 0 ? 'retrying' : status;
}
