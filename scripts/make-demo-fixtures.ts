/**
 * Generates the demo data set: `fixtures/demo.json` and the small real files it references under
 * `fixtures/files/` (minimal PDFs, PNG and JPEG images). Deterministic: seeded random streams, no
 * clock; every date is relative to a fixed reference date. The generator lives in
 * scripts/demo-fixtures/ (tables as JSON in its data/); test/fixtures/demo-fixtures.test.ts
 * keeps the committed output equal to what it generates. Run:
 *
 *   node --import tsx scripts/make-demo-fixtures.ts [--out DIR] [--summary]
 *
 * After writing, the output is checked (the fixture schema, the loader's reference checks, file
 * paths); any failure is printed and the exit code is 1. `--summary` prints the interesting cases
 * (document states, consents, and what the evaluator answers per assignment on the reference date).
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDemo } from './demo-fixtures/check.ts';
import { generateDemo, writeDemo } from './demo-fixtures/generate.ts';
import { summary } from './demo-fixtures/summary.ts';

function dirSize(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    const s = statSync(p);
    total += s.isDirectory() ? dirSize(p) : s.size;
  }
  return total;
}

function main(args: readonly string[]): void {
  const outIdx = args.indexOf('--out');
  const outDir = resolve(outIdx >= 0 && args[outIdx + 1] ? args[outIdx + 1]! : fileURLToPath(new URL('../fixtures', import.meta.url)));
  const demo = generateDemo();
  writeDemo(demo, outDir);
  const errors = checkDemo(JSON.parse(demo.json), outDir);
  console.log(
    `wrote ${join(outDir, 'demo.json')} (${demo.json.length} bytes) and ${join(outDir, 'files')} (${dirSize(join(outDir, 'files'))} bytes)`,
  );
  if (args.includes('--summary')) console.log(summary(demo.data, demo.built));
  if (errors.length > 0) {
    for (const e of errors) console.error(`FAIL ${e}`);
    process.exitCode = 1;
  } else {
    console.log('check: schema, references, identifiers and files OK');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
