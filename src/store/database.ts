import type { Kysely, Transaction } from 'kysely';
import type {
  AssignmentsTable,
  ComplianceResultsTable,
  ConsentsTable,
  ContractVesselsTable,
  CrewTable,
  DocumentsTable,
  EmployersTable,
  FileChunksTable,
  FilesTable,
  PartnersTable,
  RequirementCatalogueTable,
  VesselsTable,
} from './tables/crew-tables.ts';
import type {
  DeadLettersTable,
  DeliveryAttemptsTable,
  EndpointSendSlotsTable,
  OutboxEventsTable,
  PartnerEventSequencesTable,
  WebhookEndpointsTable,
} from './tables/delivery-tables.ts';
import type { IngestHeldTable, IngestRequestsTable, IngestVersionsTable } from './tables/ingest-tables.ts';
import type {
  ApiKeysTable,
  AuditLogTable,
  AuthVersionTable,
  ChangesTable,
  DiffSharesTable,
  LeasesTable,
  RateLimitsTable,
  SettingsTable,
  SyncRunsTable,
  SyncSnapshotsTable,
  SyncStateTable,
} from './tables/service-tables.ts';

/*
 * Every table of the store, in one place: their row types live in ./tables/ by area (the fleet and
 * crew data, delivery, ingestion, the service's own), with the column conventions in ./tables/columns.ts.
 */
export type { Bool } from './tables/columns.ts';
export type * from './tables/crew-tables.ts';
export type * from './tables/delivery-tables.ts';
export type * from './tables/ingest-tables.ts';
export type * from './tables/service-tables.ts';

export interface Database {
  employers: EmployersTable;
  partners: PartnersTable;
  contract_vessels: ContractVesselsTable;
  vessels: VesselsTable;
  crew: CrewTable;
  assignments: AssignmentsTable;
  consents: ConsentsTable;
  files: FilesTable;
  file_chunks: FileChunksTable;
  documents: DocumentsTable;
  requirement_catalogue: RequirementCatalogueTable;
  compliance_results: ComplianceResultsTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  outbox_events: OutboxEventsTable;
  partner_event_sequences: PartnerEventSequencesTable;
  delivery_attempts: DeliveryAttemptsTable;
  dead_letters: DeadLettersTable;
  sync_snapshots: SyncSnapshotsTable;
  sync_state: SyncStateTable;
  diff_shares: DiffSharesTable;
  leases: LeasesTable;
  audit_log: AuditLogTable;
  settings: SettingsTable;
  changes: ChangesTable;
  rate_limits: RateLimitsTable;
  auth_version: AuthVersionTable;
  sync_runs: SyncRunsTable;
  endpoint_send_slots: EndpointSendSlotsTable;
  ingest_versions: IngestVersionsTable;
  ingest_held: IngestHeldTable;
  ingest_requests: IngestRequestsTable;
}

/** The store handle passed to repositories: the database itself or an open transaction. */
export type Db = Kysely<Database> | Transaction<Database>;
