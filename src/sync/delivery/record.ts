import type { Kysely } from 'kysely';
import type { OutboxEvent } from '../../domain/webhooks.ts';
import { coalesce } from '../../services/plumbing/coalesce.ts';
import type { Database, Db } from '../../store/database.ts';
import { dialectOf } from '../../store/dialect-of.ts';
import { upsertDeadLetter } from '../../store/repositories/dead-letters-repo.ts';
import { insertDeliveryAttempts } from '../../store/repositories/delivery-repo.ts';
import { disableEndpoint, disableIfFailingSince, noteEndpointAttempts } from '../../store/repositories/endpoint-health-repo.ts';
import { updateClaimedEvents, type EventProgress } from '../../store/repositories/outbox-repo.ts';
import { endpointGone, type AttemptDecision, type AttemptResult } from '../failure-policy.ts';

/** One attempt as the record stage stores it. */
export interface Attempt {
  attemptNo: number;
  at: Date;
  result: AttemptResult;
  decision: AttemptDecision;
}

/** One attempt to store with its effect on the event. */
export interface AttemptRecord {
  runId: string;
  event: OutboxEvent;
  url: string;
  attempt: Attempt;
}

/**
 * What storing one attempt did: `stored`; `claim_lost` when the run's claim on the event was lost
 * (nothing stored); `endpoint_disabled` when stored and the attempt disabled its endpoint, for
 * failing too long or for answering 410 Gone (docs/webhooks.md, "Endpoint health").
 */
export type Recorded = 'stored' | 'claim_lost' | 'endpoint_disabled';

/** Stores one attempt with its effect on the event and on its endpoint's health. */
export type RecordStage = (r: AttemptRecord) => Promise<Recorded>;

const DAY_MS = 86_400_000;

export function describeResult(result: AttemptResult): string {
  return result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? 'no response');
}

function progressOf(attempt: Attempt): EventProgress {
  const at = attempt.at.toISOString();
  switch (attempt.decision.outcome) {
    case 'delivered':
      return { status: 'delivered', attempts: attempt.attemptNo, at };
    case 'retry':
      return {
        status: 'pending',
        attempts: attempt.attemptNo,
        nextAttemptAt: new Date(attempt.at.getTime() + attempt.decision.waitMs).toISOString(),
      };
    default:
      return { status: 'dead', attempts: attempt.attemptNo };
  }
}

/** Transactions of attempts that one recorder on Postgres may have in flight at once. */
const PG_PARALLEL_WRITES = 4;

/**
 * The record stage: stores attempts and their effect on their events (and dead letters) in one
 * transaction, each only while its run's claim holds. Attempts finishing together share the
 * transaction (group commit) and its few statements: one update per kind of progress and one
 * insert, however many attempts.
 */
export function attemptRecorder(db: Kysely<Database>, disableAfterDays: number): RecordStage {
  // Postgres runs several such transactions at once on separate connections; SQLite has one writer
  // at a time, so one is all it can use. Each transaction locks the health rows of the endpoints it
  // records (src/store/repositories/endpoint-health-repo.ts) until it commits, so every endpoint's
  // attempts go through one writer, the endpoints dealt out in turn as they first come: the
  // writers then touch different rows and never queue on each other.
  const writers = Array.from({ length: dialectOf(db) === 'postgres' ? PG_PARALLEL_WRITES : 1 }, () => recordBatches(db, disableAfterDays));
  const writerOf = new Map<string, RecordStage>();
  return (record) => {
    const { partnerId } = record.event;
    let writer = writerOf.get(partnerId);
    if (!writer) {
      writer = writers[writerOf.size % writers.length]!;
      writerOf.set(partnerId, writer);
    }
    return writer(record);
  };
}

function recordBatches(db: Kysely<Database>, disableAfterDays: number): RecordStage {
  return coalesce((records: readonly AttemptRecord[]) =>
    db.transaction().execute(async (trx) => {
      const updated = await updateClaimedEvents(
        trx,
        records.map((r) => ({ eventId: r.event.eventId, runId: r.runId, progress: progressOf(r.attempt) })),
      );
      const attempts: Parameters<typeof insertDeliveryAttempts>[1][number][] = [];
      for (const { event, url, attempt } of records) {
        if (!updated.has(event.eventId)) continue;
        const at = attempt.at.toISOString();
        const { outcome } = attempt.decision;
        const result = attempt.result;
        attempts.push({
          eventId: event.eventId,
          attemptNo: attempt.attemptNo,
          attemptedAt: at,
          url,
          statusCode: result.statusCode,
          latencyMs: result.latencyMs,
          error: result.error,
          responseBody: result.responseBody,
          outcome,
        });
        if (outcome === 'failed_permanent' || outcome === 'dead') {
          const reason =
            outcome === 'dead'
              ? `gave up after ${attempt.attemptNo} attempts: ${describeResult(result)}`
              : `permanent failure: ${describeResult(result)}`;
          await upsertDeadLetter(trx, {
            eventId: event.eventId,
            partnerId: event.partnerId,
            eventType: event.eventType,
            reason,
            deadAt: at,
          });
        }
      }
      await insertDeliveryAttempts(trx, attempts);
      const disabled = await noteHealth(
        trx,
        records.filter((r) => updated.has(r.event.eventId)),
        disableAfterDays,
      );
      return records.map((r): Recorded =>
        !updated.has(r.event.eventId) ? 'claim_lost' : disabled.has(r.event.partnerId) ? 'endpoint_disabled' : 'stored',
      );
    }),
  );
}

/**
 * Folds stored attempts into their endpoints' health and disables an endpoint that answered 410
 * Gone, or whose every attempt has failed for `disableAfterDays` by the time of its latest
 * attempt; returns the partners whose endpoint this disabled.
 */
async function noteHealth(trx: Db, stored: readonly AttemptRecord[], disableAfterDays: number): Promise<Set<string>> {
  const byPartner = new Map<string, { at: string; delivered: boolean; gone: string | null }[]>();
  for (const { event, attempt } of [...stored].sort((x, y) => x.attempt.at.getTime() - y.attempt.at.getTime())) {
    const list = byPartner.get(event.partnerId) ?? [];
    const gone = endpointGone(attempt.result) ? event.eventId : null;
    list.push({ at: attempt.at.toISOString(), delivered: attempt.decision.outcome === 'delivered', gone });
    byPartner.set(event.partnerId, list);
  }
  const disabled = new Set<string>();
  // Endpoint rows are locked in partner order: transactions recording at once (this run's writers,
  // another run on Postgres) then wait for each other instead of deadlocking.
  for (const [partnerId, attempts] of [...byPartner].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    await noteEndpointAttempts(trx, { partnerId, attempts });
    const gone = attempts.find((a) => a.gone !== null);
    if (gone && (await disableEndpoint(trx, partnerId, `the endpoint answered 410 Gone to ${gone.gone} at ${gone.at}`, gone.at))) {
      disabled.add(partnerId);
      continue;
    }
    const latest = attempts.at(-1)!;
    if (latest.delivered) continue;
    const failingBefore = new Date(Date.parse(latest.at) - disableAfterDays * DAY_MS).toISOString();
    if (await disableIfFailingSince(trx, partnerId, failingBefore, latest.at, disableAfterDays)) disabled.add(partnerId);
  }
  return disabled;
}
