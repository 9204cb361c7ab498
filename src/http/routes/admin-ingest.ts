import { createHash } from 'node:crypto';
import {
  CHANGES_TYPES,
  IDEMPOTENCY_KEY,
  MAX_CHANGES,
  MAX_CHANGES_BYTES,
  REQUEST_HOLD_MS,
  UPLOAD_TYPES,
  type ChangesType,
  type UploadType,
} from '../../domain/ingest-requests.ts';
import { UNUSED_FILE_HOURS } from '../../services/files/unused-files.ts';
import type { IngestDeps } from '../../services/ingest/apply-changes.ts';
import { MAX_FILE_BYTES } from '../../services/ingest/file-source.ts';
import { applyRequestChanges } from '../../services/ingest/request-changes.ts';
import { uploadFile } from '../../services/ingest/upload-file.ts';
import type { AppContext, RouteDeps } from '../app-deps.ts';
import { operatorScopeError } from '../middleware/auth.ts';
import { operatorOf, pathParam } from '../request-context.ts';
import { route, routeModule } from '../route.ts';
import { bodyChunks, mediaTypeOf, refusedBody } from '../streamed-body.ts';
import { changesOf } from '../validation/changes-body.ts';
import { issues, throwValidation } from '../validation/issues.ts';

const MIB = 1024 * 1024;
const SHA256 = '^[0-9a-f]{64}$';

/** Changes and files reach every partner's data: an operator key tied to one partner may not send them. */
function requireUntiedOperator(ctx: AppContext): void {
  const operator = operatorOf(ctx);
  if (operator.partnerId !== null) {
    throw operatorScopeError(
      `this operator key is tied to partner ${operator.partnerId}; changes and files take an operator key of no partner`,
    );
  }
}

function ingestDeps(deps: RouteDeps): IngestDeps {
  return { clock: deps.clock, holdMs: REQUEST_HOLD_MS };
}

function acceptedType<T extends string>(ctx: AppContext, types: readonly T[]): T {
  const type = mediaTypeOf(ctx);
  if (!(types as readonly string[]).includes(type)) {
    throw refusedBody('unsupported_media_type', `send the body as ${types.join(' or ')}${type ? `, not ${type.slice(0, 100)}` : ''}`);
  }
  return type as T;
}

function idempotencyKey(ctx: AppContext): string | undefined {
  const key = ctx.get('Idempotency-Key');
  if (key === '') return undefined;
  if (!IDEMPOTENCY_KEY.test(key))
    throwValidation([issues.stringPatternMismatch(['header', 'idempotency-key'], key, IDEMPOTENCY_KEY.source)]);
  return key;
}

async function readAll(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

const errorAnswer = (description: string) => ({ description, schema: 'Error' });
const NOT_UNTIED =
  'Operator key (`svc_op_…`) of no partner only: a partner key, or an operator key tied to a partner, gets 403 `insufficient_scope`.';

/**
 * The operators' HTTP ways in (docs/ingest.md, docs/api.md "Admin: sending changes and files"):
 * a batch of changes applied in one transaction with a result per change, and a file uploaded by
 * its SHA-256 for changes to name. Both read their bodies themselves, streamed, with their own
 * bounds (10 MiB and 10,000 changes; 25 MiB a file).
 */
export const adminIngestRoutes = routeModule('admin-ingest', [
  route({
    method: 'post',
    path: '/api/v2/admin/changes',
    access: 'operator',
    body: {
      readBy: 'route',
      description: `At most ${MAX_CHANGES_BYTES / MIB} MiB and ${MAX_CHANGES} changes.`,
      content: {
        'application/x-ndjson': {
          schema: { type: 'string', description: 'one IngestChange (a JSON object) per line; blank lines are skipped' },
        },
        'application/json': { schema: { $ref: '#/components/schemas/IngestChanges' } },
      },
    },
    doc: {
      operationId: 'applyChanges',
      tags: ['admin'],
      summary: "Send the platform's changes: NDJSON or a JSON array, a result per change",
      description:
        `${NOT_UNTIED} The changes are applied in one transaction, in the order sent, as \`svc ingest\` applies a file ` +
        '(docs/ingest.md): each is `applied`, `stale`, `held` or `rejected`, and a bad change is reported with its field path while ' +
        'the others apply. A change sent before the entity it refers to in the same request applies once that entity has. Changes ' +
        'held by earlier requests or runs are tried again after a request that applied one. With an `Idempotency-Key`, the answer ' +
        'is kept 24 hours: the same key with the same body gets it again (`Idempotent-Replayed: true`, else `false`) and applies nothing; with ' +
        'another body, 409 `idempotency_key_reused`. Without one, a repeat is harmless: its changes are `stale`.',
      headers: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'names this batch (a UUID, say): a repeat within 24 hours is answered from the first, nothing applied twice',
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY.source },
        },
      ],
      responses: {
        200: {
          description: "Every change's result, and the counts",
          schema: 'ChangesAnswer',
          headers: {
            'Idempotent-Replayed': {
              description: '`true` when the answer is the one kept for this Idempotency-Key, else `false`',
              schema: { enum: ['true', 'false'] },
            },
          },
        },
        413: errorAnswer(`Body over ${MAX_CHANGES_BYTES / MIB} MiB, or more than ${MAX_CHANGES} changes: \`payload_too_large\``),
        415: errorAnswer(
          'Body neither application/x-ndjson nor application/json, or sent with a Content-Encoding: `unsupported_media_type`',
        ),
      },
      errors: { 409: ['idempotency_key_reused'] },
    },
    async handle(ctx, _input, deps) {
      requireUntiedOperator(ctx);
      const type = acceptedType<ChangesType>(ctx, CHANGES_TYPES);
      const key = idempotencyKey(ctx);
      const body = await readAll(bodyChunks(ctx, MAX_CHANGES_BYTES, 'a batch of changes'));
      const incoming = await changesOf(body, type);
      const bodySha256 = createHash('sha256').update(`${type}\n`).update(body).digest('hex');
      const { answer, replayed } = await applyRequestChanges(
        deps.db,
        incoming,
        ingestDeps(deps),
        key === undefined ? undefined : { key, bodySha256 },
      );
      ctx.set('Idempotent-Replayed', String(replayed));
      ctx.body = answer;
    },
  }),
  route({
    method: 'put',
    path: '/api/v2/admin/files/:sha256',
    access: 'operator',
    body: {
      readBy: 'route',
      description: `The file's bytes, at most ${MAX_FILE_BYTES / MIB} MiB.`,
      content: Object.fromEntries(UPLOAD_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])),
    },
    doc: {
      operationId: 'uploadFile',
      tags: ['admin'],
      summary: 'Upload a document file or photo by its SHA-256, for changes to name',
      description:
        `${NOT_UNTIED} The bytes are hashed as they arrive; when their SHA-256 is not the one in the path, nothing is stored ` +
        'and the answer is 422 (`value_error` at `["path", "sha256"]`). A change naming the file as `file_sha256` (a document) or ' +
        '`photo_sha256` (a crew member) then applies; one that arrived before the file was held, and is tried again once the file is ' +
        'stored. 201 when the file is new, 200 when it was held already (its bytes are not written again). A file no document, ' +
        `photo or held change names is deleted by \`svc sync\` once stored ${UNUSED_FILE_HOURS} hours ago (docs/ingest.md, "Files").`,
      responses: {
        200: { description: 'The file was held already', schema: 'FileUpload' },
        201: { description: 'The file, stored', schema: 'FileUpload' },
        413: errorAnswer(`Body over ${MAX_FILE_BYTES / MIB} MiB: \`payload_too_large\``),
        415: errorAnswer(`Body not ${UPLOAD_TYPES.join(', ')}, or sent with a Content-Encoding: \`unsupported_media_type\``),
      },
    },
    async handle(ctx, _input, deps) {
      requireUntiedOperator(ctx);
      const expected = pathParam(ctx, 'sha256');
      if (!new RegExp(SHA256).test(expected)) {
        ctx.set('Connection', 'close');
        throwValidation([issues.stringPatternMismatch(['path', 'sha256'], expected, SHA256)]);
      }
      const type = acceptedType<UploadType>(ctx, UPLOAD_TYPES);
      const stored = await uploadFile(deps.db, expected, type, bodyChunks(ctx, MAX_FILE_BYTES, 'a file'), ingestDeps(deps));
      if (stored.outcome === 'mismatch') {
        throwValidation([issues.valueError(['path', 'sha256'], expected, `the body's SHA-256 is ${stored.actualSha256}`)]);
      }
      ctx.status = stored.outcome === 'created' ? 201 : 200;
      ctx.body = { file_sha256: stored.fileSha256, content_type: stored.contentType, size: stored.size, held_applied: stored.heldApplied };
    },
  }),
]);
