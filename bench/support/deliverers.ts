import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/store/connect.ts';

/** What one `svc sync --deliver-only` process did, from its `--json` summary and /usr/bin/time. */
export interface DelivererRun {
  delivered: number;
  cpuSeconds: number;
}

/** What `n` deliverers started together did to one outbox. */
export interface DeliverersRound {
  processes: number;
  delivered: number;
  /** From the first attempt stored to the last: the time the processes were delivering. */
  seconds: number;
  rate: number;
  perProcess: number[];
  /** User and system CPU of the svc processes, their start-up included. */
  cpuSeconds: number;
  /** Of every core of the machine over the same span, from /proc/stat: near 100%, the machine was the bound. */
  machineBusy: number;
}

/** Busy and total jiffies of every core, from /proc/stat (Linux). */
function cpuJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  // idle and iowait
  return { busy: total - fields[3]! - fields[4]!, total };
}

/** `<svc> sync --deliver-only --json` on `url` in its own process, timed by /usr/bin/time. */
async function deliverer(svc: string, url: string, env: Record<string, string>): Promise<DelivererRun> {
  const timing = join(mkdtempSync(join(tmpdir(), 'bench-deliverer-')), 'time');
  const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', timing, svc, 'sync', '--deliver-only', '--json', '--db', url], {
    env: { ...process.env, SVC_ALLOW_INSECURE_WEBHOOKS: '1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`svc sync --deliver-only exited ${code}: ${out.slice(0, 500)}`);
  const summary = JSON.parse(out) as { totals: { delivered: number } };
  const [user, system] = readFileSync(timing, 'utf8').trim().split(/\s+/).map(Number);
  rmSync(timing, { force: true, recursive: true });
  return { delivered: summary.totals.delivered, cpuSeconds: user! + system! };
}

/**
 * Starts `n` deliverers at once on the store's outbox and waits for all; the rate is over the span
 * of the attempts they stored (start-up, which a long-running fleet pays once, left out).
 */
export async function deliverersRound(
  svc: string,
  store: Store,
  url: string,
  n: number,
  env: Record<string, string>,
): Promise<DeliverersRound> {
  const before = cpuJiffies();
  const runs = await Promise.all(Array.from({ length: n }, () => deliverer(svc, url, env)));
  const after = cpuJiffies();
  const span = await store.db
    .selectFrom('delivery_attempts')
    .select((eb) => [
      eb.fn.min('attempted_at').as('first'),
      eb.fn.max('attempted_at').as('last'),
      eb.fn.countAll<string | number>().as('n'),
    ])
    .executeTakeFirstOrThrow();
  const seconds = (Date.parse(String(span.last)) - Date.parse(String(span.first))) / 1000;
  const delivered = runs.reduce((sum, r) => sum + r.delivered, 0);
  if (Number(span.n) !== delivered) throw new Error(`${delivered} delivered but ${span.n} attempts stored`);
  return {
    processes: n,
    delivered,
    seconds,
    rate: delivered / seconds,
    perProcess: runs.map((r) => r.delivered),
    cpuSeconds: runs.reduce((sum, r) => sum + r.cpuSeconds, 0),
    machineBusy: (after.busy - before.busy) / (after.total - before.total),
  };
}

/** The CPU one deliverer spends starting and ending with nothing due (subtracted per process from a round's). */
export async function idleDelivererCpu(svc: string, url: string, env: Record<string, string>): Promise<number> {
  return (await deliverer(svc, url, env)).cpuSeconds;
}
