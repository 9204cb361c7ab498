import { VersionedCache } from '../services/plumbing/versioned-cache.ts';

/**
 * Serialised answers of the GETs whose ETag comes from the data version (src/http/conditional.ts),
 * keyed by that tag: the tag already covers everything such an answer depends on (route, path and
 * query, partner, key mode and scopes, today's date, the public origin, the data version), so an
 * answer built at version V is the answer for its tag for as long as the store is at V. Those
 * answers hold no link that expires (the download link and the compliance check, whose links do,
 * are not cached). 2,000 answers and 32 MiB by default, least recently used out first.
 */
export class BodyCache extends VersionedCache<Buffer> {
  constructor(options: { maxEntries?: number; maxBytes?: number } = {}) {
    super({ ...options, sizeOf: (body) => body.length });
  }
}
