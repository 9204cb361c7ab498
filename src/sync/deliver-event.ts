import type { Kysely } from 'kysely';
import pRetry, { AbortError } from 'p-retry';
import type { OutboxEvent, WebhookEndpoint } from '../domain/webhooks.ts';
import { groupCommit } from '../services/plumbing/group-commit.ts';
import type { Database } from '../store/database.ts';
import { dialectOf } from '../store/dialect-of.ts';
import { upsertDeadLetter } from '../store/repositories/dead-letters-repo.ts';
import { insertDeliveryAttempts } from '../store/repositories/delivery-repo.ts';
import { releaseEvents, updateClaimedEvents, type EventProgress } from '../store/repositories/outbox-repo.ts';
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
 * finishing together share the transaction (group commit) and its few statements: one update per
 * kind of progress and one insert, however many attempts.
 */
export function attemptRecorder(db: Kysely<Database>): (r: AttemptRecord) => Promise<boolean> {
  // Postgres runs several such transactions at once on separate connections (rows of different
  // events do not conflict); SQLite has one writer at a time, so one is all it can use.
  const writers = Array.from({ length: dialectOf(db) === 'postgres' ? PG_PARALLEL_WRITES : 1 }, () => recordBatches(db));
  const pending = writers.map(() => 0);
  return async (r) => {
    const i = pending.indexOf(Math.min(...pending));
    pending[i]! += 1;
    try {
      return await writers[i]!(r);
    } finally {
      pending[i]! -= 1;
    }
  };
}

/** Transactions of attempts that one attempt recorder on Postgres may have in flight at once. */
const PG_PARALLEL_WRITES = 4;

function recordBatches(db: Kysely<Database>): (r: AttemptRecord) => Promise<boolean> {
  return groupCommit((records: readonly AttemptRecord[]) => db.transaction().execute(async (trx) => {
    const updated = await updateClaimedEvents(trx, records.map((r) => ({ eventId: r.event.eventId, runId: r.runId, progress: progressOf(r.a) })));
    const attempts: Parameters<typeof insertDeliveryAttempts>[1][number][] = [];
    for (const { event, url, a } of records) {
      if (!updated.has(event.eventId)) continue;
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
    return records.map((r) => updated.has(r.event.eventId));
  }));
}

/**
 * Wraps each HTTP attempt: the caller's concurrency limits (only the request holds a slot, not the
 * waits or the store writes around it). It may throw instead of sending, and nothing is recorded.
 */
export type SendGate = <T>(send: () => Promise<T>) => Promise<T>;

/** Attempts a claimed event: up to three times in this run (p-retry), recording every attempt. */
async function attemptClaimed(
  record: ReturnType<typeof attemptRecorder>, gate: SendGate, deps: DeliveryDeps, runId: string, event: OutboxEvent, endpoint: WebhookEndpoint,
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
    let sent: { at: Date; result: AttemptResult };
    try {
      sent = await gate(async () => {
        const at = deps.clock();
        // Re-signed at every attempt: a fresh timestamp, the same event id and body. The timestamp is
        // the real time (a receiver compares it with its clock), whatever the business clock says.
        const signedAt = Math.floor(deps.wallClock().getTime() / 1000);
        const headers = deliveryHeaders(endpoint, event, at, signedAt, event.body);
        return { at, result: await sendAttempt(endpoint.url, headers, event.body, deps) };
      });
    } catch (err) {
      // The gate refused to open (the run stopped before this event's turn): no attempt was made.
      throw new AbortError(err as Error);
    }
    const { at, result } = sent;
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
 * Delivers one event this run has claimed to the partner's endpoint, retries per the failure
 * policy and releases the claim unless its last attempt was final (delivered or dead).
 */
export async function deliverClaimed(
  db: Kysely<Database>, deps: DeliveryDeps, runId: string, event: OutboxEvent, endpoint: WebhookEndpoint,
  record: ReturnType<typeof attemptRecorder>, gate: SendGate,
): Promise<EventReport> {
  let final = false;
  try {
    const { outcome, made } = await attemptClaimed(record, gate, deps, runId, event, endpoint);
    final = outcome === 'delivered' || outcome === 'dead_lettered';
    return { eventId: event.eventId, partnerId: event.partnerId, eventType: event.eventType, outcome, attempts: made };
  } finally {
    // A delivered or dead event's claim was cleared with its last attempt.
    if (!final) await releaseEvents(db, [event.eventId], runId);
  }
}
