import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { stopOnSignals } from '../../src/cli/stop-signals.ts';

describe('the stop signals of a job', () => {
  it('take as many waits at once as a run has endpoints, with no warning in the log, and keep no listener after them', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const stop = stopOnSignals(1000, () => {});
    try {
      // 40 lanes waiting for a send slot held elsewhere (src/sync/delivery/endpoint-slots.ts), on both signals.
      await Promise.all([stop.drain, stop.cancel].flatMap((signal) => Array.from({ length: 40 }, () => delay(5, undefined, { signal }))));
      // A warning is emitted on a later tick than the listener that raised it.
      await delay(20);
      assert.deepEqual(warnings, []);
      assert.equal(getEventListeners(stop.drain, 'abort').length, 0);
      assert.equal(getEventListeners(stop.cancel, 'abort').length, 0);
    } finally {
      stop.dispose();
      process.off('warning', onWarning);
    }
  });
});
