import type { Config } from '../config/config.ts';
import { CatalogueCache } from '../services/compliance/catalogue-cache.ts';
import { runDiff } from './diff/run-diff.ts';
import type { DiffStep } from './run-sync.ts';

/**
 * The diff `svc sync` runs before delivery: what each partner may see now against what it was
 * last sent. It writes each page's events and snapshots in one transaction. With `shares` above 1 it
 * splits the partners into that many shares, diffed by it and by `svc sync --diff-worker` processes.
 */
export function fleetDiffStep(
  config: Config,
  onPage?: (crewDone: number, crewKnown: number) => void,
  options: { full?: boolean; shares?: number } = {},
): DiffStep {
  return async (db, ctx) => {
    const clock = () => ctx.now;
    const { results } = await runDiff(
      db,
      {
        clock,
        catalogue: new CatalogueCache(clock),
        windowDays: config.complianceWindowDays,
        dryRun: ctx.dryRun,
        full: options.full,
        runId: ctx.runId,
        shares: options.shares,
        signal: ctx.signal,
        phases: ctx.phases,
        spans: ctx.spans,
      },
      onPage,
    );
    const total = (events: Record<string, number>) => Object.values(events).reduce((sum, count) => sum + count, 0);
    return {
      created: new Map(results.map((result) => [result.partnerId, total(result.events)])),
      baselines: results.filter((result) => result.baseline).map((result) => result.partnerId),
      planned: results.flatMap((result) =>
        (result.planned ?? []).map((event) => ({
          partnerId: result.partnerId,
          eventType: event.type,
          crewUniqueId: event.crewUniqueId,
          note: typeof event.data.document_id === 'string' ? event.data.document_id : undefined,
        })),
      ),
    };
  };
}
