import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { WebhookEndpoint } from '../../src/domain/webhooks.ts';
import type { Db } from '../../src/store/database.ts';
import { findPartner, listPartners } from '../../src/store/repositories/partners-repo.ts';
import { upsertPartners } from '../../src/store/repositories/reference-data-repo.ts';
import {
  findEndpointByPartner,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
} from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { describeEachStore } from '../support/stores.ts';

const AT = '2026-11-22T10:00:00.000Z';

function endpoint(partnerId: string, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    endpointId: `whe_${partnerId}`,
    partnerId,
    url: `https://${partnerId}.example/hooks`,
    subscribedEvents: ['crew.status.changed'],
    secret: 'whsec_0123456789abcdefghijklmnop',
    nextSecret: null,
    nextSecretFrom: null,
    signingKey: null,
    nextSigningKey: null,
    status: 'active',
    createdAt: AT,
    updatedAt: AT,
    health: { consecutiveFailures: 0, failingSince: null, lastSuccessAt: null, disabledReason: null, disabledAt: null },
    ...over,
  };
}

/** The external partners ptn_x and ptn_y, whom the endpoints below belong to. */
function seedExternalPartners(db: Db) {
  return upsertPartners(
    db,
    ['ptn_y', 'ptn_x'].map((id) => ({
      partner_id: id,
      name: id.toUpperCase(),
      kind: 'external' as const,
      employer_id: null,
      tier: null,
      scope_overrides: null,
      upgraded: 0 as const,
      contract_scopes: JSON.stringify(['crew:status:read']),
      rate_limit: null,
      created_at: AT,
    })),
  );
}

describeEachStore(
  'partners and webhook endpoints in the store',
  ({ store }) => {
    it('external partners round-trip; listed in id order', async () => {
      const db = store().db;
      await seedExternalPartners(db);
      assert.deepEqual(await findPartner(db, 'ptn_x'), {
        partnerId: 'ptn_x',
        name: 'PTN_X',
        kind: 'external',
        employerId: null,
        tier: null,
        scopeOverrides: null,
        upgraded: false,
        contractScopes: ['crew:status:read'],
        rateLimit: null,
      });
      assert.equal(await findPartner(db, 'ptn_none'), undefined);
      assert.deepEqual(
        (await listPartners(db)).map((p) => p.partnerId).filter((id) => id.startsWith('ptn_') && id.length === 5),
        ['ptn_x', 'ptn_y'],
      );
    });

    it('one endpoint per partner: a second insert is refused, an update keeps id and creation time, stores the Ed25519 keys', async () => {
      const db = store().db;
      await seedExternalPartners(db);
      assert.equal(await insertEndpoint(db, endpoint('ptn_x')), true);
      assert.equal(await insertEndpoint(db, endpoint('ptn_x', { endpointId: 'whe_other' })), false);
      assert.deepEqual(await findEndpointByPartner(db, 'ptn_x'), endpoint('ptn_x'));
      const later = '2026-11-23T10:00:00.000Z';
      await updateEndpoint(
        db,
        endpoint('ptn_x', {
          endpointId: 'whe_ignored',
          url: 'https://new.example/h',
          subscribedEvents: ['crew.profile.updated', 'crew.status.changed'],
          signingKey: 'whsk_current',
          nextSigningKey: 'whsk_next',
          status: 'disabled',
          createdAt: later,
          updatedAt: later,
        }),
      );
      assert.deepEqual(
        await findEndpointByPartner(db, 'ptn_x'),
        endpoint('ptn_x', {
          url: 'https://new.example/h',
          subscribedEvents: ['crew.profile.updated', 'crew.status.changed'],
          signingKey: 'whsk_current',
          nextSigningKey: 'whsk_next',
          status: 'disabled',
          updatedAt: later,
        }),
      );
    });

    it('lists every endpoint, or those of one status', async () => {
      const db = store().db;
      await seedExternalPartners(db);
      await insertEndpoint(db, endpoint('ptn_x', { status: 'disabled' }));
      await insertEndpoint(db, endpoint('ptn_y'));
      assert.deepEqual((await listEndpoints(db)).map((e) => e.partnerId).sort(), ['ptn_x', 'ptn_y']);
      assert.deepEqual(
        (await listEndpoints(db, { status: 'active' })).map((e) => e.partnerId),
        ['ptn_y'],
      );
      assert.deepEqual(
        (await listEndpoints(db, { status: 'disabled' })).map((e) => e.partnerId),
        ['ptn_x'],
      );
    });

    it('re-enabling a disabled endpoint clears its failures and why it was disabled; other updates keep its health', async () => {
      const db = store().db;
      await seedExternalPartners(db);
      await insertEndpoint(db, endpoint('ptn_x'));
      const failing = {
        consecutive_failures: 9,
        failing_since: AT,
        last_success_at: null,
        disabled_reason: 'every attempt failed',
        disabled_at: AT,
      };
      const set = (status: 'active' | 'disabled') =>
        db
          .updateTable('webhook_endpoints')
          .set({ ...failing, status })
          .where('partner_id', '=', 'ptn_x')
          .execute();
      const later = '2026-11-28T10:00:00.000Z';
      const stored = {
        consecutiveFailures: 9,
        failingSince: AT,
        lastSuccessAt: null,
        disabledReason: 'every attempt failed',
        disabledAt: AT,
      };

      await set('disabled');
      await updateEndpoint(db, endpoint('ptn_x', { status: 'disabled', updatedAt: later }));
      assert.deepEqual((await findEndpointByPartner(db, 'ptn_x'))?.health, stored, 'still disabled: kept');
      await set('active');
      await updateEndpoint(db, endpoint('ptn_x', { updatedAt: later }));
      assert.deepEqual((await findEndpointByPartner(db, 'ptn_x'))?.health, stored, 'already active (a URL change): kept');

      await set('disabled');
      await updateEndpoint(db, endpoint('ptn_x', { updatedAt: later }));
      const e = await findEndpointByPartner(db, 'ptn_x');
      assert.equal(e?.status, 'active');
      assert.deepEqual(e?.health, {
        consecutiveFailures: 0,
        failingSince: null,
        lastSuccessAt: null,
        disabledReason: null,
        disabledAt: null,
      });
    });
  },
  { storePerTest: true },
);
