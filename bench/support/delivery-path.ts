// The delivery path at scale, for bench/explain.ts: the statements one delivery run sends beside an
// outbox of many finished events (bench/support/outbox-growth.ts), once each by shape.
import { loadConfig } from '../../src/config/config.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { startChild } from './child.ts';
import { addDueEvents, deliverAllDue, outboxStore } from './outbox-growth.ts';
import { storeUrl } from './setup.ts';
import { label, type Dialect, type Sent } from './request-path.ts';

export const FINISHED = Number(process.env.EXPLAIN_OUTBOX ?? 2_000_000);
export const DUE = Number(process.env.EXPLAIN_OUTBOX_DUE ?? 2_000);
const PARTNERS = Array.from({ length: 10 }, (_, i) => `ptn_bench_${i}`);

/** A statement's shape: placeholders, lists of them and CASE arms collapsed, so batches of any size count once. */
function shape(text: string): string {
  return text
    .replace(/\$\d+/g, '?')
    .replace(/\(\?(?:, \?)*\)/g, '(…)')
    .replace(/\(…\)(?:, \(…\))+/g, '(…), …')
    .replace(/(?:when \? then (?:cast\(\? as \w+\)|\?)\s*)+/g, 'when … ');
}

export interface DeliveryStatements {
  store: Store;
  /** Every statement the run sent, once per shape, with the parameters of its first sending. */
  sent: Sent[];
  /** Delivers the events left due for the plans (call once the plans are read), then closes the store. */
  finish(): Promise<void>;
}

/**
 * Opens (or fills) the outbox store of FINISHED finished events, records the statements of one
 * delivery run of DUE new events, then adds DUE more due events so that the claim and count
 * statements find work when explained.
 */
export async function recordDelivery(dialect: Dialect): Promise<DeliveryStatements> {
  const config = loadConfig(process.env, { allowInsecureWebhooks: true });
  const receiver = await startChild([], 'bench/support/receiver-child.ts');
  const receiverUrl = `http://127.0.0.1:${receiver.port}/hook`;
  const filled = await outboxStore(dialect, FINISHED, PARTNERS, receiverUrl, config);
  await filled.close();
  const byShape = new Map<string, Sent>();
  let recording = false;
  const store = await openStore(storeUrl(dialect, `svc_bench_outbox_${FINISHED}`), {
    create: false,
    poolSize: dialect === 'postgres' ? config.webhookConcurrency + 2 : undefined,
    log: (e) => {
      // Transaction control (begin, commit) has no plan.
      if (!recording || e.level !== 'query' || !/^\s*(select|with|insert|update|delete)\b/i.test(e.query.sql)) return;
      const key = `${label(e.query.sql)} ${shape(e.query.sql)}`;
      if (!byShape.has(key)) byShape.set(key, { sql: e.query.sql, parameters: e.query.parameters });
    },
  });
  await addDueEvents(store, PARTNERS, DUE);
  recording = true;
  await deliverAllDue(store, config);
  recording = false;
  await addDueEvents(store, PARTNERS, DUE);
  return {
    store,
    sent: [...byShape.values()],
    async finish() {
      try {
        await deliverAllDue(store, config);
      } finally {
        await store.close();
        await receiver.stop();
      }
    },
  };
}
