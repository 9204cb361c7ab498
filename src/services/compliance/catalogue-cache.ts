import type { RequirementDefinition } from '../../domain/catalogue.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Db } from '../../store/database.ts';
import { readCatalogue } from '../../store/repositories/compliance-repo.ts';

/**
 * The catalogue, read at most once per `ttlMs`. The evaluator caches its compiled index per array
 * identity, so handing out the same array between reloads keeps evaluations cheap.
 */
export class CatalogueCache {
  #value: readonly RequirementDefinition[] | undefined;
  #loadedAt = 0;
  #pending: Promise<readonly RequirementDefinition[]> | undefined;

  constructor(private readonly clock: Clock, private readonly ttlMs = 30_000) {}

  async get(db: Db): Promise<readonly RequirementDefinition[]> {
    const now = this.clock().getTime();
    if (this.#value && now - this.#loadedAt < this.ttlMs) return this.#value;
    this.#pending ??= readCatalogue(db).then((list) => {
      this.#value = list;
      this.#loadedAt = now;
      return list;
    }).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }
}
