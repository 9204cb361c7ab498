import { INGEST_ENTITIES, INGEST_OPS, INGEST_OUTCOMES } from '../domain/ingest-change.ts';
import { MAX_CHANGES, UPLOAD_TYPES } from '../domain/ingest-requests.ts';
import { nullable, ref, type JsonObject } from './types.ts';

const str = { type: 'string' };
const count = { type: 'integer', minimum: 0 };

/** The schemas of the operators' ways in (POST /api/v2/admin/changes, PUT /api/v2/admin/files/{sha256}); docs/ingest.md. */
export const ingestSchemas: Record<string, JsonObject> = {
  IngestChange: {
    type: 'object',
    description:
      "One change (docs/ingest.md): the entity, its id, the operation and the source's version of the entity; `data` holds " +
      'the record (upsert) or a JSON Merge Patch of it (patch), with the fields spelled as in the fixtures. Checked per change: a bad ' +
      'one is a `rejected` result, not an error of the request.',
    properties: {
      entity: { enum: [...INGEST_ENTITIES] },
      op: { enum: [...INGEST_OPS] },
      id: {
        description: 'the entity\'s id; a consent\'s is `{"crew_unique_id": …, "partner_id": …}`',
        oneOf: [str, { type: 'object', properties: { crew_unique_id: str, partner_id: str }, required: ['crew_unique_id', 'partner_id'] }],
      },
      version: {
        type: 'integer',
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'monotonic per entity at the source; not newer than the stored one: `stale`',
      },
      data: { type: 'object', description: 'absent for `delete`' },
    },
    required: ['entity', 'op', 'id', 'version'],
  },
  IngestChanges: { type: 'array', items: ref('IngestChange'), maxItems: MAX_CHANGES },
  ChangeResult: {
    type: 'object',
    properties: {
      line: {
        type: 'integer',
        minimum: 1,
        description: "the change's line in an NDJSON body (blank lines counted), its position from 1 in a JSON array",
      },
      entity: { ...nullable({ enum: [...INGEST_ENTITIES] }), description: 'null when the change did not name a known entity' },
      id: {
        ...nullable(str),
        description: "the entity's id (a consent's as `crew_unique_id|partner_id`); null when the change could not be read",
      },
      outcome: {
        enum: [...INGEST_OUTCOMES],
        description:
          '`applied`; `stale` (its version is not newer than the stored one: nothing written); `held` (it refers to an entity or ' +
          'file not known yet: kept and tried again for 24 hours, then rejected); `rejected` (nothing of it written)',
      },
      reason: { ...nullable(str), description: 'why it was stale, held or rejected' },
      issues: {
        type: 'array',
        items: ref('ValidationIssue'),
        description: 'a rejected change\'s problems, by field path (`["data", "date_of_birth"]`)',
      },
    },
    required: ['line', 'entity', 'id', 'outcome', 'reason', 'issues'],
  },
  ChangesAnswer: {
    type: 'object',
    properties: {
      results: { type: 'array', items: ref('ChangeResult'), description: 'one per change, in the order sent' },
      applied: count,
      stale: count,
      held: count,
      rejected: count,
    },
    required: ['results', 'applied', 'stale', 'held', 'rejected'],
  },
  FileUpload: {
    type: 'object',
    properties: {
      file_sha256: {
        ...str,
        pattern: '^[0-9a-f]{64}$',
        description: "the file's id: name it as `file_sha256` (documents) or `photo_sha256` (crew) in a change",
      },
      content_type: { enum: [...UPLOAD_TYPES] },
      size: { type: 'integer', minimum: 1 },
      held_applied: {
        ...count,
        description: 'changes held until now (waiting for this file or anything else) that applied after it was stored',
      },
    },
    required: ['file_sha256', 'content_type', 'size', 'held_applied'],
  },
};
