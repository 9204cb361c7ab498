// Checking an ingested record (docs/ingest.md, "Speed"): superstruct's validate against
// passesStruct (src/domain/struct-passes.ts) on the bench's crew and documents, CPU time of each in
// alternation, and the ratio pair by pair. Run: npx tsx bench/record-check.ts
import { loadavg } from 'node:os';
import { validate, type Struct } from 'superstruct';
import { passesStruct } from '../src/domain/struct-passes.ts';
import { CrewFixture, DocumentFixture } from '../src/services/fixtures/schema.ts';
import { crewRecord, documentRecord, DOCS_PER_CREW } from './support/ingest-feed.ts';

const CREW = 200;
const PAIRS = 6;
const crew = Array.from({ length: CREW }, (_, i) => crewRecord(i));
const documents = Array.from({ length: CREW * DOCS_PER_CREW }, (_, i) => documentRecord(Math.floor(i / DOCS_PER_CREW), i % DOCS_PER_CREW));

const CREW_STRUCT = CrewFixture as unknown as Struct<unknown, unknown>;
const DOCUMENT_STRUCT = DocumentFixture as unknown as Struct<unknown, unknown>;
const checks = {
  validate: (value: unknown, struct: Struct<unknown, unknown>) => validate(value, struct)[0] === undefined,
  passesStruct: (value: unknown, struct: Struct<unknown, unknown>) => passesStruct(value, struct),
};

/** CPU milliseconds of five passes over every record; throws if a record is found invalid. */
function cpuMs(check: (value: unknown, struct: Struct<unknown, unknown>) => boolean): number {
  const started = process.cpuUsage();
  for (let pass = 0; pass < 5; pass++) {
    for (const c of crew) if (!check(c, CREW_STRUCT)) throw new Error('a bench crew record is not valid');
    for (const d of documents) if (!check(d, DOCUMENT_STRUCT)) throw new Error('a bench document is not valid');
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

// Warm-up, not counted.
for (let i = 0; i < 3; i++) {
  cpuMs(checks.validate);
  cpuMs(checks.passesStruct);
}
const ratios: number[] = [];
for (let pair = 1; pair <= PAIRS; pair++) {
  const load = loadavg()[0]!.toFixed(1);
  const before = cpuMs(checks.validate);
  const after = cpuMs(checks.passesStruct);
  ratios.push(after / before);
  process.stdout.write(
    `pair ${pair}: validate ${before.toFixed(0)} ms, passesStruct ${after.toFixed(0)} ms, ratio ${(after / before).toFixed(3)}, load ${load}\n`,
  );
}
ratios.sort((a, b) => a - b);
process.stdout.write(
  `median ratio ${((ratios[PAIRS / 2 - 1]! + ratios[PAIRS / 2]!) / 2).toFixed(3)} (${crew.length + documents.length} records, 5 passes a run)\n`,
);
