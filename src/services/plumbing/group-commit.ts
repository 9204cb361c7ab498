/**
 * Group commit: callers hand in one item each and await their own result, while the items that
 * arrive during one store round trip are written together by the next. Under load a burst of
 * requests costs one statement instead of one each; alone, an item is written at once.
 */
export function groupCommit<T, R>(flush: (items: readonly T[]) => Promise<readonly R[]>): (item: T) => Promise<R> {
  let queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  let running = false;

  const drain = async (): Promise<void> => {
    running = true;
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

  return (item) => new Promise<R>((resolve, reject) => {
    queue.push({ item, resolve, reject });
    if (!running) void drain();
  });
}
