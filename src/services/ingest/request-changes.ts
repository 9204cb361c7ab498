import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../domain/app-error.ts';
import { IDEMPOTENCY_TTL_MS } from '../../domain/ingest-requests.ts';
import type { ChangeIssue, ChangeResult, IngestOutcome } from '../../domain/ingest-change.ts';
import type { Database } from '../../store/database.ts';
import { findIngestRequest, purgeIngestRequests, saveIngestRequest } from '../../store/repositories/ingest-requests-repo.ts';
import { applyChanges, type Incoming, type IngestDeps } from './apply-changes.ts';
import { ingestStream, type IngestSummary } from './ingest-stream.ts';

/** One change's result on the wire (docs/api.md, "Admin: sending changes"). */
export interface ChangeResultWire {
  line: number;
  entity: string | null;
  id: string | null;
  outcome: IngestOutcome;
  reason: string | null;
  issues: ChangeIssue[];
}

/** The answer of POST /api/v2/admin/changes: every change's result in the order sent, and the counts. */
export interface ChangesAnswer extends Record<IngestOutcome, number> {
  results: ChangeResultWire[];
}

/** The caller's Idempotency-Key and the SHA-256 of what it sent under it. */
export interface Idempotency {
  key: string;
  bodySha256: string;
}

const lineOf = (origin: string) => Number(origin.slice(origin.lastIndexOf(':') + 1));

/** One result on the wire; its issues' inputs were already cut by applyChanges. */
function toWire(r: ChangeResult): ChangeResultWire {
  return {
    line: lineOf(r.origin),
    entity: r.entity ?? null,
    id: r.id ?? null,
    outcome: r.outcome,
    reason: r.reason ?? null,
    issues: r.issues ?? [],
  };
}

function answerOf(results: readonly ChangeResult[]): ChangesAnswer {
  const answer: ChangesAnswer = { results: results.map(toWire), applied: 0, stale: 0, held: 0, rejected: 0 };
  for (const r of results) answer[r.outcome] += 1;
  return answer;
}

/**
 * The request's changes in order, then those of them held again for as long as a pass settles
 * one: a document sent before its crew member in the same request applies, as it would in one
 * `svc ingest` run, and the answer tells how each change ended.
 */
async function applyOwn(trx: Transaction<Database>, incoming: readonly Incoming[], deps: IngestDeps): Promise<ChangeResult[]> {
  const results = await applyChanges(trx, incoming, deps);
  const at = deps.clock().toISOString();
  const held = { heldAt: at, heldUntil: new Date(Date.parse(at) + deps.holdMs).toISOString() };
  for (;;) {
    const waiting = results.flatMap((r, i) => (r.outcome === 'held' ? [i] : []));
    if (waiting.length === 0) return results;
    const again = await applyChanges(
      trx,
      waiting.map((i) => ({ ...incoming[i]!, held })),
      deps,
    );
    waiting.forEach((i, k) => {
      results[i] = again[k]!;
    });
    if (again.every((r) => r.outcome === 'held')) return results;
  }
}

async function* nothing(): AsyncGenerator<Incoming> {}

/** Tries the changes held by earlier requests and runs again (an ingest of no input); its summary. */
export function retryHeldChanges(db: Kysely<Database>, deps: IngestDeps): Promise<IngestSummary> {
  return ingestStream(db, nothing(), deps);
}

/**
 * Applies the changes of one request in one transaction (docs/ingest.md) and answers with each
 * change's result. With an Idempotency-Key, the answer is stored in the same transaction: the key
 * sent again with the same body within IDEMPOTENCY_TTL_MS gets that answer back (`replayed`) and
 * applies nothing; with another body, 409 idempotency_key_reused. Two requests racing with one key
 * cannot both apply: the second's insert of the key waits for the first's commit, then finds it,
 * rolls back and answers with the first's answer. After a request that applied a change, changes
 * held by earlier requests or runs are tried again, as `svc ingest` does after its input.
 */
export async function applyRequestChanges(
  db: Kysely<Database>,
  incoming: readonly Incoming[],
  deps: IngestDeps,
  idempotency?: Idempotency,
): Promise<{ answer: ChangesAnswer; replayed: boolean }> {
  const since = new Date(deps.clock().getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (idempotency) {
      const stored = await findIngestRequest(db, idempotency.key, since);
      if (stored && stored.bodySha256 !== idempotency.bodySha256) {
        throw new AppError('idempotency_key_reused', 'this Idempotency-Key was sent with another body; use a new key for a new batch');
      }
      if (stored) return { answer: JSON.parse(stored.answer) as ChangesAnswer, replayed: true };
    }
    const trx = await db.startTransaction().execute();
    let answer: ChangesAnswer;
    try {
      answer = answerOf(await applyOwn(trx, incoming, deps));
      if (idempotency) {
        await purgeIngestRequests(trx, since);
        const saved = await saveIngestRequest(
          trx,
          idempotency.key,
          { bodySha256: idempotency.bodySha256, answer: JSON.stringify(answer) },
          deps.clock().toISOString(),
        );
        if (!saved) {
          await trx.rollback().execute();
          continue;
        }
      }
      await trx.commit().execute();
    } catch (err) {
      await trx.rollback().execute();
      throw err;
    }
    if (answer.applied > 0) await retryHeldChanges(db, deps);
    return { answer, replayed: false };
  }
  throw new AppError('idempotency_key_reused', 'another request with this Idempotency-Key is being answered; send it again shortly');
}
