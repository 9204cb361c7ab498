import { VersionedCache } from './versioned-cache.ts';

/** An answer as it was sent: its JSON bytes and the ETag computed from them. */
export interface HeldAnswer {
  etag: string;
  bytes: Buffer;
}

/**
 * Serialised answers of the data-versioned GETs (src/http/conditional.ts) with their tags, keyed
 * by the request (AnswerRequest, keys.ts): an answer built at data version V is the answer to that
 * request for as long as the store is at V. Those answers hold no link that expires (the download
 * link and the compliance check, whose links do, are not cached). 2,000 answers and 32 MiB by
 * default, least recently used out first.
 */
export class BodyCache extends VersionedCache<HeldAnswer> {
  constructor(options: { maxEntries?: number; maxBytes?: number } = {}) {
    super({ ...options, sizeOf: (answer) => answer.bytes.length });
  }
}
