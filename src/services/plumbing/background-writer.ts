/**
 * The loop behind writers that work off the request path (the audit log, src/services/audit.ts;
 * compliance results, src/services/compliance/stored-results.ts): one write at a time, started
 * every `intervalMs` while work is pending; a write that fails leaves its work pending for the
 * next tick, so a locked or unreachable store delays it, never drops it. A write takes what was
 * pending when it began: under steady load what arrives meanwhile waits for the next tick, so the
 * store sees one write per interval rather than one after another (docs/performance.md).
 */
export interface BackgroundWriter {
  /** One write of what is pending (joins the one under way). */
  write(): Promise<void>;
  /** Writes until nothing is pending or `deadline` (performance.now()) passes, pausing an interval after a failure. */
  drain(deadline: number): Promise<void>;
  /** Stops the timer and waits for the write under way. */
  stop(): Promise<void>;
}

/** Calls `tick` every `intervalMs` until the function it returns is called; tests tick by hand. */
export type BackgroundSchedule = (tick: () => void, intervalMs: number) => () => void;

export function backgroundWriter(options: {
  intervalMs: number;
  pending: () => boolean;
  /** Writes what is pending when it begins; throws when the store refuses (what is left stays pending). */
  writeAll: () => Promise<void>;
  onError: (err: unknown) => void;
  schedule?: BackgroundSchedule;
}): BackgroundWriter {
  const { intervalMs, pending } = options;
  let writing: Promise<boolean> | undefined;

  /** Resolves true when the write succeeded. */
  const attempt = (): Promise<boolean> => {
    writing ??= (async () => {
      try {
        await options.writeAll();
        return true;
      } catch (err) {
        options.onError(err);
        return false;
      } finally {
        writing = undefined;
      }
    })();
    return writing;
  };

  // A tick that finds a write still under way (a write slower than the interval) starts the next
  // one as soon as it ends, so what waits is never held longer than one interval past that write.
  let overdue = false;
  let stopped = false;
  const tick = (): void => {
    if (stopped || !pending()) return;
    if (writing) {
      overdue = true;
      return;
    }
    void attempt().then((ok) => {
      if (ok && overdue) {
        overdue = false;
        tick();
      }
    });
  };
  const cancel = (options.schedule ?? everyInterval)(tick, intervalMs);

  return {
    write: async () => {
      await attempt();
    },
    async drain(deadline) {
      while (pending() && performance.now() < deadline) {
        // What arrived during a write that succeeded is written at once; after a failure, an interval's pause.
        if (!(await attempt()) && pending()) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(0, deadline - performance.now()))));
        }
      }
    },
    async stop() {
      stopped = true;
      cancel();
      await writing;
    },
  };
}

/** Unreferenced: the owner ends it with stop(), then drains what is left. */
function everyInterval(tick: () => void, intervalMs: number): () => void {
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
