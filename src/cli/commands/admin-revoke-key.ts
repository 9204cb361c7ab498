import { Command } from 'commander';
import { revokeKey } from '../../services/api-keys.ts';
import { commandConfig, println, withAudit, withStore, type CliDeps } from '../context.ts';

/** `svc admin revoke-key`: added to the admin command. */
export function addRevokeKeyCommand(admin: Command, deps: CliDeps): void {
  admin.command('revoke-key')
    .description("revoke a partner's key (it stops working at once); --hard deletes it (refused for operator keys)")
    .requiredOption('--partner <id>', 'partner id')
    .requiredOption('--key <key_id>', 'key id (key_…), as list-keys shows it')
    .option('--hard', 'delete the key instead of revoking it')
    .action(async (opts: { partner: string; key: string; hard?: boolean }, cmd: Command) => {
      const facts = { partnerId: opts.partner, keyId: opts.key };
      await withStore(commandConfig(deps, cmd), (store) => withAudit(store, deps, 'svc admin revoke-key', facts, async () => {
        const key = await revokeKey(store.db, opts.partner, opts.key, opts.hard ?? false, deps.clock);
        const what = opts.hard ? 'deleted' : key.status === 'revoked' ? 'was already revoked' : 'revoked';
        println(deps.stdout, `key ${key.keyId} (${key.kind}, ${key.prefix}…${key.last4}) of partner ${opts.partner} ${what}`);
      }));
    });
}
