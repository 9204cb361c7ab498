/**
 * The run's delivery slots (requests in flight at once), shared fairly between endpoints: each
 * holds at most `perLane`, and a freed slot goes to the waiting endpoint with the fewest in flight
 * (the longest waiting among equals). An endpoint whose last attempt failed (`setFailing`) holds
 * at most one slot and is served after every endpoint that is not failing: endpoints that hang
 * cannot keep a healthy one waiting for more than one timeout, however many of them there are.
 */
export class FairSlots {
  readonly #perLane: number;
  #free: number;
  readonly #inFlight = new Map<string, number>();
  readonly #failing = new Set<string>();
  #waiting: Array<{ lane: string; grant: () => void }> = [];

  constructor(total: number, perLane: number) {
    this.#free = total;
    this.#perLane = perLane;
  }

  /** Resolves with the function that gives the slot back, once `lane` may send. */
  acquire(lane: string): Promise<() => void> {
    return new Promise((resolve) => {
      this.#waiting.push({ lane, grant: () => resolve(this.#releaser(lane)) });
      this.#dispatch();
    });
  }

  /** The slots `lane` holds now (granted and not given back). */
  held(lane: string): number {
    return this.#inFlight.get(lane) ?? 0;
  }

  /** Marks `lane` failing (its last attempt failed) or not; takes effect at the next free slot. */
  setFailing(lane: string, failing: boolean): void {
    if (failing) this.#failing.add(lane);
    else this.#failing.delete(lane);
  }

  /** Lower is served first: endpoints not failing, then the fewest in flight. */
  #rank(lane: string): number {
    return (this.#failing.has(lane) ? this.#perLane + 1 : 0) + (this.#inFlight.get(lane) ?? 0);
  }

  #releaser(lane: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#free += 1;
      this.#inFlight.set(lane, this.#inFlight.get(lane)! - 1);
      this.#dispatch();
    };
  }

  #dispatch(): void {
    while (this.#free > 0) {
      let best = -1;
      let bestRank = Infinity;
      for (let index = 0; index < this.#waiting.length; index++) {
        const lane = this.#waiting[index]!.lane;
        const inFlight = this.#inFlight.get(lane) ?? 0;
        if (inFlight >= (this.#failing.has(lane) ? 1 : this.#perLane)) continue;
        const rank = this.#rank(lane);
        if (rank < bestRank) {
          best = index;
          bestRank = rank;
        }
      }
      if (best < 0) return;
      const [next] = this.#waiting.splice(best, 1);
      this.#free -= 1;
      this.#inFlight.set(next!.lane, (this.#inFlight.get(next!.lane) ?? 0) + 1);
      next!.grant();
    }
  }
}
