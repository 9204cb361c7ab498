import { compareDataVersions } from '../services/data-version.ts';

export interface BodyCacheOptions {
  /** Answers held at most (default 2,000). */
  maxEntries?: number;
  /** Bytes of answers held at most (default 32 MiB); an answer above an eighth of it is never held. */
  maxBytes?: number;
}

/**
 * Serialised answers of the GETs whose ETag comes from the data version (src/http/conditional.ts),
 * keyed by that tag: the tag already covers everything such an answer depends on (route, path and
 * query, partner, key mode and scopes, today's date, the public origin, the data version), so an
 * answer built at version V is the answer for its tag for as long as the store is at V. Those
 * answers hold no link that expires (the download link and the compliance check, whose links do,
 * are not cached). Bounded in entries and bytes, least recently used out first; when a newer
 * version is seen, everything held is dropped at once, since no older tag can match again.
 */
export class BodyCache {
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Buffer>();
  #bytes = 0;
  #version: string | undefined;

  constructor(options: BodyCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 2_000;
    this.#maxBytes = options.maxBytes ?? 32 * 2 ** 20;
  }

  /** The answer held for `tag`, built at `version`; a newer version drops everything older. */
  get(version: string, tag: string): Buffer | undefined {
    if (!this.#current(version)) return undefined;
    const hit = this.#entries.get(tag);
    if (hit === undefined) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(tag);
    this.#entries.set(tag, hit);
    return hit;
  }

  /** Holds the answer built for `tag` at `version` (ignored when a newer version has been seen). */
  set(version: string, tag: string, body: Buffer): void {
    if (!this.#current(version) || body.length > this.#maxBytes / 8) return;
    this.#drop(tag);
    this.#entries.set(tag, body);
    this.#bytes += body.length;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) this.#drop(this.#entries.keys().next().value!);
  }

  /** Answers held, and their bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /** Whether `version` is the newest seen (adopting it, and dropping older answers, when it is newer). */
  #current(version: string): boolean {
    if (this.#version === version) return true;
    if (this.#version !== undefined && compareDataVersions(version, this.#version) < 0) return false;
    this.#version = version;
    this.#entries.clear();
    this.#bytes = 0;
    return true;
  }

  #drop(tag: string): void {
    const old = this.#entries.get(tag);
    if (old === undefined) return;
    this.#entries.delete(tag);
    this.#bytes -= old.length;
  }
}
