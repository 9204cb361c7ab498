/**
 * The run's delivery slots (requests in flight at once), shared fairly between endpoints: each
 * holds at most `perLane`, and a freed slot goes to the waiting endpoint with the fewest in flight
 * (the longest waiting among equals). An endpoint that hangs thus holds its share and no more, and
 * a healthy endpoint never waits behind another's queue.
 */
export class FairSlots {
  readonly #perLane: number;
  #free: number;
  readonly #inFlight = new Map<string, number>();
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
      for (let i = 0; i < this.#waiting.length; i++) {
        const n = this.#inFlight.get(this.#waiting[i]!.lane) ?? 0;
        if (n >= this.#perLane) continue;
        if (best < 0 || n < (this.#inFlight.get(this.#waiting[best]!.lane) ?? 0)) best = i;
      }
      if (best < 0) return;
      const [next] = this.#waiting.splice(best, 1);
      this.#free -= 1;
      this.#inFlight.set(next!.lane, (this.#inFlight.get(next!.lane) ?? 0) + 1);
      next!.grant();
    }
  }
}
