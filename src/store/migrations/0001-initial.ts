import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-of.ts';

/*
 * The whole schema of the first release. Types are kept to text/integer/blob so that SQLite and
 * Postgres return the same JS values (see database.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  const blob = pg ? 'bytea' : 'blob';
  const autoId =
    (name: string) =>
    <T extends CreateTableBuilder<any, any>>(t: T): T =>
      (pg ? t.addColumn(name, 'serial', (c) => c.primaryKey()) : t.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement())) as T;

  await db.schema
    .createTable('employers')
    .addColumn('employer_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('partners')
    .addColumn('partner_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('customer', 'external')`))
    .addColumn('employer_id', 'text', (c) => c.references('employers.employer_id'))
    .addColumn('tier', 'text', (c) => c.check(sql`tier in ('management', 'recruiter', 'vessel', 'basic')`))
    .addColumn('scope_overrides', 'text')
    .addColumn('upgraded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('contract_scopes', 'text')
    .addColumn('rate_limit', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('vessels')
    .addColumn('vessel_id', 'text', (c) => c.primaryKey())
    .addColumn('employer_id', 'text', (c) => c.notNull().references('employers.employer_id'))
    .addColumn('vessel_name', 'text', (c) => c.notNull())
    .addColumn('imo', 'text')
    .addColumn('mmsi', 'text')
    .addColumn('flag_state', 'text', (c) => c.notNull())
    .addColumn('vessel_type', 'text', (c) => c.notNull())
    .addColumn('gross_tonnage', 'integer', (c) => c.notNull())
    .addColumn('propulsion_kw', 'integer', (c) => c.notNull())
    .addColumn('trading_area', 'text', (c) => c.notNull().defaultTo('unlimited'))
    .addColumn('is_test', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('vessels_employer').on('vessels').columns(['employer_id', 'is_test', 'vessel_id']).execute();

  await db.schema
    .createTable('contract_vessels')
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.partner_id').onDelete('cascade'))
    .addColumn('vessel_id', 'text', (c) => c.notNull().references('vessels.vessel_id').onDelete('cascade'))
    .addPrimaryKeyConstraint('contract_vessels_pk', ['partner_id', 'vessel_id'])
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('file_id', 'text', (c) => c.primaryKey())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('bytes', sql.raw(blob), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('crew')
    .addColumn('crew_unique_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rank', 'text')
    .addColumn('email', 'text')
    .addColumn('email_normalized', 'text')
    .addColumn('phone', 'text')
    .addColumn('country_code', 'text')
    .addColumn('nationality', 'text')
    .addColumn('languages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('skills', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('years_experience', 'integer')
    .addColumn('bio', 'text')
    .addColumn('date_of_birth', 'text')
    .addColumn('address', 'text')
    .addColumn('passport', 'text')
    .addColumn('visas', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('employment_history', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('photo_file_id', 'text', (c) => c.references('files.file_id'))
    .addColumn('verification_status', 'text', (c) => c.notNull().defaultTo('unverified'))
    .addColumn('background_check_status', 'text', (c) => c.notNull().defaultTo('not_started'))
    .addColumn('profile_updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('crew_email').on('crew').column('email_normalized').execute();

  await db.schema
    .createTable('assignments')
    .addColumn('assignment_id', 'text', (c) => c.primaryKey())
    .addColumn('crew_unique_id', 'text', (c) => c.notNull().references('crew.crew_unique_id').onDelete('cascade'))
    .addColumn('vessel_id', 'text', (c) => c.notNull().references('vessels.vessel_id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('position_name', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('invited', 'active', 'on_leave', 'signed_off')`))
    .addColumn('as_of', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assignments_vessel_crew').on('assignments').columns(['vessel_id', 'crew_unique_id']).execute();
  await db.schema.createIndex('assignments_crew').on('assignments').columns(['crew_unique_id', 'vessel_id']).execute();

  await db.schema
    .createTable('consents')
    .addColumn('crew_unique_id', 'text', (c) => c.notNull().references('crew.crew_unique_id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.partner_id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull().check(sql`category in ('status', 'profile', 'documents', 'compliance')`))
    .addPrimaryKeyConstraint('consents_pk', ['crew_unique_id', 'partner_id', 'category'])
    .execute();
  await db.schema.createIndex('consents_partner').on('consents').columns(['partner_id', 'crew_unique_id']).execute();

  await db.schema
    .createTable('documents')
    .addColumn('document_id', 'text', (c) => c.primaryKey())
    .addColumn('crew_unique_id', 'text', (c) => c.notNull().references('crew.crew_unique_id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text')
    .addColumn('verification_status', 'text', (c) => c.notNull())
    .addColumn('review_status', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text')
    .addColumn('expiry_date', 'text')
    .addColumn('no_expiry', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('document_number', 'text')
    .addColumn('processing_state', 'text', (c) =>
      c.notNull().check(sql`processing_state in ('processed', 'processing', 'rejected', 'duplicate', 'placeholder', 'legacy')`),
    )
    .addColumn('is_current', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_live', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('superseded_by', 'text')
    .addColumn('document_class', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.references('files.file_id'))
    .addColumn('file_name', 'text')
    .addColumn('processed_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('documents_crew_listable')
    .on('documents')
    .columns(['crew_unique_id', 'processing_state', 'is_current', 'is_live', 'document_id'])
    .execute();

  await db.schema
    .createTable('requirement_catalogue')
    .addColumn('requirement_key', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('compliance_results')
    .addColumn('crew_unique_id', 'text', (c) => c.notNull())
    .addColumn('vessel_id', 'text', (c) => c.notNull())
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('compliance_results_pk', ['crew_unique_id', 'vessel_id'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.references('partners.partner_id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('live', 'test', 'operator')`))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'revoked')`))
    .addColumn('label', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_partner').on('api_keys').column('partner_id').execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('endpoint_id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull().unique().references('partners.partner_id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('subscribed_events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'disabled')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('outbox_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('crew_unique_id', 'text')
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'dead')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox_events').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('outbox_partner').on('outbox_events').columns(['partner_id', 'created_at']).execute();

  await db.schema
    .createTable('delivery_attempts')
    .$call(autoId('attempt_id'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('outbox_events.event_id').onDelete('cascade'))
    .addColumn('attempt_no', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_attempts_event').on('delivery_attempts').columns(['event_id', 'attempt_no']).execute();

  await db.schema
    .createTable('dead_letters')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('outbox_events.event_id').onDelete('cascade'))
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('dead_at', 'text', (c) => c.notNull())
    .addColumn('replayed_at', 'text')
    .execute();
  await db.schema.createIndex('dead_letters_partner').on('dead_letters').columns(['partner_id', 'dead_at']).execute();

  await db.schema
    .createTable('sync_snapshots')
    .addColumn('partner_id', 'text', (c) => c.notNull())
    .addColumn('crew_unique_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_snapshots_pk', ['partner_id', 'crew_unique_id'])
    .execute();

  await db.schema
    .createTable('sync_state')
    .addColumn('partner_id', 'text', (c) => c.primaryKey())
    .addColumn('baseline_at', 'text', (c) => c.notNull())
    .addColumn('last_run_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_log')
    .$call(autoId('audit_id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('partner_id', 'text')
    .addColumn('key_id', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('crew_unique_id', 'text')
    .addColumn('document_id', 'text')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('client_ip', 'text')
    .execute();
  await db.schema.createIndex('audit_log_partner_at').on('audit_log').columns(['partner_id', 'at']).execute();
  await db.schema.createIndex('audit_log_request').on('audit_log').column('request_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'settings',
    'audit_log',
    'leases',
    'sync_state',
    'sync_snapshots',
    'dead_letters',
    'delivery_attempts',
    'outbox_events',
    'webhook_endpoints',
    'api_keys',
    'compliance_results',
    'requirement_catalogue',
    'documents',
    'consents',
    'assignments',
    'crew',
    'files',
    'contract_vessels',
    'vessels',
    'partners',
    'employers',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
