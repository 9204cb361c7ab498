import { Command, Option } from 'commander';
import { KEY_MODES, type KeyMode } from '../../domain/vocabulary.ts';
import type { ApiKeyRecord } from '../../domain/api-keys.ts';
import { issueOperatorKey, issuePartnerKey, listKeys } from '../../services/api-keys.ts';
import { requireKnownIds } from '../../services/known-ids.ts';
import { JSON_OPTION, printList, timeCell, type ListRow } from '../output.ts';
import { commandConfig, println, withAudit, withStore, type CliDeps } from '../context.ts';

function keyRow(key: ApiKeyRecord): ListRow {
  return {
    key_id: key.keyId,
    partner_id: key.partnerId,
    kind: key.kind,
    status: key.status,
    key_hint: `${key.prefix}…${key.last4}`,
    created_at: timeCell(key.createdAt),
    revoked_at: timeCell(key.revokedAt),
    label: key.label,
  };
}

/** `svc admin issue-key`, `issue-operator-key`, `list-keys`: added to the admin command. */
export function addKeyCommands(admin: Command, deps: CliDeps): void {
  admin
    .command('issue-key')
    .description('issue a partner API key; the full key is printed once, as the last line of standard output')
    .requiredOption('--partner <id>', 'partner id')
    .addOption(new Option('--mode <mode>', 'live data or test-flagged data').choices(KEY_MODES).default('live'))
    .option('--label <text>', 'a note kept with the key')
    .option('--replace', "revoke the partner's other active keys with the same --label (a script's key issued again)")
    .action(async (opts: { partner: string; mode: KeyMode; label?: string; replace?: boolean }, cmd: Command) => {
      const route = 'svc admin issue-key';
      await withStore(commandConfig(deps, cmd), (store) =>
        withAudit(store, deps, route, { partnerId: opts.partner }, async (audit) => {
          const issued = await issuePartnerKey(store.db, opts.partner, opts.mode, deps.clock, opts.label ?? null, {
            replaceSameLabel: opts.replace,
          });
          audit.keyId = issued.record.keyId;
          for (const keyId of issued.replaced) {
            println(deps.stderr, `revoked key ${keyId} of partner ${opts.partner} (label "${opts.label}"), which this key replaces`);
          }
          println(
            deps.stderr,
            `issued ${issued.record.kind} key ${issued.record.keyId} for partner ${opts.partner}; store it now, it is not shown again`,
          );
          println(deps.stdout, `key_id ${issued.record.keyId}`);
          println(deps.stdout, issued.key);
        }),
      );
    });

  admin
    .command('issue-operator-key')
    .description('issue an operator key for the admin routes; printed once, as the last line of standard output')
    .option('--partner <id>', "tie the key to a partner's account (its keys are then managed under that partner)")
    .option('--label <text>', 'a note kept with the key')
    .action(async (opts: { partner?: string; label?: string }, cmd: Command) => {
      const route = 'svc admin issue-operator-key';
      await withStore(commandConfig(deps, cmd), (store) =>
        withAudit(store, deps, route, { partnerId: opts.partner }, async (audit) => {
          const issued = await issueOperatorKey(store.db, deps.clock, { partnerId: opts.partner, label: opts.label });
          audit.keyId = issued.record.keyId;
          println(deps.stderr, `issued operator key ${issued.record.keyId}; store it now, it is not shown again`);
          println(deps.stdout, `key_id ${issued.record.keyId}`);
          println(deps.stdout, issued.key);
        }),
      );
    });

  admin
    .command('list-keys')
    .description('list keys (id, partner, kind, status, prefix…last4, created, label); never the keys themselves')
    .option('--partner <id>', 'only this partner')
    .option(...JSON_OPTION)
    .action(async (opts: { partner?: string; json?: boolean }, cmd: Command) => {
      await withStore(commandConfig(deps, cmd), async (store) => {
        await requireKnownIds(store.db, { partnerId: opts.partner });
        const keys = await listKeys(store.db, opts.partner);
        printList(deps, keys.map(keyRow), { json: opts.json, empty: opts.partner ? `partner ${opts.partner} has no keys` : 'no keys' });
      });
    });
}
