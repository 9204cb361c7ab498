import type { Readable } from 'node:stream';

/**
 * Resolves with the first match of `pattern` in what `stream` has written so far (`seen()`) or
 * writes next: woken by the stream's own data events, not by polling. Fails after `limitMs`,
 * saying what was awaited and what was seen.
 */
export function waitForOutput(stream: Readable, seen: () => string, pattern: RegExp, limitMs = 10_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    // After the test's own listener has run, so `seen()` already holds the chunk.
    const onData = () => setImmediate(check);
    const check = () => {
      const m = pattern.exec(seen());
      if (!m) return;
      clearTimeout(deadline);
      stream.off('data', onData);
      resolve(m);
    };
    const deadline = setTimeout(() => {
      stream.off('data', onData);
      reject(new Error(`no ${pattern} within ${limitMs} ms in: ${seen().slice(-2000)}`));
    }, limitMs);
    stream.on('data', onData);
    check();
  });
}
