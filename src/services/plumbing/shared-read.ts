import type { Clock } from '../../domain/clock.ts';

/**
 * One read shared by everyone who asks: a call while a read is under way waits for that read, and
 * its value is handed out until `maxAgeMs` after the read started. A failed read is not kept: the
 * next call reads again. User: the store-side gauges of a metrics scrape (src/http/metrics/registry.ts),
 * so any number of scrapers cost the store at most one read per `maxAgeMs`.
 */
export class SharedRead<T> {
  #held: { value: T; readAt: number } | undefined;
  #pending: Promise<T> | undefined;

  constructor(
    private readonly read: (now: Date) => Promise<T>,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
  ) {}

  get(): Promise<T> {
    const now = this.clock();
    const age = this.#held ? now.getTime() - this.#held.readAt : -1;
    // A clock that went back since the read is not trusted to say the value is fresh.
    if (this.#held && age >= 0 && age < this.maxAgeMs) return Promise.resolve(this.#held.value);
    this.#pending ??= this.read(now)
      .then((value) => {
        this.#held = { value, readAt: now.getTime() };
        return value;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}
