import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { servesStandardWebhooks } from '../../src/domain/webhooks.ts';
import { generateWebhookSecret } from '../../src/services/webhooks/endpoints.ts';

describe('which secrets serve both signature schemes', () => {
  it('every generated secret does, and the standardwebhooks package decodes it to the same 32 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const secret = generateWebhookSecret(() => Buffer.from(bytes));
        assert.ok(servesStandardWebhooks(secret), secret);
        // The key the library signs with, read back through its own sign(): equal signatures mean equal keys.
        const raw = new Webhook(Buffer.from(bytes), { format: 'raw' }).sign('msg_1', new Date(0), 'x');
        assert.equal(new Webhook(secret).sign('msg_1', new Date(0), 'x'), raw);
      }),
    );
  });

  it('whsec_ and standard base64 of 24 to 64 bytes does; other lengths, base64url and free text do not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 90 }), (bytes) => {
        const b = Buffer.from(bytes);
        assert.equal(servesStandardWebhooks(`whsec_${b.toString('base64')}`), b.length >= 24 && b.length <= 64);
        // Secrets generated before: base64url without padding (43 characters for 32 bytes).
        const url = b.toString('base64url');
        if (url !== b.toString('base64')) assert.equal(servesStandardWebhooks(`whsec_${url}`), false, url);
      }),
    );
    for (const s of [
      'whsec_demo-receiver-secret-0123456789',
      'a-plain-shared-secret-of-some-length',
      `${Buffer.alloc(32).toString('base64')}`,
    ]) {
      assert.equal(servesStandardWebhooks(s), false, s);
    }
  });
});
