/*
 * The operators' HTTP ways in (docs/api.md, "Admin: sending changes and files"): their bounds and
 * vocabulary, written once for the routes, the services and the OpenAPI document.
 */

/** Largest body of POST /api/v2/admin/changes, and most changes one request carries. */
export const MAX_CHANGES_BYTES = 10 * 1024 * 1024;
export const MAX_CHANGES = 10_000;

/** The media types POST /api/v2/admin/changes reads: NDJSON (one change a line) or a JSON array of changes. */
export const CHANGES_TYPES = ['application/x-ndjson', 'application/json'] as const;
export type ChangesType = (typeof CHANGES_TYPES)[number];

/** The media types a file may be uploaded as: those documents and photos are served with. */
export const UPLOAD_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** An Idempotency-Key: 1 to 255 visible ASCII characters (a UUID, say). */
export const IDEMPOTENCY_KEY = /^[!-~]{1,255}$/;
/** How long the answer sent under an Idempotency-Key is kept, and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a change sent over HTTP that refers to an entity or file not known yet waits for it. */
export const REQUEST_HOLD_MS = 24 * 3_600_000;
