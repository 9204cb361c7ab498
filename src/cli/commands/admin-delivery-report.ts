import type { Command } from 'commander';
import { DEFAULT_REPORT_WINDOW_MS, DELIVERY_P99_TARGET_SECONDS, toDeliveryLevelWire } from '../../domain/delivery-level.ts';
import { wireTime } from '../../domain/clock.ts';
import { deliveryReport } from '../../services/delivery-level/report.ts';
import { windowStart } from '../arguments.ts';
import { printList, type ListRow } from '../output.ts';
import { commandClock, commandConfig, println, withStore, type CliDeps } from '../context.ts';

/** The row of every partner together in the table. */
const ALL = '(all)';

/**
 * `svc admin delivery-report`: the delivery service level per partner over a window ending now
 * (docs/operations.md, "Delivery service level"): a table, or with --json one object.
 */
export function addDeliveryReportCommand(admin: Command, deps: CliDeps): void {
  admin
    .command('delivery-report')
    .description(
      'the delivery service level per partner over a window ending now: events delivered, creation-to-delivery p50 and p99 ' +
        '(seconds), first attempts and the share of them that delivered, events waiting and the age of the oldest; ' +
        `then ${ALL}, every partner together`,
    )
    .option('--since <when>', 'start of the window: a length back from now (24h, 90m, 7d) or an ISO 8601 date or date-time', windowStart, {
      lengthMs: DEFAULT_REPORT_WINDOW_MS,
    })
    .option('--json', 'print one JSON object: the window, the target, each partner, and all together')
    .action(async (opts: { since: ReturnType<typeof windowStart>; json?: boolean }, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      const now = commandClock(deps, config)();
      const since = 'at' in opts.since ? opts.since.at : new Date(now.getTime() - opts.since.lengthMs).toISOString();
      const report = await withStore(config, (store) => deliveryReport(store.db, { since, until: now.toISOString() }));
      const window = { since: wireTime(report.window.since), until: wireTime(report.window.until) };
      const partners = report.partners.map(({ partnerId, level }) => ({ partner_id: partnerId, ...toDeliveryLevelWire(level) }));
      if (opts.json) {
        const body = { window, p99_target_seconds: DELIVERY_P99_TARGET_SECONDS, partners, all: toDeliveryLevelWire(report.all) };
        println(deps.stdout, JSON.stringify(body, null, 2));
        return;
      }
      println(deps.stderr, `delivery from ${window.since} to ${window.until}; target: p99 within ${DELIVERY_P99_TARGET_SECONDS} s`);
      const rows: ListRow[] = [...partners, { partner_id: ALL, ...toDeliveryLevelWire(report.all) }];
      printList(deps, rows, { empty: '' });
    });
}
