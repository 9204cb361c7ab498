import type { Kysely } from 'kysely';
import pRetry, { AbortError } from 'p-retry';
import type { OutboxEvent, WebhookEndpoint } from '../domain/webhooks.ts';
import { groupCommit } from '../services/group-commit.ts';
import type { Database } from '../store/database.ts';
import { upsertDeadLetter } from '../store/repositories/dead-letters-repo.ts';
import { insertDeliveryAttempts } from '../store/repositories/delivery-repo.ts';
import {
  claimEvent, releaseEvent, updateClaimedEvent, type DueEvent, type EventProgress,
} from '../store/repositories/outbox-repo.ts';
import { findEndpointByPartner } from '../store/repositories/webhook-endpoints-repo.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import {
  attemptsThisRun, decideAfterAttempt, MAX_IN_RUN_WAIT_MS, type AttemptDecision, type AttemptResult,
} from './failure-policy.ts';
import { sendAttempt } from './send-attempt.ts';
import { deliveryHeaders } from './signing.ts';

export type EventOutcome = 'delivered' | 'retrying' | 'dead_lettered' | 'skipped' | 'interrupted';

/** What a run did with one event. */
export interface EventReport {
  eventId: string;
  partnerId: string;
  eventType: string;
  outcome: EventOutcome;
  /** Attempts this run made. */
  attempts: number;
}

/** A failed attempt: `retry` may be repeated by p-retry in this run; `dead` ended in a dead letter. */
class AttemptFailed extends Error {
  constructor(readonly kind: 'retry' | 'dead', message: string) {
    super(message);
  }
}
/** This run's claim on the event was taken over (it outlived its lease); stop at once. */
class ClaimLost extends Error {}
/** The stopping run gave up this attempt in flight: nothing is stored, the claim is released. */
class Cancelled extends Error {}

function describe(r: AttemptResult): string {
  return r.statusCode !== null ? `HTTP ${r.statusCode}` : (r.error ?? 'no response');
}

interface Attempt {
  attemptNo: number;
  at: Date;
  result: AttemptResult;
  decision: AttemptDecision;
}

function progressOf(a: Attempt): EventProgress {
  const at = a.at.toISOString();
  switch (a.decision.outcome) {
    case 'delivered': return { status: 'delivered', attempts: a.attemptNo, at };
    case 'retry': return { status: 'pending', attempts: a.attemptNo, nextAttemptAt: new Date(a.at.getTime() + a.decision.waitMs).toISOString() };
    default: return { status: 'dead', attempts: a.attemptNo };
  }
}

/** One attempt to store with its effect on the event. */
interface AttemptRecord {
  runId: string;
  event: OutboxEvent;
  url: string;
  a: Attempt;
}

/**
 * Stores attempts and their effect on their events (and dead letters) in one transaction, each
 * only while its run's claim holds; resolves false for an attempt whose claim was lost. Attempts
 * finishing together share the transaction (group commit), so a busy run writes far less often.
 */
export function attemptRecorder(db: Kysely<Database>): (r: AttemptRecord) => Promise<boolean> {
  return groupCommit((records: readonly AttemptRecord[]) => db.transaction().execute(async (trx) => {
    const held: boolean[] = [];
    const attempts: Parameters<typeof insertDeliveryAttempts>[1][number][] = [];
    for (const { runId, event, url, a } of records) {
      const ok = await updateClaimedEvent(trx, event.eventId, runId, progressOf(a));
      held.push(ok);
      if (!ok) continue;
      const at = a.at.toISOString();
      const { outcome } = a.decision;
      const r = a.result;
      attempts.push({
        eventId: event.eventId, attemptNo: a.attemptNo, attemptedAt: at, url, statusCode: r.statusCode,
        latencyMs: r.latencyMs, error: r.error, responseBody: r.responseBody, outcome,
      });
      if (outcome === 'failed_permanent' || outcome === 'dead') {
        const reason = outcome === 'dead' ? `gave up after ${a.attemptNo} attempts: ${describe(r)}` : `permanent failure: ${describe(r)}`;
        await upsertDeadLetter(trx, { eventId: event.eventId, partnerId: event.partnerId, eventType: event.eventType, reason, deadAt: at });
      }
    }
    await insertDeliveryAttempts(trx, attempts);
    return held;
  }));
}

/** Attempts a claimed event: up to three times in this run (p-retry), recording every attempt. */
async function attemptClaimed(
  record: ReturnType<typeof attemptRecorder>, deps: DeliveryDeps, runId: string, event: OutboxEvent, endpoint: WebhookEndpoint,
): Promise<{ outcome: EventOutcome; made: number }> {
  let waitMs = 0;
  let made = 0;
  const attemptOnce = async (): Promise<EventOutcome> => {
    if (made > 0) {
      await deps.sleep(waitMs, deps.drain);
      // Stopped while waiting: the recorded attempt already set when the next one is due.
      if (deps.drain?.aborted) throw new AbortError(new AttemptFailed('retry', 'the run was stopped'));
    }
    const attemptNo = event.attempts + made + 1;
    const at = deps.clock();
    // Re-signed at every attempt: a fresh timestamp, the same event id and body.
    const headers = deliveryHeaders(event, endpoint.secret, Math.floor(at.getTime() / 1000), event.body);
    const result = await sendAttempt(endpoint.url, headers, event.body, deps);
    // No answer because the run gave up waiting: not an attempt the partner's record should count.
    if (result.statusCode === null && deps.cancel?.aborted) throw new AbortError(new Cancelled(result.error ?? 'cancelled'));
    made += 1;
    const decision = decideAfterAttempt(attemptNo, result, deps.random);
    waitMs = decision.waitMs;
    let held: boolean;
    try {
      held = await record({ runId, event, url: endpoint.url, a: { attemptNo, at, result, decision } });
    } catch (err) {
      throw new AbortError(err as Error);
    }
    if (!held) throw new AbortError(new ClaimLost(`claim on ${event.eventId} lost`));
    if (decision.outcome === 'delivered') return 'delivered';
    if (decision.outcome === 'retry') throw new AttemptFailed('retry', describe(result));
    // Final: p-retry stops here and rethrows the AttemptFailed.
    throw new AbortError(new AttemptFailed('dead', describe(result)));
  };
  try {
    const outcome = await pRetry(attemptOnce, {
      retries: attemptsThisRun(event.attempts) - 1,
      minTimeout: 0,
      maxTimeout: 0,
      // A wait longer than a run should hold (a long Retry-After) is left to a later run.
      shouldRetry: () => waitMs <= MAX_IN_RUN_WAIT_MS && !deps.drain?.aborted,
    });
    return { outcome, made };
  } catch (err) {
    if (err instanceof ClaimLost) return { outcome: 'skipped', made };
    if (err instanceof Cancelled) return { outcome: 'interrupted', made };
    if (err instanceof AttemptFailed) return { outcome: err.kind === 'dead' ? 'dead_lettered' : 'retrying', made };
    throw err;
  }
}

/**
 * Delivers one due event: claims it (a run that loses the race skips it), sends it to the
 * partner's current endpoint, retries per the failure policy and releases the claim.
 */
export async function deliverEvent(
  db: Kysely<Database>, deps: DeliveryDeps, runId: string, due: DueEvent, record = attemptRecorder(db),
): Promise<EventReport> {
  const report = (outcome: EventOutcome, attempts = 0): EventReport =>
    ({ eventId: due.eventId, partnerId: due.partnerId, eventType: due.eventType, outcome, attempts });
  const now = deps.clock();
  const event = await claimEvent(db, due.eventId, runId, now.toISOString(), new Date(now.getTime() + deps.claimMs).toISOString());
  if (!event) return report('skipped');
  let final = false;
  try {
    const endpoint = await findEndpointByPartner(db, event.partnerId);
    if (!endpoint || endpoint.status !== 'active') return report('skipped');
    const { outcome, made } = await attemptClaimed(record, deps, runId, event, endpoint);
    final = outcome === 'delivered' || outcome === 'dead_lettered';
    return report(outcome, made);
  } finally {
    // A delivered or dead event's claim was cleared with its last attempt.
    if (!final) await releaseEvent(db, event.eventId, runId);
  }
}
