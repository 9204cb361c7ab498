import type { Config } from '../config/config.ts';
import { CatalogueCache } from '../services/compliance/catalogue-cache.ts';
import { runDiff } from './diff/run-diff.ts';
import { RunStopped, type EventSource } from './run-sync.ts';

/**
 * The sources `svc sync` runs before delivery: the fleet diff (what each partner may see now
 * against what it was last sent). It writes each page's events and snapshots in one transaction.
 */
export function syncEventSources(config: Config, onPage?: (crewDone: number) => void, options: { full?: boolean } = {}): EventSource[] {
  return [{
    name: 'fleet-diff',
    async run(db, ctx) {
      const clock = () => ctx.now;
      const results = await runDiff(db, {
        clock, catalogue: new CatalogueCache(clock), windowDays: config.complianceWindowDays, dryRun: ctx.dryRun, full: options.full,
      }, (done) => {
        onPage?.(done);
        if (ctx.signal?.aborted) throw new RunStopped();
      });
      const total = (events: Record<string, number>) => Object.values(events).reduce((a, b) => a + b, 0);
      return {
        created: new Map(results.map((r) => [r.partnerId, total(r.events)])),
        planned: results.flatMap((r) => (r.planned ?? []).map((e) => ({
          partnerId: r.partnerId,
          eventType: e.type,
          crewUniqueId: e.crewUniqueId,
          note: typeof e.data.document_id === 'string' ? e.data.document_id : undefined,
        }))),
      };
    },
  }];
}
