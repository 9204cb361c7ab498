// Runs tests one at a time, each alone by name, as docs/development.md shows ("Running one test"):
// a test that passes only after the tests before it in its file (it reads what they wrote) fails
// here. Without --all, a random sample: --sample=N files (default 20), one test of each, the seed
// printed so that a failure can be replayed with --seed=S. With --all, every test of the files
// named (or of all). Exits 1 when a test fails alone (printing the command that runs it alone) or
// a file's tests cannot be listed. A run (listing a file, or one test alone) that has not ended
// after --timeout=S seconds (default 600) is stopped, its whole process group, and counts as failed:
// a test that hangs alone fails the check instead of holding it up.
//
//   node scripts/tests-alone.mjs [--sample=N] [--seed=S] [--all] [--jobs=J] [--timeout=S] [test files]
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '../..');
const reporter = join(root, 'scripts/tests-alone-reporter.mjs');
const NO_TEST_MATCHES = '^\\b$';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
};
const all = args.includes('--all');
const sample = option('sample', 20);
const seed = option('seed', Math.floor(Math.random() * 2 ** 31));
const jobs = option('jobs', 2);
const timeoutSeconds = option('timeout', 600);
const named = args.filter((a) => !a.startsWith('-')).map((file) => resolve(file));

/** mulberry32: a small seeded generator, so that a sample can be drawn again from its seed. */
function seededRandom(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seededRandom(seed);
const pick = (list) => list[Math.floor(random() * list.length)];

function testFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Runs `file` through `npm test`'s runner with `pattern`; the tests it reported and its exit code.
 * The runner leads a process group of its own (it starts node --test, which starts the file and
 * its `svc` children), so that a run past the time limit, or this script interrupted, stops it whole.
 */
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of running) process.kill(-child.pid, 'SIGKILL');
    process.exit(130);
  });

function run(file, pattern) {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [join(root, 'scripts/run-tests.mjs'), `--test-reporter=${reporter}`, `--test-name-pattern=${pattern}`, file],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    let out = '';
    let err = '';
    running.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.kill(-child.pid, 'SIGKILL');
    }, timeoutSeconds * 1000);
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      running.delete(child);
      const tests = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      if (timedOut) done({ code: 1, tests, output: `${err}\ntests-alone: stopped after ${timeoutSeconds} s (--timeout)\n` });
      else done({ code, tests, output: err });
    });
  });
}

/**
 * The distinct names of the tests (not suites) of `file`, found by running it with a pattern no
 * test matches; or, when that run fails (the file does not compile or load), what it printed.
 */
async function testNames(file) {
  const { code, tests, output } = await run(file, NO_TEST_MATCHES);
  if (code !== 0) return { failed: output };
  return { names: [...new Set(tests.filter((t) => t.kind === 'test').map((t) => t.name))] };
}

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Runs the test named `name` of `file` alone: passed, failed, or skipped (it skips itself, e.g. without chromium). */
async function runAlone(file, name) {
  const { code, tests, output } = await run(file, `^${escape(name)}$`);
  const ran = tests.filter((t) => t.kind === 'test' && t.name === name && !t.skip);
  if (code !== 0 || tests.some((t) => !t.passed)) return { outcome: 'failed', output };
  return { outcome: ran.length > 0 ? 'passed' : 'skipped', output };
}

async function inTurns(items, work) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (queue.length > 0) await work(queue.shift());
    }),
  );
}

const files = (named.length > 0 ? [...named] : testFilesUnder(join(root, 'test'))).sort();
const chosen = all
  ? files
  : Array.from({ length: Math.min(sample, files.length) }, () => files.splice(Math.floor(random() * files.length), 1)[0]);
const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
const env = process.env.CI === 'true' ? 'CI=true ' : '';
const namedArgs = named.map((file) => ` ${relative(root, file)}`).join('');
if (!all)
  console.log(`tests-alone: seed ${seed} (replay: ${env}node scripts/tests-alone.mjs --seed=${seed} --sample=${sample}${namedArgs})`);

const listed = new Map();
await inTurns(chosen, async (file) => listed.set(file, await testNames(file)));

const counts = { passed: 0, failed: 0, skipped: 0 };
const cases = [];
// Drawn in the order the files were chosen, not the order their listing finished: one seed, one sample.
for (const file of chosen) {
  const { names, failed } = listed.get(file);
  if (failed !== undefined) {
    counts.failed += 1;
    console.log(`failed  ${relative(root, file)}: its tests could not be listed\n${failed}`);
    continue;
  }
  if (names.length === 0) console.log(`tests-alone: ${relative(root, file)}: no test found`);
  for (const name of all ? names : names.length > 0 ? [pick(names)] : []) cases.push({ file, name });
}
cases.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));

await inTurns(cases, async ({ file, name }) => {
  const { outcome, output } = await runAlone(file, name);
  counts[outcome] += 1;
  console.log(`${outcome.padEnd(7)} ${relative(root, file)} › ${name}`);
  if (outcome === 'failed' && !all) process.stdout.write(output);
  if (outcome === 'failed')
    console.log(`  alone: ${env}npm test -- --test-name-pattern=${shellQuote(`^${escape(name)}$`)} ${relative(root, file)}`);
});
console.log(`tests-alone: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped alone`);
process.exit(counts.failed > 0 ? 1 : 0);
