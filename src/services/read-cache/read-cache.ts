/**
 * The read cache: every cache of the service's reads, its keys and when it goes stale, in one
 * place above the use cases. A use case takes the reads it needs as plain functions (the
 * compliance check `crewAccess` and `evaluate`, the vessel matrix `matrix`); the HTTP app hands it
 * this cache's versions, the CLI the store's (`noReadCache`, which holds nothing).
 *
 * The contract: a value is built once per data version. The data version
 * (src/services/data-version.ts) moves with every write change capture records (crew, documents,
 * assignments, consents, vessels, contract vessels, partners' scopes, the catalogue, webhook
 * endpoints), by this process, another one or plain SQL. A value built at version V is the value
 * for the same input for as long as the store is at V; the key is the read's whole typed input
 * (keys.ts), so a field added to an input is in its key. The version is read once per call, before
 * anything the value is built from; calls waiting at the same time share one read started after
 * they all arrived (coalesced-data-version.ts), so each still sees every write committed before it
 * began. On Postgres, while the version cannot be given safely (a transaction older than the newest
 * change is still running), nothing is served from or put in a cache. Errors are never kept.
 * Everything held is dropped when a newer version is seen, except matrices (below). What is held,
 * per process, least recently used out first:
 *
 * - the bytes and ETag of the data-versioned GETs (fleet, vessels, profile, documents list;
 *   src/http/conditional.ts, body-cache.ts): 2,000 answers and 32 MiB, an answer over 4 MiB never.
 *   Authentication, the rate limit, scopes, query validation and the audit row run for every call.
 *   No held answer carries a link that expires: the download link, the compliance check's
 *   `download_path` and files are built on every call, and a route that adds such a link must not
 *   use the data ETag;
 * - the compliance check's fleet-and-consent answers (5,000) and live evaluations (1,000), at the
 *   call's version: a withdrawn consent or a crew member leaving the fleet moves the version and
 *   refuses the next call. Scopes are checked, `as_of` taken and links signed on every call;
 * - vessel matrices (10,000 rows), kept across versions: after a change, the captured changes since
 *   the kept matrix say which crew members to read and evaluate again (a document changed; also
 *   anyone whose assignment or vessel facts differ, or who is new), and whether the roster must be
 *   read again (any change but to documents, crew or webhook endpoints). When they cannot all be
 *   read (sync pruned the log, more than CHANGES_READ), it is built afresh.
 *
 * test/services/{access,evaluation,matrix}-reuse.test.ts, compliance-check-reuse.test.ts and
 * test/http/body-cache.test.ts hold every cached read equal to the store's after writes of every
 * kind, on both stores.
 */
import type { Clock } from '../../domain/clock.ts';
import type { Db } from '../../store/database.ts';
import { CatalogueCache } from '../compliance/catalogue-cache.ts';
import { evaluateRead, type LiveEvaluation } from '../compliance/check-compliance.ts';
import { changesBetween, compareDataVersions } from '../data-version.ts';
import type { CheckReads } from '../read-api/compliance.ts';
import { buildMatrix, storeMatrix, type ComplianceMatrixWire, type MatrixInput, type ReadMatrix } from '../read-api/compliance-matrix.ts';
import type { EvaluationDocumentWithFile } from '../../store/repositories/documents-repo.ts';
import { storeCheckAccess, type CrewAccess } from '../visibility/access.ts';
import { BodyCache, type HeldAnswer } from './body-cache.ts';
import { coalescedDataVersion } from './coalesced-data-version.ts';
import { answerKey, crewAccessKey, evaluationKey, matrixKey, type AnswerRequest } from './keys.ts';
import { MatrixStates } from './matrix-states.ts';
import { VersionedCache } from './versioned-cache.ts';

/** Cached reads; `noReadCache` is the one that holds nothing. */
export interface ReadCache {
  /** The requirement catalogue, read again at most every 30 s. */
  catalogue: CatalogueCache;
  /** The compliance check's reads, at the data version read now. */
  checkReads(): Promise<CheckReads>;
  /** A vessel's compliance matrix. */
  matrix: ReadMatrix;
  /** The answer held for a data-versioned GET, else what `build` makes (kept, when it makes one). */
  answer(request: AnswerRequest, build: () => Promise<HeldAnswer | undefined>): Promise<HeldAnswer | undefined>;
}

/** Captured tables whose changes leave a vessel's consenting roster, and the fleet it belongs to, as they were. */
const ROSTER_FREE: ReadonlySet<string> = new Set(['documents', 'crew', 'webhook_endpoints']);

/** Changes read to bring a kept matrix up to date; more, and it is built afresh. */
const CHANGES_READ = 2_000;

/** What the cache holds its values in; each made by default, given to bound or watch it (tests, benchmarks). */
export interface ReadCacheStores {
  accesses?: VersionedCache<CrewAccess>;
  evaluations?: VersionedCache<LiveEvaluation>;
  matrices?: MatrixStates<ComplianceMatrixWire>;
  /** The answers of data-versioned GETs; by default 2,000 answers and 32 MiB, null for none. */
  bodies?: BodyCache | null;
}

/** The store's reads, holding nothing: what the CLI and sync use. */
export function noReadCache(db: Db, clock: Clock): ReadCache {
  const reads: CheckReads = { crewAccess: storeCheckAccess(db), evaluate: (input, documents) => evaluateRead(db, input, documents) };
  return {
    catalogue: new CatalogueCache(clock),
    checkReads: () => Promise.resolve(reads),
    matrix: storeMatrix(db),
    answer: (_request, build) => build(),
  };
}

/** The read cache of one app over `db`. */
export function createReadCache(db: Db, clock: Clock, stores: ReadCacheStores = {}): ReadCache {
  const version = coalescedDataVersion(db);
  const accesses = stores.accesses ?? new VersionedCache<CrewAccess>({ maxEntries: 5_000 });
  const evaluations = stores.evaluations ?? new VersionedCache<LiveEvaluation>({ maxEntries: 1_000 });
  // Bounded by rows held (a row keeps its crew member's evaluation): about 20 vessels of 500.
  const matrices = stores.matrices ?? new MatrixStates<ComplianceMatrixWire>(10_000);
  const bodies = stores.bodies === undefined ? new BodyCache() : stores.bodies;
  const plainAccess = storeCheckAccess(db);

  return {
    catalogue: new CatalogueCache(clock),

    async checkReads() {
      const at = await version();
      return {
        async crewAccess(query) {
          // Documents read with an answer serve this call's evaluation only: the answer is held without them.
          let documents: EvaluationDocumentWithFile[] | undefined;
          const access = await accesses.obtain(at, crewAccessKey(query), async () => {
            const { documents: read, ...answer } = await plainAccess(query);
            documents = read;
            return answer;
          });
          return documents ? { ...access, documents } : access;
        },
        evaluate: (input, documents) => evaluations.obtain(at, evaluationKey(input), () => evaluateRead(db, input, documents)),
      };
    },

    async matrix(input: MatrixInput) {
      const at = await version();
      if (at === null) return (await buildMatrix(db, input, null)).matrix;
      const key = matrixKey(input);
      const held = matrices.get(key);
      if (held?.version === at) return held.matrix;
      const changes = held && compareDataVersions(held.version, at) < 0 ? await changesBetween(db, held.version, at, CHANGES_READ) : null;
      const prior =
        held && changes
          ? {
              rows: held.rows,
              matrix: held.matrix,
              dirty: new Set(changes.filter((c) => c.table === 'documents').map((c) => c.crewUniqueId)),
              sameRoster: changes.every((c) => ROSTER_FREE.has(c.table)),
            }
          : null;
      const built = await buildMatrix(db, input, prior);
      matrices.set(key, { version: at, ...built });
      return built.matrix;
    },

    async answer(request, build) {
      const at = bodies ? await version() : null;
      if (at === null) return build();
      const key = answerKey(request);
      const held = bodies!.get(at, key);
      if (held) return held;
      const built = await build();
      if (built) bodies!.set(at, key, built);
      return built;
    },
  };
}
