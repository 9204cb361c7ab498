import { wireTime } from '../../domain/clock.ts';
import type { PlannedEvent } from '../../domain/events.ts';
import { SCHEMA_VERSION } from '../../domain/vocabulary.ts';
import type { NewOutboxEvent } from '../../domain/webhooks.ts';
import type { Db } from '../../store/database.ts';
import { takeSequences } from '../../store/repositories/event-sequences-repo.ts';

/** Where an event stands among its partner's: `occurredAt` is the run's instant as the wire writes it. */
interface Placed {
  eventId: string;
  partnerId: string;
  sequence: number;
  at: string;
  occurredAt: string;
}

function envelope(planned: PlannedEvent, placed: Placed): NewOutboxEvent {
  const body = JSON.stringify({
    schema_version: SCHEMA_VERSION,
    event_id: placed.eventId,
    event_type: planned.type,
    occurred_at: placed.occurredAt,
    partner_id: placed.partnerId,
    sequence: placed.sequence,
    subject: planned.subject,
    data: planned.data,
  });
  return {
    eventId: placed.eventId,
    partnerId: placed.partnerId,
    eventType: planned.type,
    crewUniqueId: planned.crewUniqueId,
    at: placed.at,
    body,
    payloadScope: planned.payloadScope ?? null,
    sequence: placed.sequence,
    subject: planned.subject,
  };
}

/**
 * Events as the outbox stores them, each partner's numbered in the order given from the partner's
 * counter (docs/webhooks.md, "Order: sequence and subject"). Call it in the transaction that writes
 * them: the counters are taken in `trx`, partners in id order, so two writers never wait on each
 * other's counters in a circle. `at` is the instant of the run that found them.
 */
export async function numberedEvents(
  trx: Db,
  items: ReadonlyArray<{ partnerId: string; event: PlannedEvent }>,
  at: string,
  newId: () => string,
): Promise<NewOutboxEvent[]> {
  const counts = new Map<string, number>();
  for (const { partnerId } of items) counts.set(partnerId, (counts.get(partnerId) ?? 0) + 1);
  const next = new Map<string, number>();
  for (const partnerId of [...counts.keys()].sort()) next.set(partnerId, await takeSequences(trx, partnerId, counts.get(partnerId)!));
  const occurredAt = wireTime(at);
  return items.map(({ partnerId, event }) => {
    const sequence = next.get(partnerId)!;
    next.set(partnerId, sequence + 1);
    return envelope(event, { eventId: newId(), partnerId, sequence, at, occurredAt });
  });
}
