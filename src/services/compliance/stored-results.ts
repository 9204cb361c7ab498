import type { ComplianceEvaluation } from '../../domain/compliance/index.ts';
import type { Db } from '../../store/database.ts';
import { backgroundWriter, type BackgroundSchedule } from '../plumbing/background-writer.ts';
import { latestEvaluation, saveEvaluation, saveEvaluations, type StoredEvaluation } from '../../store/repositories/compliance-repo.ts';

/** Where live evaluations are kept for the fallback (docs/decisions.md §6), and read back from. */
export interface ComplianceResults {
  save(crewUniqueId: string, vesselId: string, asOf: string, evaluation: ComplianceEvaluation): Promise<void>;
  /** The newest result of a crew member on a vessel. */
  latest(crewUniqueId: string, vesselId: string): Promise<StoredEvaluation | undefined>;
}

/** Each result written before the call returns (the command line). */
export function storedResults(db: Db): ComplianceResults {
  return {
    save: (crewUniqueId, vesselId, asOf, evaluation) => saveEvaluation(db, crewUniqueId, vesselId, asOf, evaluation),
    latest: (crewUniqueId, vesselId) => latestEvaluation(db, crewUniqueId, vesselId),
  };
}

export interface ResultWriter extends ComplianceResults {
  /** Resolves once every result saved before the call is in the store (retrying meanwhile). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is held, trying for at most `deadlineMs`. */
  close(deadlineMs?: number): Promise<void>;
  /** Results saved and not yet written. */
  readonly backlog: number;
}

type Pending = { crewUniqueId: string; vesselId: string; asOf: string; evaluation: ComplianceEvaluation };

/**
 * Results written behind the request (the HTTP compliance check): `save` returns at once, the newest
 * result per crew member and vessel waits in memory and is written with the others every
 * `intervalMs`, in one statement, retried while the store refuses it. `latest` answers from what
 * waits before asking the store, so this process's fallback always sees its newest result. A
 * process killed outright loses at most the last interval's results: the fallback of those crew
 * members is then an earlier result.
 */
export function createResultWriter(
  db: Db,
  options: { intervalMs?: number; logger?: { warn(details: object, message: string): void }; schedule?: BackgroundSchedule } = {},
): ResultWriter {
  const intervalMs = options.intervalMs ?? 200;
  const pending = new Map<string, Pending>();
  let failing = false;
  const keyOf = (crewUniqueId: string, vesselId: string) => `${crewUniqueId}\n${vesselId}`;
  const writer = backgroundWriter({
    intervalMs,
    pending: () => pending.size > 0,
    schedule: options.schedule,
    async writeAll() {
      const batch = [...pending.entries()];
      await saveEvaluations(
        db,
        batch.map(([, r]) => r),
      );
      // A newer result saved during the write stays for the next one.
      for (const [key, r] of batch) if (pending.get(key) === r) pending.delete(key);
      failing = false;
    },
    onError(err) {
      if (!failing)
        options.logger?.warn({ err: (err as Error).message, backlog: pending.size }, 'compliance result write failed; retrying');
      failing = true;
    },
  });

  return {
    async save(crewUniqueId, vesselId, asOf, evaluation) {
      const key = keyOf(crewUniqueId, vesselId);
      const held = pending.get(key);
      if (!held || held.asOf <= asOf) pending.set(key, { crewUniqueId, vesselId, asOf, evaluation });
    },
    async latest(crewUniqueId, vesselId) {
      const held = pending.get(keyOf(crewUniqueId, vesselId));
      return held ? { asOf: held.asOf, evaluation: held.evaluation } : latestEvaluation(db, crewUniqueId, vesselId);
    },
    async flush() {
      await writer.drain(Number.POSITIVE_INFINITY);
    },
    async close(deadlineMs = 10_000) {
      await writer.stop();
      await writer.drain(performance.now() + deadlineMs);
    },
    get backlog() {
      return pending.size;
    },
  };
}
