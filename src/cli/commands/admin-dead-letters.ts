import { Command } from 'commander';
import { describeSkips, findDeadLetters, replayDeadLetters, type DeadLetterQuery } from '../../services/dead-letters.ts';
import { deliveryHistory } from '../../services/deliveries.ts';
import { requireKnownIds } from '../../services/known-ids.ts';
import { positiveInt } from '../arguments.ts';
import { JSON_OPTION, printList, timeCell, type ListRow } from '../output.ts';
import { commandConfig, println, withAudit, withStore, type CliDeps } from '../context.ts';

function withFilters(cmd: Command): Command {
  return cmd
    .option('--partner <id>', 'only this partner')
    .option('--event-type <type>', 'only this event type')
    .option('--since <iso>', 'dead-lettered at or after this time (YYYY-MM-DD, midnight UTC, or an ISO 8601 date-time with a time zone)')
    .option('--until <iso>', 'dead-lettered at or before this time (YYYY-MM-DD, midnight UTC, or an ISO 8601 date-time with a time zone)');
}

/** The options withFilters declares, as commander parses them. */
interface FilterOptions {
  partner?: string;
  eventType?: string;
  since?: string;
  until?: string;
}

function query(opts: FilterOptions): DeadLetterQuery {
  return { partnerId: opts.partner, eventType: opts.eventType, since: opts.since, until: opts.until };
}

/** `svc admin replay-dead-letters`, `list-dead-letters` and `deliveries`: added to the admin command. */
export function addDeadLetterCommands(admin: Command, deps: CliDeps): void {
  withFilters(admin.command('replay-dead-letters'))
    .description(
      'put dead-lettered events back for delivery (same event_id, fresh attempt count); the next sync sends them; ' +
        'prints those replayed (event, partner, type, dead at); events the access rule refuses now (fleet, scope, consent, ' +
        'subscription) are skipped and end suppressed',
    )
    .option(...JSON_OPTION)
    .action(async (opts: FilterOptions & { json?: boolean }, cmd: Command) => {
      const route = 'svc admin replay-dead-letters';
      await withStore(commandConfig(deps, cmd), (store) =>
        withAudit(store, deps, route, { partnerId: opts.partner }, async () => {
          await requireKnownIds(store.db, { partnerId: opts.partner });
          const { replayed, skipped } = await replayDeadLetters(store.db, query(opts), deps.clock);
          const rows = replayed.map((d): ListRow => ({
            event_id: d.eventId,
            partner_id: d.partnerId,
            event_type: d.eventType,
            dead_at: timeCell(d.deadAt),
          }));
          printList(deps, rows, { json: opts.json, empty: 'no dead letters match: nothing replayed' });
          if (rows.length > 0) println(deps.stderr, `replayed ${rows.length} dead letter(s); run \`svc sync\` to deliver them now`);
          if (skipped.length > 0) {
            println(
              deps.stderr,
              `skipped ${skipped.length} the access rule refuses now (${describeSkips(skipped)}): suppressed, never sent`,
            );
          }
        }),
      );
    });

  withFilters(admin.command('list-dead-letters'))
    .description('list dead-lettered events, oldest first: event, partner, type, dead at, replayed at, reason')
    .option('--limit <n>', 'at most this many', positiveInt)
    .option(...JSON_OPTION)
    .action(async (opts: FilterOptions & { limit?: number; json?: boolean }, cmd: Command) => {
      await withStore(commandConfig(deps, cmd), async (store) => {
        await requireKnownIds(store.db, { partnerId: opts.partner });
        const letters = await findDeadLetters(store.db, { ...query(opts), limit: opts.limit });
        const rows = letters.map((letter): ListRow => ({
          event_id: letter.eventId,
          partner_id: letter.partnerId,
          event_type: letter.eventType,
          dead_at: timeCell(letter.deadAt),
          replayed_at: timeCell(letter.replayedAt),
          reason: letter.reason,
        }));
        printList(deps, rows, { json: opts.json, empty: 'no dead letters match' });
      });
    });

  admin
    .command('deliveries')
    .description(
      'delivery attempts, newest first: time, event, partner, type, attempt, outcome, status, latency, error, url, ' +
        "and when the event's next attempt is due (empty once it is delivered or dead-lettered)",
    )
    .option('--partner <id>', 'only this partner')
    .option('--event <id>', 'only this event')
    .option('--limit <n>', 'at most this many (default 100)', positiveInt)
    .option(...JSON_OPTION)
    .action(async (opts: { partner?: string; event?: string; limit?: number; json?: boolean }, cmd: Command) => {
      await withStore(commandConfig(deps, cmd), async (store) => {
        await requireKnownIds(store.db, { partnerId: opts.partner, eventId: opts.event });
        const attempts = await deliveryHistory(store.db, { partnerId: opts.partner, eventId: opts.event, limit: opts.limit });
        const rows = attempts.map((attempt): ListRow => ({
          attempted_at: timeCell(attempt.attemptedAt),
          event_id: attempt.eventId,
          partner_id: attempt.partnerId,
          event_type: attempt.eventType,
          attempt_no: attempt.attemptNo,
          outcome: attempt.outcome,
          status_code: attempt.statusCode,
          latency_ms: attempt.latencyMs,
          error: attempt.error,
          url: attempt.url,
          next_attempt_at: timeCell(attempt.nextAttemptAt),
        }));
        printList(deps, rows, { json: opts.json, empty: 'no delivery attempts match' });
      });
    });
}
