import { compareDataVersions } from '../data-version.ts';
import type { EvaluatedRow } from '../read-api/compliance-matrix.ts';

/** A matrix as last built, at the data version it was built at, with the evaluations behind its rows. */
export interface MatrixState<M> {
  version: string;
  matrix: M;
  rows: ReadonlyMap<string, EvaluatedRow>;
}

/**
 * The last matrix built for each input (keys.ts, matrixKey), kept across data versions so that the
 * first call after a change re-evaluates only the crew members the change touched
 * (read-cache.ts). Bounded by the rows held, least recently used out first.
 */
export class MatrixStates<M> {
  readonly #held = new Map<string, MatrixState<M>>();
  #rows = 0;

  constructor(private readonly maxRows = 10_000) {}

  get(key: string): MatrixState<M> | undefined {
    const state = this.#held.get(key);
    if (state) {
      this.#held.delete(key);
      this.#held.set(key, state);
    }
    return state;
  }

  /** Keeps `state` unless one built at a newer version is held already. */
  set(key: string, state: MatrixState<M>): void {
    const old = this.#held.get(key);
    if (old && compareDataVersions(old.version, state.version) > 0) return;
    if (state.rows.size > this.maxRows / 4) return;
    this.#drop(key);
    this.#held.set(key, state);
    this.#rows += state.rows.size;
    while (this.#rows > this.maxRows) this.#drop(this.#held.keys().next().value!);
  }

  /** Matrices held, and their rows. */
  get size(): { entries: number; rows: number } {
    return { entries: this.#held.size, rows: this.#rows };
  }

  #drop(key: string): void {
    const old = this.#held.get(key);
    if (!old) return;
    this.#held.delete(key);
    this.#rows -= old.rows.size;
  }
}
