import { registerWebhookEndpoint, toEndpointWire } from '../../services/webhooks/endpoints.ts';
import { rotateWebhookSecret, toRotationWire } from '../../services/webhooks/rotate-secret.ts';
import { toTestDeliveryWire } from '../../services/webhooks/test-delivery.ts';
import { route, routeModule } from '../route.ts';
import { operatorOf, pathParam } from '../request-context.ts';

const NO_STORE = { description: '`no-store`: the answer holds the signing secret', schema: { type: 'string', const: 'no-store' } };
const endpoint = (description: string) => ({ description, schema: 'WebhookEndpoint', headers: { 'Cache-Control': NO_STORE } });

/**
 * `POST /api/v2/admin/partners/{partner_id}/webhook-endpoints` (operator key): register the
 * partner's webhook endpoint (201) or rotate the one it has (200); the answer carries the signing
 * secret, so it is never cached. The body is read here (415, 413, json_invalid) and validated by
 * the registration service, the same rules as `svc admin register-webhook` (422 issues, 404
 * partner_not_found). The audit row holds the operator key and the path, never the body.
 */
export const adminWebhooksRoutes = routeModule('admin-webhooks', [
  route({
    method: 'post',
    path: '/api/v2/admin/partners/:partner_id/webhook-endpoints',
    access: 'operator',
    body: { validatedBy: 'service', schema: 'WebhookEndpointRequest' },
    doc: {
      operationId: 'registerWebhookEndpoint',
      tags: ['admin'],
      summary: "Register or rotate a partner's webhook endpoint",
      description:
        'Operator key (`svc_op_…`) only; a partner key gets 403 `insufficient_scope`. One endpoint per partner: the first ' +
        'registration creates it (201), a later one replaces its URL, events, secret and status (200), keeping `endpoint_id` and ' +
        '`created_at`. A `secret` is generated (`whsec_` + 32 random bytes, standard base64, which also serves Standard Webhooks) whenever the body has none, on rotation ' +
        'too: send the current secret to keep it. The answer carries the secret and is sent with `Cache-Control: no-store`. ' +
        '`url` must be https and public (also after DNS resolution) unless the server runs with insecure webhooks allowed, which ' +
        'permits private addresses and plain http to loopback. A rejected secret is echoed as `"[redacted]"` in a 422. ' +
        'With `ed25519: true` svc also signs every delivery with an Ed25519 key pair it generates (Standard Webhooks `v1a`): ' +
        "the answer's `public_key` is its public half (the partner also reads it from `GET /api/v2/partners/me`); the private " +
        'key is never shown. Registering again with `ed25519: true` keeps the key pair; without it, the key pair is dropped.',
      responses: { 200: endpoint('The existing endpoint, rotated'), 201: endpoint('The endpoint, created') },
      errors: { 404: ['partner_not_found'] },
    },
    async handle(ctx, { body }, deps) {
      operatorOf(ctx); // throws if the guards were ever dropped: this answer holds a secret
      ctx.set('Cache-Control', 'no-store');
      const { created, endpoint: saved } = await registerWebhookEndpoint(deps.db, pathParam(ctx, 'partner_id'), body, {
        clock: deps.clock,
        allowInsecure: deps.config.allowInsecureWebhooks,
        randomBytes: deps.randomBytes,
      });
      ctx.status = created ? 201 : 200;
      ctx.body = toEndpointWire(saved);
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/admin/partners/:partner_id/webhook-endpoints/test-event',
    access: 'operator',
    doc: {
      operationId: 'sendTestEvent',
      tags: ['admin'],
      summary: "Send one signed test event to a partner's webhook endpoint",
      description:
        'Operator key only. One delivery of a `svc.test` event (no crew data; `data.message` only), signed exactly as deliveries ' +
        "are, to the endpoint's URL as it stands (also a disabled endpoint, to check it before re-enabling it), through the same " +
        'destination policy and timeout; never retried. It is stored with its attempt like any delivery (`svc admin deliveries`), ' +
        "outside the partner's sequence and events feed, and changes neither the endpoint's health nor its dead letters. The " +
        'answer says what the endpoint answered (`status_code`, or `error` and `error_class` when nothing came) and how long it ' +
        'took. Same as `svc admin send-test-event`.',
      responses: { 200: { description: 'The test delivery, made', schema: 'TestDelivery' } },
      errors: { 404: ['partner_not_found', 'not_found'] },
    },
    async handle(ctx, _input, deps) {
      if (!deps.webhookTester) throw new Error('createApp was given no webhook tester (svc serve wires src/sync/test-event.ts)');
      ctx.body = toTestDeliveryWire(await deps.webhookTester(pathParam(ctx, 'partner_id')));
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/admin/partners/:partner_id/webhook-endpoints/secret-rotation',
    access: 'operator',
    body: { validatedBy: 'service', schema: 'SecretRotationRequest' },
    doc: {
      operationId: 'rotateWebhookSecret',
      tags: ['admin'],
      summary: "Rotate a partner's webhook signing secret without downtime",
      description:
        'Operator key only. Stores the next secret (given, or generated) and when deliveries switch to it ' +
        '(`activate_at`, default in 24 hours): until then they are signed with the current secret, afterwards with the next; ' +
        'the partner accepts both meanwhile. Each delivery still carries one signature. The answer shows the next secret this ' +
        'once and is sent with `Cache-Control: no-store`. A new rotation replaces one still pending; registering the endpoint ' +
        'again (with its own secret) cancels it. An endpoint with Ed25519 signatures gets its next key pair too ' +
        '(`next_public_key`), signing beside the current one until `activate_at` and alone afterwards. Same as `svc admin rotate-secret`.',
      responses: { 201: { description: 'The rotation, stored', schema: 'SecretRotation', headers: { 'Cache-Control': NO_STORE } } },
      errors: { 404: ['partner_not_found', 'not_found'] },
    },
    async handle(ctx, { body }, deps) {
      operatorOf(ctx); // throws if the guards were ever dropped: this answer holds a secret
      ctx.set('Cache-Control', 'no-store');
      const rotated = await rotateWebhookSecret(deps.db, pathParam(ctx, 'partner_id'), body, {
        clock: deps.clock,
        randomBytes: deps.randomBytes,
      });
      ctx.status = 201;
      ctx.body = toRotationWire(rotated);
    },
  }),
]);
