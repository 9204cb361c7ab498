import { compareDataVersions } from '../data-version.ts';

export interface VersionedCacheOptions<T> {
  /** Values held at most (default 2,000). */
  maxEntries?: number;
  /** Size of the values held at most (default 32 MiB); a value above an eighth of it is never held. */
  maxBytes?: number;
  /** A value's size, counted against maxBytes (default: 1 per value). */
  sizeOf?: (value: T) => number;
}

/**
 * Values that hold while the store's data version (src/services/data-version.ts) does: each is
 * stored under the version it was built at, and when a newer version is seen everything held is
 * dropped at once, since nothing built earlier can be asked for again; a value built at an older
 * version than the newest seen is not kept. Bounded in entries and size, least recently used out
 * first. Users: the read cache's answers of data-versioned GETs (body-cache.ts), compliance
 * evaluations and fleet-and-consent answers (read-cache.ts).
 */
export class VersionedCache<T> {
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #sizeOf: (value: T) => number;
  readonly #entries = new Map<string, { value: T; size: number }>();
  #bytes = 0;
  #version: string | undefined;

  constructor(options: VersionedCacheOptions<T> = {}) {
    this.#maxEntries = options.maxEntries ?? 2_000;
    this.#maxBytes = options.maxBytes ?? 32 * 2 ** 20;
    this.#sizeOf = options.sizeOf ?? (() => 1);
  }

  /** The value held for `tag`, built at `version`; a newer version drops everything older. */
  get(version: string, tag: string): T | undefined {
    if (!this.#current(version)) return undefined;
    const hit = this.#entries.get(tag);
    if (hit === undefined) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(tag);
    this.#entries.set(tag, hit);
    return hit.value;
  }

  /** Holds the value built for `tag` at `version` (ignored when a newer version has been seen). */
  set(version: string, tag: string, value: T): void {
    const size = this.#sizeOf(value);
    if (!this.#current(version) || size > this.#maxBytes / 8) return;
    this.#drop(tag);
    this.#entries.set(tag, { value, size });
    this.#bytes += size;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) this.#drop(this.#entries.keys().next().value!);
  }

  /**
   * The value held for `tag` at `version`, else what `build` makes, held for the next call. A null
   * version (the store could not give one safely) always builds and keeps nothing.
   */
  async obtain(version: string | null, tag: string, build: () => Promise<T>): Promise<T> {
    if (version === null) return build();
    const held = this.get(version, tag);
    if (held !== undefined) return held;
    const value = await build();
    this.set(version, tag, value);
    return value;
  }

  /** Values held, and their total size. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /** Whether `version` is the newest seen (adopting it, and dropping older values, when it is newer). */
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
    this.#bytes -= old.size;
  }
}
