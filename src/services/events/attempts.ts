import { AppError } from '../../domain/app-error.ts';
import { attemptErrorClass } from '../../domain/attempt-errors.ts';
import { wireTime } from '../../domain/clock.ts';
import { deliveryState, eventTypesVisibleWith } from '../../domain/event-access.ts';
import {
  ATTEMPT_EXCERPT_CHARS,
  isEventType,
  type AttemptErrorClass,
  type DeliveryOutcome,
  type EventDeliveryState,
} from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { attemptsOfEvent, type DeliveryAttempt } from '../../store/repositories/delivery-repo.ts';
import { findOutboxEvent } from '../../store/repositories/outbox-repo.ts';
import { judgeEvents } from '../visibility/event-visibility.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';

/** One delivery attempt as its partner sees it: no URL, no error detail, a bounded excerpt of the answer. */
export interface AttemptWire {
  attempt_no: number;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error_class: AttemptErrorClass | null;
  outcome: DeliveryOutcome;
  response_excerpt: string | null;
}

export interface EventAttemptsWire {
  event_id: string;
  sequence: number | null;
  delivery_status: EventDeliveryState;
  /** When the next attempt is due; null once delivered, dead-lettered or suppressed. */
  next_attempt_at: string | null;
  attempts: AttemptWire[];
}

function toAttemptWire(a: DeliveryAttempt): AttemptWire {
  return {
    attempt_no: a.attemptNo,
    attempted_at: wireTime(a.attemptedAt),
    duration_ms: a.latencyMs,
    status_code: a.statusCode,
    error_class: attemptErrorClass(a.error, a.statusCode),
    outcome: a.outcome,
    response_excerpt: a.responseBody === null ? null : [...a.responseBody].slice(0, ATTEMPT_EXCERPT_CHARS).join(''),
  };
}

/**
 * The delivery attempts of one of the partner's events, oldest first. The event is shown under the
 * rule of the events feed (src/services/events/feed.ts), asked now: a live key, the event created
 * for this partner within the retention, the type's scope held and the access rule passing
 * (fleet, scope, consent). Any other event, or one that does not exist, is the same 404.
 */
export async function listEventAttempts(db: Db, ctx: PartnerContext, eventId: string, since: string): Promise<EventAttemptsWire> {
  const notFound = new AppError('not_found', `no event with id "${eventId}"`);
  const event = await findOutboxEvent(db, eventId);
  if (ctx.mode === 'test' || !event || event.partnerId !== ctx.partner.partnerId || event.createdAt < since) throw notFound;
  if (!isEventType(event.eventType) || eventTypesVisibleWith(ctx.scopes, [event.eventType]).length === 0) throw notFound;
  if ((await judgeEvents(db, ctx, [event])).get(event.eventId) !== null) throw notFound;
  const attempts = await attemptsOfEvent(db, event.eventId);
  return {
    event_id: event.eventId,
    sequence: event.sequence,
    delivery_status: deliveryState(event.status, event.attempts),
    next_attempt_at: event.status === 'pending' ? wireTime(event.nextAttemptAt) : null,
    attempts: attempts.map(toAttemptWire),
  };
}
