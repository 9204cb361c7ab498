import type { RequirementDefinition } from '../../domain/catalogue.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Db } from '../../store/database.ts';
import { readCatalogue } from '../../store/repositories/compliance-repo.ts';

/**
 * The catalogue, read at most once per `ttlMs`. The evaluator caches its compiled index per array
 * identity, and reused evaluations and matrices are keyed by it, so the same array is handed out
 * between reloads and after a reload that read the same definitions.
 */
export class CatalogueCache {
  #value: readonly RequirementDefinition[] | undefined;
  #text = '';
  #loadedAt = 0;
  #pending: Promise<readonly RequirementDefinition[]> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = 30_000,
  ) {}

  /** The catalogue when one read less than `ttlMs` ago is held, without waiting; else undefined. */
  held(): readonly RequirementDefinition[] | undefined {
    return this.#value && this.clock().getTime() - this.#loadedAt < this.ttlMs ? this.#value : undefined;
  }

  async get(db: Db): Promise<readonly RequirementDefinition[]> {
    const held = this.held();
    if (held) return held;
    const now = this.clock().getTime();
    this.#pending ??= readCatalogue(db)
      .then((list) => {
        const text = JSON.stringify(list);
        if (text !== this.#text) {
          this.#value = list;
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
