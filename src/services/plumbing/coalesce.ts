/**
 * Calls coalesced: callers hand in one item each and await their own result, while the items that
 * arrive during one run of `run` are handled together by the next. Under load a burst of calls
 * costs one store round trip instead of one each; alone, an item is handled at once. Every run
 * starts after each of its items arrived, so a caller's result was read or written after its call
 * began. Users: delivery attempts written together (a group commit, src/sync/delivery/record.ts)
 * and the data version read once for the requests waiting on it (read-cache/coalesced-data-version.ts).
 */
export function coalesce<T, R>(run: (items: readonly T[]) => Promise<readonly R[]>): (item: T) => Promise<R> {
  let queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  let running = false;

  const drain = async (): Promise<void> => {
    running = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const results = await run(batch.map((b) => b.item));
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
