// How long a command takes from exec to exit, against `node --import tsx` of an empty file (the
// cost of starting Node with tsx at all). Every case runs BENCH_RUNS times (default 15), the cases
// taking turns so a load that comes and goes falls on all of them alike; the median is reported.
// BENCH_BEFORE=<another checkout>/bin/svc measures that launcher too, in the same run (the code
// before a change). Run: npm run bench:cli-start
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineLine, table, writeSection } from './support/report.ts';

const SVC = fileURLToPath(new URL('../bin/svc', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BEFORE = process.env.BENCH_BEFORE;

interface Case {
  name: string;
  file: string;
  args: string[];
  env?: Record<string, string>;
}

function exec(c: Case): number {
  const started = performance.now();
  const res = spawnSync(c.file, c.args, { env: { ...process.env, ...c.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - started;
  if (res.status !== 0) throw new Error(`${c.name} exited ${res.status}: ${res.stderr.toString()}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'svc-cli-start-'));
try {
  const empty = join(dir, 'empty.ts');
  writeFileSync(empty, '');
  const store = `sqlite:${join(dir, 'svc.db')}`;
  // Builds .build/ if it is stale, so no measured run pays for a build.
  for (const launcher of [SVC, ...(BEFORE ? [BEFORE] : [])]) {
    const res = spawnSync(launcher, ['db', 'migrate', '--db', store], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${launcher} db migrate: ${res.stderr}`);
  }
  const commands = (launcher: string, label: string, env?: Record<string, string>): Case[] => [
    { name: `${label} svc --help`, file: launcher, args: ['--help'], env },
    { name: `${label} svc admin list-keys (SQLite)`, file: launcher, args: ['admin', 'list-keys', '--db', store], env },
    { name: `${label} svc db status (SQLite)`, file: launcher, args: ['db', 'status', '--db', store], env },
  ];
  const cases: Case[] = [
    { name: 'node --import tsx of an empty file (reference)', file: process.execPath, args: ['--import', TSX, empty] },
    ...commands(SVC, 'compiled:'),
    ...commands(SVC, 'from source (SVC_FROM_SOURCE=1):', { SVC_FROM_SOURCE: '1' }),
    ...(BEFORE ? commands(BEFORE, 'before:') : []),
  ];
  const times = cases.map(() => [] as number[]);
  const loads: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    cases.forEach((c, i) => times[i]!.push(exec(c)));
    loads.push(loadavg()[0]!);
  }
  const reference = median(times[0]!);
  const rows = cases.map((c, i) => [
    c.name,
    median(times[i]!).toFixed(0),
    Math.min(...times[i]!).toFixed(0),
    `${(median(times[i]!) / reference).toFixed(2)}x`,
  ]);
  const body = `Command: \`${BEFORE ? `BENCH_BEFORE=${BEFORE} ` : ''}npm run bench:cli-start\`. Machine: ${machineLine()}; load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)} during the run.
Wall time from exec to exit of each command, ${RUNS} runs each, the cases taking turns; the ratio is the median against
the median of \`node --import tsx\` of an empty file. "compiled" is what bin/svc runs (the esbuild build in .build/),
"from source" the TypeScript through tsx as the tests run it${BEFORE ? ', "before" the launcher named by BENCH_BEFORE' : ''}.
Targets: \`svc --help\` at most 1.5x, \`svc admin list-keys\` on SQLite at most 2x.

${table(['command', 'median ms', 'fastest ms', '÷ reference'], rows)}`;
  console.log(body);
  writeSection('The command line starting', body);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
