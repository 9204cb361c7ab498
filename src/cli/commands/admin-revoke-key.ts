import { Command } from 'commander';
import { revokeKey } from '../../services/api-keys.ts';
import { requireKnownIds } from '../../services/known-ids.ts';
import { commandConfig, println, withAudit, withStore, type CliDeps } from '../context.ts';

/** `svc admin revoke-key`: added to the admin command. */
export function addRevokeKeyCommand(admin: Command, deps: CliDeps): void {
  admin
    .command('revoke-key')
    .description(
      'revoke a key (it stops working at once): any key by its id, operator keys of no partner included; ' +
        '--hard deletes it (refused for operator keys)',
    )
    .requiredOption('--key <key_id>', 'key id (key_…), as list-keys shows it')
    .option('--partner <id>', 'check that the key belongs to this partner; refuse it otherwise')
    .option('--hard', 'delete the key instead of revoking it')
    .action(async (opts: { partner?: string; key: string; hard?: boolean }, cmd: Command) => {
      const facts = { partnerId: opts.partner ?? null, keyId: opts.key };
      await withStore(commandConfig(deps, cmd), (store) =>
        withAudit(store, deps, 'svc admin revoke-key', facts, async (audit) => {
          await requireKnownIds(store.db, { partnerId: opts.partner });
          const key = await revokeKey(store.db, opts.partner, opts.key, opts.hard ?? false, deps.clock);
          audit.partnerId = key.partnerId;
          const what = opts.hard ? 'deleted' : key.status === 'revoked' ? 'was already revoked' : 'revoked';
          const owner = key.partnerId ? `of partner ${key.partnerId}` : 'of no partner';
          println(deps.stdout, `key ${key.keyId} (${key.kind}, ${key.prefix}…${key.last4}) ${owner} ${what}`);
        }),
      );
    });
}
