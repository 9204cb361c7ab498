import { Command } from 'commander';
import type { CliDeps } from '../context.ts';
import { addAuditCommand } from './admin-audit.ts';
import { addDeadLetterCommands } from './admin-dead-letters.ts';
import { addDeliveryReportCommand } from './admin-delivery-report.ts';
import { addKeyCommands } from './admin-keys.ts';
import { addRevokeKeyCommand } from './admin-revoke-key.ts';
import { addSyncLockCommand } from './admin-sync-lock.ts';
import { addTestEventCommand } from './admin-test-event.ts';
import { addWebhookCommands } from './admin-webhooks.ts';

export function adminCommand(deps: CliDeps): Command {
  const admin = new Command('admin').description(
    'operator tasks: keys, webhook endpoints, dead letters, the delivery report, the sync lock, the audit log',
  );
  addKeyCommands(admin, deps);
  addRevokeKeyCommand(admin, deps);
  addWebhookCommands(admin, deps);
  addTestEventCommand(admin, deps);
  addDeadLetterCommands(admin, deps);
  addDeliveryReportCommand(admin, deps);
  addSyncLockCommand(admin, deps);
  addAuditCommand(admin, deps);
  return admin;
}
