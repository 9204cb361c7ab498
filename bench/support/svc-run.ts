// One `svc sync --json` (the real command line, bin/svc) in its own process under GNU time, so its
// summary, wall time and peak RSS are its own. The summary's shape: src/cli/sync-json.ts.
import { spawn } from 'node:child_process';

/** The summary `svc sync --json` prints of a run (`--diff-worker` prints another: bench/diff-split.ts). */
export interface SyncJson {
  totals: { created: number; delivered: number; budget_spent: number };
  phases: Record<string, number>;
  exit_code: number;
}

/** What the benches read of one run. */
export interface SvcRun<S = SyncJson> {
  wallS: number;
  maxRssMb: number;
  /** User and system CPU seconds of the process. */
  cpuS: number;
  summary: S;
}

/** Runs `bin/svc sync --json …args` on `url` with the clock at `now`; rejects unless it exits 0. */
export async function svcSync<S = SyncJson>(
  url: string,
  now: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<SvcRun<S>> {
  const child = spawn('/usr/bin/time', ['-f', 'maxrss_kb %M cpu_s %U %S', 'bin/svc', 'sync', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SVC_DATABASE_URL: url,
      SVC_NOW: now,
      SVC_NOW_ALLOW_WRITES: '1',
      SVC_ALLOW_INSECURE_WEBHOOKS: '1',
      SVC_LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallS = (performance.now() - started) / 1000;
  const rss = /maxrss_kb (\d+) cpu_s ([\d.]+) ([\d.]+)/.exec(err);
  if (code !== 0 || !rss) throw new Error(`svc sync ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`);
  const summary = JSON.parse(out) as S;
  return { wallS, maxRssMb: Number(rss[1]) / 1024, cpuS: Number(rss[2]) + Number(rss[3]), summary };
}
