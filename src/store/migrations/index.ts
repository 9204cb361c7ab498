import type { Migration } from 'kysely';
import * as m0001 from './0001-initial.ts';
import * as m0100 from './0100-rate-limits.ts';
import * as m0200 from './0200-vocabulary-checks.ts';
import * as m0300 from './0300-change-capture.ts';
import * as m0400 from './0400-outbox-created-at.ts';
import * as m0500 from './0500-audit-at-index.ts';
import * as m0600 from './0600-auth-version.ts';
import * as m0700 from './0700-webhook-secret-rotation.ts';
import * as m0800 from './0800-documents-expiring-index.ts';
import * as m0900 from './0900-drop-outbox-partner-index.ts';
import * as m1000 from './1000-outbox-suppressed.ts';
import * as m1010 from './1010-endpoint-health.ts';
import * as m1100 from './1100-sync-runs.ts';
import * as m1200 from './1200-endpoint-send-slots.ts';
import * as m1300 from './1300-ingest.ts';
import * as m1310 from './1310-outbox-payload-scope.ts';
import * as m1400 from './1400-file-chunks.ts';
import * as m1500 from './1500-event-sequence.ts';
import * as m1510 from './1510-sync-run-phases.ts';
import * as m1600 from './1600-delivery-level-indexes.ts';
import * as m1700 from './1700-audit-trace-id.ts';
import * as m1710 from './1710-endpoint-signing-keys.ts';
import * as m1720 from './1720-endpoint-notice-leads.ts';
import * as m1730 from './1730-files-stored-at.ts';
import * as m1740 from './1740-endpoint-notice-changes.ts';
import * as m1800 from './1800-outbox-pending-index.ts';
import * as m1810 from './1810-file-reference-indexes.ts';
import * as m1900 from './1900-diff-shares.ts';
import * as m2000 from './2000-audit-erasure-indexes.ts';

/**
 * Every migration, by name; names sort in the order they apply. The same set runs on SQLite and
 * Postgres. Add new ones at the end; never edit one that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0100-rate-limits': m0100,
  '0200-vocabulary-checks': m0200,
  '0300-change-capture': m0300,
  '0400-outbox-created-at': m0400,
  '0500-audit-at-index': m0500,
  '0600-auth-version': m0600,
  '0700-webhook-secret-rotation': m0700,
  '0800-documents-expiring-index': m0800,
  '0900-drop-outbox-partner-index': m0900,
  '1000-outbox-suppressed': m1000,
  '1010-endpoint-health': m1010,
  '1100-sync-runs': m1100,
  '1200-endpoint-send-slots': m1200,
  '1300-ingest': m1300,
  '1310-outbox-payload-scope': m1310,
  '1400-file-chunks': m1400,
  '1500-event-sequence': m1500,
  '1510-sync-run-phases': m1510,
  '1600-delivery-level-indexes': m1600,
  '1700-audit-trace-id': m1700,
  '1710-endpoint-signing-keys': m1710,
  '1720-endpoint-notice-leads': m1720,
  '1730-files-stored-at': m1730,
  '1740-endpoint-notice-changes': m1740,
  '1800-outbox-pending-index': m1800,
  '1810-file-reference-indexes': m1810,
  '1900-diff-shares': m1900,
  '2000-audit-erasure-indexes': m2000,
};
