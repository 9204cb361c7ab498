import { effectiveScopes } from '../../domain/scopes.ts';
import type { SuppressReason } from '../../domain/vocabulary.ts';
import type { OutboxEvent, WebhookEndpoint } from '../../domain/webhooks.ts';
import { judgeEvents, type Audience } from '../../services/visibility/event-visibility.ts';
import type { Db } from '../../store/database.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import { findEndpointByPartner } from '../../store/repositories/webhook-endpoints-repo.ts';

/** The endpoint to send to and whom it reaches, as the store holds them. */
export interface EndpointAccess {
  endpoint: WebhookEndpoint;
  audience: Audience;
}

/** What the gate decided for some events: the endpoint they would go to, and each one's verdict (null: may be sent). */
export interface GateJudgement {
  access: EndpointAccess;
  verdicts: Map<string, SuppressReason | null>;
}

/**
 * The access rule at the door of one partner's endpoint (docs/webhooks.md, "Access at send time").
 * Every attempt asks it just before it is signed and sent, so a change committed before the
 * attempt starts (consent, fleet, scopes, subscriptions, the endpoint's URL, secret or status) is
 * seen by it.
 */
export interface SendGate {
  /** The endpoint and audience now; null when the endpoint is gone or not active, or the partner is gone. */
  access(): Promise<EndpointAccess | null>;
  /**
   * Judges a claimed batch by the rule of src/services/visibility/event-visibility.ts as things
   * stand now, in one query; null as for access(). The verdicts that let an event through are
   * kept for its first attempt while the data version holds.
   */
  judgeClaimed(events: readonly OutboxEvent[]): Promise<GateJudgement | null>;
  /** Judges one event as its attempt starts: a kept verdict while the version holds, else one query. */
  judgeAttempt(event: OutboxEvent): Promise<GateJudgement | null>;
}

interface Held {
  version: string | null;
  /** The partner as a reader of events, or null when it is gone. */
  audience: Audience | null;
  /** Events a claimed batch's judgement let through at this version, whose first attempt has not started. */
  primed: Set<string>;
}

/**
 * A gate that reads the endpoint at every call (its URL, secrets and subscriptions are not under
 * change capture), and the partner and the crew's standing afresh whenever the store's data
 * version (src/services/data-version.ts) has moved since it last read them: the partners', crew's,
 * assignments', vessels' and consents' tables are under change capture, so an unmoved version
 * means nothing of them changed. The version is read before the rows it guards. A verdict judged
 * for a whole claimed batch serves each event's first attempt once, while the version holds and the
 * endpoint still subscribes to the event's type; later attempts are judged again. Without a
 * version (Postgres, a writer in flight) nothing is reused.
 */
export function sendGate(db: Db, partnerId: string, readVersion: () => Promise<string | null>): SendGate {
  let held: Held | null = null;

  async function current(): Promise<{ access: EndpointAccess | null; primed: Set<string> }> {
    const [version, endpoint] = await Promise.all([readVersion(), findEndpointByPartner(db, partnerId)]);
    if (version === null || held?.version !== version) {
      const partner = await findPartner(db, partnerId);
      // Outbox events are made from live data only (src/sync/diff/), so the live fleet is the one that counts.
      const audience = partner ? { partner, mode: 'live' as const, scopes: new Set(effectiveScopes(partner)) } : null;
      const next: Held = { version, audience, primed: new Set<string>() };
      if (version !== null) held = next;
      return { access: endpoint?.status === 'active' && audience ? { endpoint, audience } : null, primed: next.primed };
    }
    return { access: endpoint?.status === 'active' && held.audience ? { endpoint, audience: held.audience } : null, primed: held.primed };
  }

  return {
    async access() {
      return (await current()).access;
    },
    async judgeClaimed(events) {
      const { access, primed } = await current();
      if (!access) return null;
      const verdicts = await judgeEvents(db, access.audience, events, access.endpoint.subscribedEvents);
      for (const [id, verdict] of verdicts) if (verdict === null) primed.add(id);
      return { access, verdicts };
    },
    async judgeAttempt(event) {
      const { access, primed } = await current();
      if (!access) return null;
      const subscribed = access.endpoint.subscribedEvents;
      if (primed.delete(event.eventId) && subscribed.includes(event.eventType))
        return { access, verdicts: new Map([[event.eventId, null]]) };
      return { access, verdicts: await judgeEvents(db, access.audience, [event], subscribed) };
    },
  };
}
