import type { RunPhases } from '../domain/sync-run.ts';
import type { SyncPhase } from '../domain/vocabulary.ts';

/** A monotonic reading in milliseconds (`performance.now` by default; tests pass their own). */
export type Stopwatch = () => number;

/**
 * Where one sync run's time goes. The diff reads the next page and writes the previous one while it
 * computes the current one, so `diff` and `write` count the time the run waited on each, and `read`
 * is the rest of the diff stage (planning, reading changes, waiting for a page read): the three add
 * up to the diff stage's wall time, and with `deliver` to the run's, apart from the bookkeeping
 * after delivery (held events, pruning).
 */
export class PhaseTimes {
  readonly #ms: Record<SyncPhase, number> = { read: 0, diff: 0, write: 0, deliver: 0 };
  #pages = 0;

  constructor(readonly stopwatch: Stopwatch = () => performance.now()) {}

  /** Runs `step` and adds its duration to `phase`. */
  async time<T>(phase: SyncPhase, step: () => Promise<T>): Promise<T> {
    const start = this.stopwatch();
    try {
      return await step();
    } finally {
      this.#ms[phase] += this.stopwatch() - start;
    }
  }

  /** Runs the diff stage: what its pages did not count as diffing or writing was reading. */
  async diffStage<T>(stage: () => Promise<T>): Promise<T> {
    const start = this.stopwatch();
    const before = this.#ms.diff + this.#ms.write;
    try {
      return await stage();
    } finally {
      this.#ms.read += Math.max(0, this.stopwatch() - start - (this.#ms.diff + this.#ms.write - before));
    }
  }

  pageCommitted(): void {
    this.#pages += 1;
  }

  report(): RunPhases {
    const seconds = (ms: number) => Math.round(ms) / 1000;
    return {
      seconds: {
        read: seconds(this.#ms.read),
        diff: seconds(this.#ms.diff),
        write: seconds(this.#ms.write),
        deliver: seconds(this.#ms.deliver),
      },
      pages: this.#pages,
    };
  }
}
