export interface GroupCommitOptions {
  /**
   * Start a flush only once the event loop's current turn is over (setImmediate), so every item
   * handed in during that turn joins it: the requests one read of the sockets delivered share one
   * round trip, and their answers leave together, instead of the first going alone and the rest
   * waiting for the next. A lone item waits one turn, a few microseconds on an idle process.
   */
  gatherTurn?: boolean;
}

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Group commit: callers hand in one item each and await their own result, while the items that
 * arrive during one store round trip are written together by the next. Under load a burst of
 * requests costs one statement instead of one each; alone, an item is written at once (or at the
 * end of the turn, with `gatherTurn`). Every flush starts after each of its items arrived.
 */
export function groupCommit<T, R>(
  flush: (items: readonly T[]) => Promise<readonly R[]>,
  options: GroupCommitOptions = {},
): (item: T) => Promise<R> {
  let queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  let running = false;

  const drain = async (): Promise<void> => {
    running = true;
    if (options.gatherTurn) await endOfTurn();
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const results = await flush(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i]!));
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    running = false;
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
