// Checking an ingested record (docs/ingest.md, "Speed"): superstruct's validate against
// passesStruct (src/domain/struct-passes.ts) on the bench's crew and documents, CPU time of each in
// alternation, and the ratio pair by pair. Run: npx tsx bench/record-check.ts
import { validate, type Struct } from 'superstruct';
import { passesStruct } from '../src/domain/struct-passes.ts';
import { CrewFixture, DocumentFixture } from '../src/services/fixtures/schema.ts';
import { cpuPairs } from './support/cpu-pairs.ts';
import { crewRecord, documentRecord, DOCS_PER_CREW } from './support/ingest-feed.ts';

const CREW = 200;
const crew = Array.from({ length: CREW }, (_, i) => crewRecord(i));
const documents = Array.from({ length: CREW * DOCS_PER_CREW }, (_, i) => documentRecord(Math.floor(i / DOCS_PER_CREW), i % DOCS_PER_CREW));

const CREW_STRUCT = CrewFixture as unknown as Struct<unknown, unknown>;
const DOCUMENT_STRUCT = DocumentFixture as unknown as Struct<unknown, unknown>;

/** Five passes over every record; throws if a record is found invalid. */
const fivePasses = (check: (value: unknown, struct: Struct<unknown, unknown>) => boolean) => () => {
  for (let pass = 0; pass < 5; pass++) {
    for (const c of crew) if (!check(c, CREW_STRUCT)) throw new Error('a bench crew record is not valid');
    for (const d of documents) if (!check(d, DOCUMENT_STRUCT)) throw new Error('a bench document is not valid');
  }
};

cpuPairs(
  ['validate', 'passesStruct'],
  fivePasses((value, struct) => validate(value, struct)[0] === undefined),
  fivePasses((value, struct) => passesStruct(value, struct)),
  6,
  `${crew.length + documents.length} records, 5 passes a run`,
);
