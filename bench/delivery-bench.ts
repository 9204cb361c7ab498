// Delivery throughput: signed deliveries per second from the outbox to a local receiver (in its
// own process) that answers 200 at once, against a reference measured in the same run: the same
// signed POSTs at the same concurrency with no store at all. Run: npm run bench:delivery
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import pLimit from 'p-limit';
import { loadConfig } from '../src/config/config.ts';
import { openStore } from '../src/store/connect.ts';
import { migrateToLatest } from '../src/store/migrator.ts';
import { insertOutboxEvents } from '../src/store/repositories/outbox-repo.ts';
import { deliverDue } from '../src/sync/delivery/run-delivery.ts';
import { deliveryDepsFromConfig } from '../src/sync/delivery/delivery-deps.ts';
import { deliveryHeaders } from '../src/sync/signing.ts';
import { BENCH_SECRET as SECRET, benchBody, benchEvent, seedBenchFleet } from './support/bench-fleet.ts';
import { startChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { dropStore, freshStore, postgresAvailable } from './support/setup.ts';
import { deliverAllDue, deliverBeside, outboxStore } from './support/outbox-growth.ts';
import { CAP_MS, HANGING, HANGING_EVENTS, HEALTHY_EVENTS, starvationCase } from './support/starvation.ts';
import { deliverersRound, idleDelivererCpu, type DeliverersRound } from './support/deliverers.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const PARTNERS = 10;
const NOW = new Date().toISOString();
const config = loadConfig(process.env, { allowInsecureWebhooks: true });

const bodyOf = (eventId: string, partnerId: string, i: number) => benchBody(eventId, partnerId, i, NOW);

const BARE_ENDPOINT = {
  endpointId: 'whe_bare',
  partnerId: 'ptn_bare',
  url: '',
  subscribedEvents: [],
  secret: SECRET,
  status: 'active' as const,
  createdAt: NOW,
  updatedAt: NOW,
};

/** The reference: sign and POST the same number of bodies at the same concurrency, storing nothing. */
async function bare(receiverUrl: string): Promise<number> {
  const overall = pLimit(Math.min(config.webhookConcurrency, PARTNERS * config.webhookConcurrencyPerEndpoint));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: EVENTS }, (_, i) =>
      overall(async () => {
        const eventId = `evt_${randomUUID()}`;
        const body = bodyOf(eventId, 'ptn_bare', i);
        const headers = deliveryHeaders(
          BARE_ENDPOINT,
          { eventId, eventType: 'crew.status.changed' },
          new Date(),
          Math.floor(Date.now() / 1000),
          body,
        );
        const res = await fetch(receiverUrl, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(config.webhookTimeoutMs),
        });
        await res.text();
      }),
    ),
  );
  return EVENTS / ((performance.now() - started) / 1000);
}

async function runDialect(dialect: 'sqlite' | 'postgres', receiverUrl: string, reference: number): Promise<Array<string | number>> {
  const name = `svc_bench_delivery_${process.pid}`;
  const { url } = await freshStore(dialect, name);
  const store = await openStore(url, { poolSize: dialect === 'postgres' ? config.webhookConcurrency + 2 : undefined });
  try {
    await migrateToLatest(store.db);
    const partners = Array.from({ length: PARTNERS }, (_, i) => `ptn_bench_${i}`);
    await seedBenchFleet(store.db, partners, () => receiverUrl, NOW);
    await insertOutboxEvents(
      store.db,
      Array.from({ length: EVENTS }, (_, i) => benchEvent(`evt_${randomUUID()}`, partners[i % PARTNERS]!, i, NOW)),
    );
    const deps = deliveryDepsFromConfig(config, { clock: () => new Date(), wallClock: () => new Date() });
    const started = performance.now();
    const report = await deliverDue(store.db, deps, 'run_bench');
    const seconds = (performance.now() - started) / 1000;
    const attempts = await store.db
      .selectFrom('delivery_attempts')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    const rate = report.totals.delivered / seconds;
    const line = [
      dialect,
      EVENTS,
      report.totals.delivered,
      Number(attempts.n),
      seconds.toFixed(1),
      rate.toFixed(0),
      reference.toFixed(0),
      `${Math.round((100 * rate) / reference)}%`,
      `${deps.concurrency} / ${deps.perEndpointConcurrency}`,
    ];
    process.stderr.write(`  ${line.join('  ')}\n`);
    return line;
  } finally {
    await store.close();
    await dropStore(dialect, name);
  }
}

/**
 * Before: the same case run once against main at 48116c6 (the three-file delivery of
 * src/sync/deliver-*.ts, shipped defaults), SQLite, on the machine of the "after" rows. It never
 * ended by itself and was stopped at CAP_MS.
 */
const BEFORE = { healthy: '39 of 57 by 293.3 s, the rest never', run: `not ended; stopped at ${CAP_MS / 1000} s`, pending: 180 };

async function starvation(dialects: Array<'sqlite' | 'postgres'>, base: string): Promise<void> {
  const rows: Array<Array<string | number>> = [
    ['before (main)', 'sqlite', BEFORE.healthy, BEFORE.run, `${BEFORE.pending} pending, 0 lost`],
  ];
  for (const dialect of dialects) {
    const f = await starvationCase(dialect, config, base, deliverDue);
    const healthy = `${f.healthyDelivered} of ${HEALTHY_EVENTS} by ${f.healthyLastS?.toFixed(1) ?? '-'} s`;
    rows.push([
      'after',
      dialect,
      healthy,
      `${f.runS.toFixed(1)} s${f.endedByItself ? ', by itself' : `; stopped at ${CAP_MS / 1000} s`}`,
      `${f.hangingPending} pending, ${f.hangingLost} lost`,
    ]);
    process.stderr.write(`  starvation ${dialect}: ${JSON.stringify(f)}\n`);
  }
  const body = `Command: \`npm run bench:delivery\` (\`BENCH_STARVATION=0\` skips it). Machine: ${machineLine()}. The shipped defaults
(${config.webhookTimeoutMs / 1000} s timeout, ${config.webhookConcurrency} deliveries at once, ${config.webhookConcurrencyPerEndpoint} per endpoint). 10 partners:
${HANGING} endpoints that never answer (the receiver holds the request), ${HANGING_EVENTS} events each, and 1 healthy endpoint answering
200 at once with ${HEALTHY_EVENTS} events, all due; one delivery run. Times are from the run's start. Target (issue 19): the healthy
partner's events all within 30 s, the run ends by itself within 3 minutes, none of the others' events lost (they stay pending,
due again at their next scheduled attempt).

${table(['code', 'store', "healthy partner's events delivered", 'run', "hanging partners' events"], rows)}`;
  writeSection('One partner hanging delays no one else', body);
  console.log(body);
}

const OUTBOX_DUE = Number(process.env.BENCH_OUTBOX_DUE ?? 10_000);
const OUTBOX_SMALL = Number(process.env.BENCH_OUTBOX_SMALL ?? 200_000);
const OUTBOX_LARGE = Number(process.env.BENCH_OUTBOX_LARGE ?? 2_000_000);
const OUTBOX_ROUNDS = Number(process.env.BENCH_OUTBOX_ROUNDS ?? 3);

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Issue 34, item 2: deliveries per second as the outbox grows. Two stores of the same fleet and
 * endpoints, one with OUTBOX_SMALL finished events, one with OUTBOX_LARGE; each round delivers
 * OUTBOX_DUE new events in both, alternating which goes first; the figure is the median of the
 * rounds' ratios.
 */
async function outboxGrowth(dialects: Array<'sqlite' | 'postgres'>, receiverUrl: string): Promise<void> {
  const partners = Array.from({ length: PARTNERS }, (_, i) => `ptn_bench_${i}`);
  const rows: Array<Array<string | number>> = [];
  const only = process.env.BENCH_OUTBOX_STORES?.split(',').map((x) => x.trim());
  for (const dialect of dialects.filter((d) => !only || only.includes(d))) {
    const small = await outboxStore(dialect, OUTBOX_SMALL, partners, receiverUrl, config);
    const large = await outboxStore(dialect, OUTBOX_LARGE, partners, receiverUrl, config);
    try {
      // Not measured: whatever an interrupted run left due, and a first pass over the store's pages.
      for (const store of [small, large]) await deliverAllDue(store, config);
      const rates = { small: [] as number[], large: [] as number[] };
      for (let round = 0; round < OUTBOX_ROUNDS; round++) {
        const order = round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
        for (const which of order) {
          const { rate, delivered } = await deliverBeside(which === 'small' ? small : large, partners, OUTBOX_DUE, config);
          if (delivered !== OUTBOX_DUE) throw new Error(`${dialect} ${which}: delivered ${delivered} of ${OUTBOX_DUE}`);
          rates[which].push(rate);
          process.stderr.write(
            `  outbox ${dialect} ${which} round ${round}: ${rate.toFixed(0)} deliveries/s, load ${loadavg()[0]!.toFixed(1)}\n`,
          );
        }
      }
      // Each round's two runs are back to back: their ratio drifts less with the machine's load than either rate.
      const ratios = rates.large.map((l, round) => l / rates.small[round]!);
      rows.push([
        dialect,
        rates.small.map((r) => r.toFixed(0)).join(', '),
        rates.large.map((r) => r.toFixed(0)).join(', '),
        ratios.map((r) => `${Math.round(100 * r)}%`).join(', '),
        `${Math.round(100 * median(ratios))}%`,
      ]);
    } finally {
      await small.close();
      await large.close();
    }
  }
  const body = `Command: \`npm run bench:delivery\` (\`BENCH_OUTBOX=only\` runs this case alone, \`BENCH_OUTBOX=0\` skips it;
\`BENCH_OUTBOX_SMALL\`, \`BENCH_OUTBOX_LARGE\`, \`BENCH_OUTBOX_DUE\`, \`BENCH_OUTBOX_ROUNDS\`, \`BENCH_OUTBOX_STORES\`). Machine: ${machineLine()}; load average
${loadavg()[0]!.toFixed(1)} when it ended. Two stores of the same ${PARTNERS} partners and endpoints (the receiver answers 200 at
once), the shipped concurrency (${config.webhookConcurrency} overall, ${config.webhookConcurrencyPerEndpoint} per endpoint): one whose outbox holds
${OUTBOX_SMALL.toLocaleString('en')} finished events (delivered, one in 20 dead, each with its attempt), one with
${OUTBOX_LARGE.toLocaleString('en')}, as weeks of a large fleet's delivery leave it (kept in \`.bench/\` and in Postgres databases
\`svc_bench_outbox_<n>\` across runs). Each of ${OUTBOX_ROUNDS} rounds adds ${OUTBOX_DUE.toLocaleString('en')} due events to each and delivers
them with one delivery stage, alternating which store goes first. Target (issue 34): the large outbox's rate within 15%
of the small one's (the median of the rounds' ratios at least 85%).

${table(['store', `deliveries/s, ${OUTBOX_SMALL.toLocaleString('en')} finished`, `deliveries/s, ${OUTBOX_LARGE.toLocaleString('en')} finished`, 'large ÷ small, each round', 'median'], rows)}`;
  writeSection('Delivery as the outbox grows', body);
  console.log(body);
}

const DELIVERERS = (process.env.BENCH_DELIVERERS_COUNTS ?? '1,2,3').split(',').map(Number);
const DELIVERERS_EVENTS = Number(process.env.BENCH_DELIVERERS_EVENTS ?? 10_000);
const DELIVERERS_PARTNERS = 16;
const DELIVERERS_ROUNDS = Number(process.env.BENCH_DELIVERERS_ROUNDS ?? 2);
/** How long the receiver takes to answer, one case each: 0 (at once, CPU-bound) and 50 ms (as partners' endpoints do, waiting-bound). */
const DELIVERERS_WAITS = (process.env.BENCH_DELIVERERS_WAIT_MS ?? '0,50').split(',').map(Number);
/** Another checkout's launcher (its bin/svc), run in each round beside this one's, the two alternating. */
const DELIVERERS_REFERENCE = process.env.BENCH_DELIVERERS_REFERENCE;

/** The rounds of one receiver case, by build and count of processes, and one idle process's CPU by build. */
interface DeliverersCase {
  waitMs: number;
  rounds: Map<string, DeliverersRound[]>;
  idleCpu: Map<string, number>;
}

/**
 * Issue 34, item 4: 1, 2 and 3 `svc sync --deliver-only` processes started together on one
 * Postgres outbox of DELIVERERS_EVENTS due events, the receiver answering after `waitMs`; rounds
 * alternate the order of the counts (and, with a reference, which build goes first).
 */
async function deliverersCase(receiverUrl: string, waitMs: number, builds: readonly string[]): Promise<DeliverersCase> {
  const name = `svc_bench_deliverers_${process.pid}`;
  const { url } = await freshStore('postgres', name);
  const store = await openStore(url);
  const partners = Array.from({ length: DELIVERERS_PARTNERS }, (_, i) => `ptn_bench_${i}`);
  const env = {
    SVC_WEBHOOK_CONCURRENCY: String(config.webhookConcurrency),
    SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(config.webhookConcurrencyPerEndpoint),
  };
  const endpointUrl = waitMs > 0 ? receiverUrl.replace(/\/hook$/, `/wait/${waitMs}/hook`) : receiverUrl;
  const rounds = new Map<string, DeliverersRound[]>();
  const idleCpu = new Map<string, number>();
  try {
    await migrateToLatest(store.db);
    await seedBenchFleet(store.db, partners, () => endpointUrl, NOW);
    // The first start also builds a checkout whose build is stale: not counted.
    for (const svc of builds) await idleDelivererCpu(svc, url, env);
    for (const svc of builds) idleCpu.set(svc, await idleDelivererCpu(svc, url, env));
    for (let round = 0; round < DELIVERERS_ROUNDS; round++) {
      for (const n of round % 2 === 0 ? DELIVERERS : [...DELIVERERS].reverse()) {
        for (const svc of round % 2 === 0 ? builds : [...builds].reverse()) {
          for (const t of ['delivery_attempts', 'outbox_events', 'endpoint_send_slots'] as const) await store.db.deleteFrom(t).execute();
          await insertOutboxEvents(
            store.db,
            Array.from({ length: DELIVERERS_EVENTS }, (_, i) => benchEvent(`evt_${randomUUID()}`, partners[i % partners.length]!, i, NOW)),
          );
          await sql`vacuum analyze outbox_events`.execute(store.db);
          const r = await deliverersRound(svc, store, url, n, env);
          if (r.delivered !== DELIVERERS_EVENTS) throw new Error(`${n} deliverers delivered ${r.delivered} of ${DELIVERERS_EVENTS}`);
          const key = `${svc}\u0000${n}`;
          rounds.set(key, [...(rounds.get(key) ?? []), r]);
          process.stderr.write(
            `  deliverers ${svc} ${n}, receiver ${waitMs} ms, round ${round}: ${r.rate.toFixed(0)} deliveries/s (${r.perProcess.join(' + ')}), ` +
              `${r.cpuSeconds.toFixed(1)} s CPU, machine ${Math.round(100 * r.machineBusy)}% busy, load ${loadavg()[0]!.toFixed(1)}\n`,
          );
        }
      }
    }
  } finally {
    await store.close();
    await dropStore('postgres', name);
  }
  return { waitMs, rounds, idleCpu };
}

/** The table rows of one case: each build's rate for each count of processes, against its own rate with the first count. */
function deliverersRows(c: DeliverersCase, builds: readonly string[]): Array<Array<string | number>> {
  return builds.flatMap((svc) => {
    const one = median(c.rounds.get(`${svc}\u0000${DELIVERERS[0]}`)!.map((r) => r.rate));
    return DELIVERERS.map((n) => {
      const rs = c.rounds.get(`${svc}\u0000${n}`)!;
      const rate = median(rs.map((r) => r.rate));
      const cpuMs = median(rs.map((r) => (1000 * (r.cpuSeconds - n * c.idleCpu.get(svc)!)) / r.delivered));
      return [
        c.waitMs > 0 ? `after ${c.waitMs} ms` : 'at once',
        svc === 'bin/svc' ? 'this checkout' : 'reference',
        n,
        rs.map((r) => r.rate.toFixed(0)).join(', '),
        rate.toFixed(0),
        (rate / one).toFixed(2),
        cpuMs.toFixed(2),
        rs.map((r) => `${Math.round(100 * r.machineBusy)}%`).join(', '),
      ];
    });
  });
}

/** Every receiver case of DELIVERERS_WAITS, written as one section of the results. */
async function deliverers(receiverUrl: string): Promise<void> {
  const builds = DELIVERERS_REFERENCE ? ['bin/svc', DELIVERERS_REFERENCE] : ['bin/svc'];
  const cases: DeliverersCase[] = [];
  for (const waitMs of DELIVERERS_WAITS) cases.push(await deliverersCase(receiverUrl, waitMs, builds));
  const rows = cases.flatMap((c) => deliverersRows(c, builds));
  const idle = cases.map((c) => builds.map((svc) => c.idleCpu.get(svc)!.toFixed(2)).join(' s and ')).join(' s, ');
  const body = `Command: \`BENCH_DELIVERERS=only npm run bench:delivery\` (\`BENCH_DELIVERERS=0\` skips it; \`BENCH_DELIVERERS_COUNTS\`,
\`BENCH_DELIVERERS_EVENTS\`, \`BENCH_DELIVERERS_ROUNDS\`, \`BENCH_DELIVERERS_WAIT_MS\`; \`BENCH_DELIVERERS_REFERENCE=<checkout>/bin/svc\` runs another build in each round
beside this one, the two alternating). Machine: ${machineLine()}; load average ${loadavg()[0]!.toFixed(1)} when it ended. Postgres;
${DELIVERERS_EVENTS.toLocaleString('en')} due events over ${DELIVERERS_PARTNERS} partners' endpoints; the receiver, in its own process, answers 200 at once
(the CPU-bound case) or after a fixed wait (${DELIVERERS_WAITS.filter((w) => w > 0).join(', ')} ms: the waiting-bound case, as partners' endpoints answer);
that many \`svc sync --deliver-only\` processes started together, each with the shipped concurrency
(${config.webhookConcurrency} overall, ${config.webhookConcurrencyPerEndpoint} per endpoint over all processes). The rate is over the span from the first stored
attempt to the last (start-up left out); ${DELIVERERS_ROUNDS} rounds, alternating the order of the counts, median shown. CPU per
delivery is the svc processes' user and system time less one idle process's start-up (${idle} s) each; Postgres's and
the receiver's CPU come on top. "Machine busy" is every core's busy share over the round (/proc/stat): near 100%, the
machine, not svc, bounds the rate, and a process more can only share it.

${table(['receiver answers', 'build', 'processes', 'deliveries/s, each round', 'median', '÷ 1 process', 'svc CPU ms per delivery', 'machine busy'], rows)}`;
  writeSection('Several deliverers on one outbox', body);
  console.log(body);
}

const receiver = await startChild([], 'bench/support/receiver-child.ts');
const receiverUrl = `http://127.0.0.1:${receiver.port}/hook`;
try {
  const load = loadavg()[0]!.toFixed(1);
  const rows: Array<Array<string | number>> = [];
  const dialects: Array<'sqlite' | 'postgres'> = (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite'];
  if (process.env.BENCH_DELIVERERS === 'only') {
    await deliverers(receiverUrl);
    await receiver.stop();
    process.exit(0);
  }
  if (process.env.BENCH_OUTBOX === 'only') {
    await outboxGrowth(dialects, receiverUrl);
    await receiver.stop();
    process.exit(0);
  }
  for (const dialect of dialects) rows.push(await runDialect(dialect, receiverUrl, await bare(receiverUrl)));
  const body = `Command: \`npm run bench:delivery\` (\`BENCH_EVENTS\` to change the count). Machine: ${machineLine()}; load average ${load}
when it started. ${EVENTS.toLocaleString('en')} pending events over ${PARTNERS} partners' endpoints, delivered by one
\`svc sync\` delivery stage (claim in batches, sign with a fresh timestamp, POST, store the attempt, mark delivered) to a
receiver in another process on loopback that answers 200 at once. "bare POSTs/s" is the reference, measured just before each
store's run: the same signed POSTs at the same concurrency, with no store.

${table(['store', 'events', 'delivered', 'attempts stored', 'wall s', 'deliveries/s', 'bare POSTs/s', 'svc ÷ bare', 'concurrency overall / per endpoint'], rows)}`;
  writeSection('Delivery throughput', body);
  console.log(body);
  if (process.env.BENCH_STARVATION !== '0') await starvation(dialects, `http://127.0.0.1:${receiver.port}`);
  if (process.env.BENCH_OUTBOX !== '0') await outboxGrowth(dialects, receiverUrl);
  if (process.env.BENCH_DELIVERERS !== '0' && dialects.includes('postgres')) await deliverers(receiverUrl);
} finally {
  await receiver.stop();
}
