import { Command, Option } from 'commander';
import { pendingRotation, rotateWebhookSecret, toRotationWire } from '../../services/webhooks/rotate-secret.ts';
import { WEBHOOK_ENDPOINT_STATUSES } from '../../domain/vocabulary.ts';
import { endpointSendsStandardWebhooks, servesStandardWebhooks, type WebhookEndpoint } from '../../domain/webhooks.ts';
import { publicKeysAt } from '../../domain/ed25519-keys.ts';
import { listWebhookEndpoints, registerWebhookEndpoint, toEndpointWire, toHealthWire } from '../../services/webhooks/endpoints.ts';
import { JSON_OPTION, printList, timeCell, type ListRow } from '../output.ts';
import { commandConfig, println, withAudit, withStore, type CliDeps } from '../context.ts';
import { inFlagWords } from '../flag-issues.ts';

// The body field each flag fills, to report a bad body in the flags typed.
const REGISTER_FLAGS = {
  url: '--url',
  subscribed_events: '--events',
  secret: '--secret',
  ed25519: '--ed25519',
  notice_lead_days: '--notice-lead-days',
  status: '--status',
};
const ROTATE_FLAGS = { secret: '--secret', activate_at: '--activate-at' };

/** The items of a comma-separated flag, trimmed, empty ones dropped. */
function commaList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** What `register-webhook` did, for the operator. */
function registrationLine(partnerId: string, endpointId: string, created: boolean, changed: boolean): string {
  if (!changed) return `webhook endpoint ${endpointId} of partner ${partnerId} already had these values: nothing changed`;
  const done = created ? 'registered' : 'updated';
  return `${done} webhook endpoint ${endpointId} for partner ${partnerId}; give the secret to the partner, it signs every delivery`;
}

const NOT_STANDARD_SECRET =
  'warning: this secret is not of the Standard Webhooks form (whsec_ and standard base64 of 24 to 64 bytes): deliveries ' +
  'carry the X-Service-Signature header only, without webhook-id, webhook-timestamp and webhook-signature ' +
  '(docs/webhooks.md); leave --secret out to have one generated';

/** The signatures deliveries to the endpoint carry at `now`, as list-webhooks names them. */
function signatureKinds(endpoint: WebhookEndpoint, now: Date): string[] {
  return [
    'x-service',
    ...(endpointSendsStandardWebhooks(endpoint, now) ? ['standard-webhooks'] : []),
    ...(endpoint.signingKey || endpoint.nextSigningKey ? ['ed25519'] : []),
  ];
}

const ED25519_NOTE =
  'deliveries also carry an Ed25519 signature (Standard Webhooks v1a): the partner verifies it with public_key, which ' +
  'GET /api/v2/partners/me serves it too; the private key never leaves svc';

/** `svc admin register-webhook` and `list-webhooks`: added to the admin command. */
export function addWebhookCommands(admin: Command, deps: CliDeps): void {
  admin
    .command('register-webhook')
    .description(
      "register a partner's webhook endpoint, or rotate the one it has (URL, events, secret, Ed25519 key, status); " +
        'prints the endpoint with its secret (and public key, with --ed25519) as JSON',
    )
    .requiredOption('--partner <id>', 'partner id')
    .requiredOption('--url <url>', 'https URL (http only to loopback with SVC_ALLOW_INSECURE_WEBHOOKS=1)')
    .requiredOption('--events <names>', 'comma-separated event types, e.g. crew.document.processed,crew.status.changed')
    .option('--secret <secret>', 'signing secret; generated (whsec_…) when absent, also when rotating')
    .option('--ed25519', 'also sign with an Ed25519 key pair svc generates (Standard Webhooks v1a); kept when registering again with it')
    .option('--notice-lead-days <days>', 'comma-separated lead times of crew.compliance.upcoming, in days (default 90,60,30)')
    .addOption(new Option('--status <status>', 'endpoint status').choices(WEBHOOK_ENDPOINT_STATUSES))
    .action(
      async (
        opts: {
          partner: string;
          url: string;
          events: string;
          secret?: string;
          ed25519?: boolean;
          noticeLeadDays?: string;
          status?: string;
        },
        cmd: Command,
      ) => {
        const config = commandConfig(deps, cmd);
        const route = 'svc admin register-webhook';
        await withStore(config, (store) =>
          withAudit(store, deps, route, { partnerId: opts.partner }, async () => {
            const body = {
              url: opts.url,
              subscribed_events: commaList(opts.events),
              ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
              ...(opts.ed25519 ? { ed25519: true } : {}),
              ...(opts.noticeLeadDays !== undefined ? { notice_lead_days: commaList(opts.noticeLeadDays) } : {}),
              ...(opts.status !== undefined ? { status: opts.status } : {}),
            };
            const { created, changed, endpoint } = await inFlagWords(REGISTER_FLAGS, route, () =>
              registerWebhookEndpoint(store.db, opts.partner, body, {
                clock: deps.clock,
                allowInsecure: config.allowInsecureWebhooks,
              }),
            );
            println(deps.stderr, registrationLine(opts.partner, endpoint.endpointId, created, changed));
            if (!servesStandardWebhooks(endpoint.secret)) println(deps.stderr, NOT_STANDARD_SECRET);
            if (endpoint.signingKey) println(deps.stderr, ED25519_NOTE);
            println(deps.stdout, JSON.stringify(toEndpointWire(endpoint), null, 2));
          }),
        );
      },
    );

  admin
    .command('list-webhooks')
    .description(
      'list webhook endpoints (partner, endpoint, status, url, events, updated, when a pending secret rotation ' +
        'takes effect, the signature headers sent: x-service, standard-webhooks when the secret serves both, ed25519 with ' +
        'Ed25519 keys, the public keys partners verify v1a with, and health: ' +
        'failed attempts in a row, failing since, last success, and why and when svc sync disabled it); never the secrets',
    )
    .option(...JSON_OPTION)
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      await withStore(commandConfig(deps, cmd), async (store) => {
        const now = deps.clock();
        const endpoints = await listWebhookEndpoints(store.db);
        const rows = endpoints.map((endpoint): ListRow => ({
          partner_id: endpoint.partnerId,
          endpoint_id: endpoint.endpointId,
          status: endpoint.status,
          url: endpoint.url,
          subscribed_events: endpoint.subscribedEvents,
          updated_at: timeCell(endpoint.updatedAt),
          rotation_pending_until: pendingRotation(endpoint, now),
          signatures: signatureKinds(endpoint, now),
          public_keys: publicKeysAt(endpoint, now),
          ...toHealthWire(endpoint),
        }));
        printList(deps, rows, { json: opts.json, empty: 'no webhook endpoints registered' });
        const older = endpoints.filter((e) => !endpointSendsStandardWebhooks(e, now)).length;
        if (older > 0) {
          println(
            deps.stderr,
            `${older} endpoint(s) sign with an older secret that serves the X-Service-* headers only, not Standard ` +
              'Webhooks: svc admin rotate-secret gives them one that serves both',
          );
        }
      });
    });

  admin
    .command('rotate-secret')
    .description(
      "store the next signing secret (and Ed25519 key pair, when the endpoint has one) of a partner's endpoint and print " +
        'it once (the public key as next_public_key); deliveries sign with the ' +
        'current secret until --activate-at (default: in 24 hours), then with the next; the partner accepts both meanwhile',
    )
    .requiredOption('--partner <id>', 'partner id')
    .option('--secret <secret>', 'the next secret; generated (whsec_…) when absent')
    .option('--activate-at <iso>', 'when deliveries switch to the next secret (ISO 8601 date-time with a time zone, not in the past)')
    .action(async (opts: { partner: string; secret?: string; activateAt?: string }, cmd: Command) => {
      const route = 'svc admin rotate-secret';
      await withStore(commandConfig(deps, cmd), (store) =>
        withAudit(store, deps, route, { partnerId: opts.partner }, async () => {
          const body = {
            ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
            ...(opts.activateAt !== undefined ? { activate_at: opts.activateAt } : {}),
          };
          const rotated = await inFlagWords(ROTATE_FLAGS, route, () =>
            rotateWebhookSecret(store.db, opts.partner, body, { clock: deps.clock }),
          );
          const wire = toRotationWire(rotated);
          println(
            deps.stderr,
            `next secret stored for partner ${opts.partner}; deliveries sign with it from ${wire.activate_at}. ` +
              'Give it to the partner now (it is not shown again): until then it accepts both',
          );
          if (wire.next_public_key) {
            println(
              deps.stderr,
              `next Ed25519 key pair stored too: its public key (next_public_key) signs beside the current one until ${wire.activate_at}, ` +
                'alone afterwards; the partner reads both from GET /api/v2/partners/me',
            );
          }
          println(deps.stdout, JSON.stringify(wire, null, 2));
        }),
      );
    });
}
