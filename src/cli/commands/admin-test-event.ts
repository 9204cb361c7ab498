import type { Command } from 'commander';
import { toTestDeliveryWire } from '../../services/webhooks/test-delivery.ts';
import { commandClock, commandConfig, println, withAudit, withStore, type CliDeps } from '../context.ts';
import { assertClockMayWrite } from '../sync-outcome.ts';

/**
 * `svc admin send-test-event --partner P`: one signed `svc.test` delivery to the partner's endpoint
 * (docs/webhooks.md, "Testing an endpoint"); prints the answer's status (or why none came) and how
 * long it took; exit 1 when the endpoint did not answer 2xx.
 */
export function addTestEventCommand(admin: Command, deps: CliDeps): void {
  admin
    .command('send-test-event')
    .description(
      "send one signed test event (svc.test, no crew data) to a partner's webhook endpoint and print the answer's status " +
        'and time; recorded like any attempt (`svc admin deliveries`), never retried; exit 1 unless it answered 2xx',
    )
    .requiredOption('--partner <id>', 'partner id')
    .option('--json', 'print the result as one JSON object')
    .action(async (opts: { partner: string; json?: boolean }, cmd: Command) => {
      const config = commandConfig(deps, cmd);
      assertClockMayWrite(config, false);
      // Loaded when it runs, as for svc sync: the webhook client is needed by no other admin command.
      const [{ deliveryDepsFromConfig }, { webhookTester }] = await Promise.all([
        import('../../sync/delivery/delivery-deps.ts'),
        import('../../sync/test-event.ts'),
      ]);
      const transport = deliveryDepsFromConfig(config, { clock: commandClock(deps, config), wallClock: deps.clock });
      const route = 'svc admin send-test-event';
      const sent = await withStore(config, (store) =>
        withAudit(store, deps, route, { partnerId: opts.partner }, () => webhookTester(store.db, transport)(opts.partner)),
      );
      if (opts.json) println(deps.stdout, JSON.stringify(toTestDeliveryWire(sent), null, 2));
      else {
        const answer = sent.statusCode !== null ? `HTTP ${sent.statusCode}` : `no answer: ${sent.error ?? 'unknown'}`;
        println(deps.stdout, `${answer} in ${sent.latencyMs} ms from ${sent.url} (test event ${sent.eventId})`);
      }
      if (!sent.delivered) {
        println(deps.stderr, 'svc: the endpoint did not accept the test event (see above, and `svc admin deliveries`); exit 1');
        process.exitCode = 1;
      }
    });
}
