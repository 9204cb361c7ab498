// The shape check of an ingested change (docs/ingest.md, "Speed"): jsonShapeProblems against
// jsonShapeClean (src/domain/json-shape.ts) on the bench's crew and document changes, parsed, CPU
// time of each in alternation, and the ratio pair by pair. Run: npx tsx bench/shape-check.ts
import { jsonShapeClean, jsonShapeProblems, MAX_JSON_DEPTH } from '../src/domain/json-shape.ts';
import { cpuPairs } from './support/cpu-pairs.ts';
import { crewLines } from './support/ingest-feed.ts';

const CREW = 200;
const REFUSED = ['__proto__'];
const changes = [...crewLines(CREW)].flatMap((chunk) =>
  chunk
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown),
);

/** Ten passes over every change; throws if a change is found refused. */
const tenPasses = (clean: (value: unknown) => boolean) => () => {
  for (let pass = 0; pass < 10; pass++) for (const c of changes) if (!clean(c)) throw new Error('a bench change has a bad shape');
};

cpuPairs(
  ['jsonShapeProblems', 'jsonShapeClean'],
  tenPasses((v) => jsonShapeProblems(v, MAX_JSON_DEPTH, REFUSED).length === 0),
  tenPasses((v) => jsonShapeClean(v, MAX_JSON_DEPTH, REFUSED)),
  6,
  `${changes.length} changes, 10 passes a run`,
);
