import type { RequirementDefinition } from '../../domain/catalogue.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Db } from '../../store/database.ts';
import { readCatalogue } from '../../store/repositories/compliance-repo.ts';

/**
 * The requirement catalogue as loaded, with a number that names its definitions: a reload that
 * read other definitions gets the next number, one that read the same keeps it, so what was
 * worked out with a catalogue (evaluations, matrices) is keyed by `version`, not by the array.
 */
export interface Catalogue {
  version: number;
  definitions: readonly RequirementDefinition[];
}

/** The catalogue, read at most once per `ttlMs`. */
export class CatalogueCache {
  #value: Catalogue | undefined;
  #text = '';
  #loadedAt = 0;
  #pending: Promise<Catalogue> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = 30_000,
  ) {}

  async get(db: Db): Promise<Catalogue> {
    const now = this.clock().getTime();
    if (this.#value && now - this.#loadedAt < this.ttlMs) return this.#value;
    this.#pending ??= readCatalogue(db)
      .then((definitions) => {
        const text = JSON.stringify(definitions);
        if (text !== this.#text) {
          this.#value = { version: (this.#value?.version ?? 0) + 1, definitions };
          this.#text = text;
        }
        this.#loadedAt = now;
        return this.#value!;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}
