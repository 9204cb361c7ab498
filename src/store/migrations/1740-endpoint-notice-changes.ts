import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Compliance notices follow the endpoint (docs/webhooks.md, "Compliance notices ahead of time"):
 * they are worked out only for an endpoint that subscribes to `crew.compliance.upcoming`, at the
 * lead times of its `notice_lead_days`. Until now an update of `webhook_endpoints` was captured
 * (0300-change-capture) only when `partner_id` or `status` changed, so new lead times or a new
 * subscription waited for each crew member's next due date. The update trigger now also watches
 * `subscribed_events` and `notice_lead_days`: either change re-diffs the partner's fleet at the
 * next `svc sync`, as a status change does. Secret, key and health updates are still not captured.
 *
 * A frozen snapshot: the statements are written out here, not built from 0300's table list.
 */

const INSERT = 'insert into changes (table_name, row_key, crew_unique_id, partner_id)';
const WATCHED = ['partner_id', 'status', 'subscribed_events', 'notice_lead_days'];
const BEFORE = ['partner_id', 'status'];

function sqliteTrigger(watch: string[]): string {
  const changed = watch.map((w) => `old.${w} is not new.${w}`).join(' or ');
  return `create trigger changes_webhook_endpoints_upd after update on webhook_endpoints for each row when ${changed} begin
       ${INSERT} values ('webhook_endpoints', new.endpoint_id, null, new.partner_id);
       ${INSERT} select 'webhook_endpoints', old.endpoint_id, null, old.partner_id
         where old.endpoint_id is not new.endpoint_id or old.partner_id is not new.partner_id;
     end`;
}

function postgresFunction(watch: string[]): string {
  const same = ['o.endpoint_id = n.endpoint_id', ...watch.map((w) => `o.${w} is not distinct from n.${w}`)].join(' and ');
  return `create or replace function changes_webhook_endpoints_upd() returns trigger language plpgsql as $$
    begin ${INSERT} select 'webhook_endpoints', n.endpoint_id, null, n.partner_id from new_rows n
      where not exists (select 1 from old_rows o where ${same})
      union select 'webhook_endpoints', o.endpoint_id, null, o.partner_id from old_rows o
      where not exists (select 1 from new_rows n where ${same}); return null; end $$`;
}

async function watchUpdates(db: Kysely<unknown>, watch: string[]): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The statement trigger calls the function by name: replacing the function is enough.
    await sql.raw(postgresFunction(watch)).execute(db);
    return;
  }
  await sql.raw('drop trigger if exists changes_webhook_endpoints_upd').execute(db);
  await sql.raw(sqliteTrigger(watch)).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await watchUpdates(db, WATCHED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await watchUpdates(db, BEFORE);
}
