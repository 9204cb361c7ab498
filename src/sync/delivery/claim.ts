import { effectiveScopes } from '../../domain/scopes.ts';
import type { OutboxEvent, WebhookEndpoint } from '../../domain/webhooks.ts';
import type { Audience } from '../../services/visibility/event-visibility.ts';
import type { Db } from '../../store/database.ts';
import { claimDueEvents } from '../../store/repositories/outbox-repo.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import { findEndpointByPartner } from '../../store/repositories/webhook-endpoints-repo.ts';

/** What the claim stage hands on: a batch with the endpoint and partner as they are now, or why there is none. */
export type Claimed =
  | { kind: 'claimed'; events: OutboxEvent[]; endpoint: WebhookEndpoint; audience: Audience }
  | { kind: 'disabled' }
  | { kind: 'store_error'; message: string };

/**
 * Stage 1, claim: up to `limit` of one partner's due events for this run, in one statement, with
 * its endpoint and the partner's scopes read again, so a change of URL, secret, subscription or
 * plan applies from the next batch on. An endpoint that is gone or disabled claims nothing.
 */
export async function claimBatch(
  db: Db, claim: { partnerId: string; runId: string; now: Date; claimMs: number; limit: number },
): Promise<Claimed> {
  try {
    const [endpoint, partner] = await Promise.all([findEndpointByPartner(db, claim.partnerId), findPartner(db, claim.partnerId)]);
    if (!endpoint || endpoint.status !== 'active' || !partner) return { kind: 'disabled' };
    const events = await claimDueEvents(db, {
      partnerId: claim.partnerId, runId: claim.runId, now: claim.now.toISOString(),
      lockedUntil: new Date(claim.now.getTime() + claim.claimMs).toISOString(), limit: claim.limit,
    });
    // Outbox events are made from live data only (src/sync/diff/), so the live fleet is the one that counts.
    return { kind: 'claimed', events, endpoint, audience: { partner, mode: 'live', scopes: new Set(effectiveScopes(partner)) } };
  } catch (err) {
    return { kind: 'store_error', message: (err as Error).message };
  }
}
