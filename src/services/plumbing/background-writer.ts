/**
 * The loop behind writers that work off the request path (the audit log, src/services/audit.ts;
 * compliance results, src/services/compliance/stored-results.ts): one write at a time, started
 * every `intervalMs` while work is pending; a write that fails leaves its work pending for the
 * next tick, so a locked or unreachable store delays it, never drops it.
 */
export interface BackgroundWriter {
  /** One write of what is pending (joins the one under way). */
  write(): Promise<void>;
  /** Writes until nothing is pending or `deadline` (performance.now()) passes, pausing an interval after a failure. */
  drain(deadline: number): Promise<void>;
  /** Stops the timer and waits for the write under way. */
  stop(): Promise<void>;
}

export function backgroundWriter(options: {
  intervalMs: number;
  pending: () => boolean;
  /** Writes what is pending; throws when the store refuses (what is left stays pending). */
  writeAll: () => Promise<void>;
  onError: (err: unknown) => void;
}): BackgroundWriter {
  const { intervalMs, pending } = options;
  let writing: Promise<void> | undefined;

  const write = (): Promise<void> => {
    writing ??= (async () => {
      try {
        await options.writeAll();
      } catch (err) {
        options.onError(err);
      } finally {
        writing = undefined;
      }
    })();
    return writing;
  };

  // Unreferenced: the owner ends it with stop(), then drains what is left.
  const timer = setInterval(() => {
    if (pending()) void write();
  }, intervalMs);
  timer.unref();

  return {
    write,
    async drain(deadline) {
      while (pending() && performance.now() < deadline) {
        await write();
        if (pending()) await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(0, deadline - performance.now()))));
      }
    },
    async stop() {
      clearInterval(timer);
      await writing;
    },
  };
}
