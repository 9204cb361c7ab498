import { Command } from 'commander';
import { AUDIT_DEFAULT_LIMIT, readAuditLog } from '../../services/audit-log.ts';
import { requireKnownIds } from '../../services/known-ids.ts';
import { AUDIT_COLUMNS, type AuditEntry } from '../../domain/audit-entry.ts';
import { positiveInt, statusRange } from '../arguments.ts';
import { commandConfig, withStore, type CliDeps } from '../context.ts';
import { JSON_OPTION, printList, timeCell, type ListRow } from '../output.ts';

function auditRow(entry: AuditEntry): ListRow {
  return Object.fromEntries(AUDIT_COLUMNS.map(([column, field]) => [column, field === 'at' ? timeCell(entry.at) : entry[field]]));
}

/** `svc admin audit`: added to the admin command. */
export function addAuditCommand(admin: Command, deps: CliDeps): void {
  admin
    .command('audit')
    .description(
      'read the audit log, newest first: every API call and every state-changing admin command ' +
        '(method CLI, status 0 when it succeeded)',
    )
    .option('--partner <id>', 'only calls of this partner (or admin actions on it)')
    .option('--request <id>', 'only the row of this request: the X-Request-Id of an API call, or the cli_ id of an admin command')
    .option('--since <iso>', 'at or after this time (YYYY-MM-DD, midnight UTC, or an ISO 8601 date-time with a time zone)')
    .option('--until <iso>', 'at or before this time (YYYY-MM-DD, midnight UTC, or an ISO 8601 date-time with a time zone)')
    .option('--status <status>', 'only this status (404), class (4xx), or 0 for admin commands that succeeded', statusRange)
    .option('--limit <n>', `at most this many (default ${AUDIT_DEFAULT_LIMIT})`, positiveInt)
    .option(...JSON_OPTION)
    .action(
      async (
        opts: {
          partner?: string;
          request?: string;
          since?: string;
          until?: string;
          status?: { from: number; to: number };
          limit?: number;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        await withStore(commandConfig(deps, cmd), async (store) => {
          await requireKnownIds(store.db, { partnerId: opts.partner });
          const entries = await readAuditLog(store.db, {
            partnerId: opts.partner,
            requestId: opts.request,
            since: opts.since,
            until: opts.until,
            status: opts.status,
            limit: opts.limit,
          });
          printList(deps, entries.map(auditRow), { json: opts.json, empty: 'no audit rows match' });
        });
      },
    );
}
