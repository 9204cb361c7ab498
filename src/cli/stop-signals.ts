import { setMaxListeners } from 'node:events';
import { constants } from 'node:os';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** How a one-shot job learns that it should stop, and how hard. */
export interface StopRequest {
  /** Aborted by the first SIGINT/SIGTERM: take no new work. */
  drain: AbortSignal;
  /** Aborted when the grace period after the first signal is over, or by a second signal: give up work in flight. */
  cancel: AbortSignal;
  /** The first signal received, if any. */
  received(): StopSignal | undefined;
  /** Stops listening (and the grace timer); a later signal gets Node's default behaviour. */
  dispose(): void;
}

/** The shell's convention for a process ended by a signal: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/**
 * Listens for SIGINT and SIGTERM. The first aborts `drain` and, `graceMs` later, `cancel`; a second
 * aborts `cancel` at once. `onSignal` is told each time (to say so on stderr).
 */
export function stopOnSignals(graceMs: number, onSignal: (signal: StopSignal, phase: 'drain' | 'cancel') => void): StopRequest {
  const drain = new AbortController();
  const cancel = new AbortController();
  // Every wait of the run listens on these two at once (a delivery lane waiting for a send slot
  // another process holds, one per endpoint): more than Node's 10 is no leak (each wait removes its
  // listener when it ends) and must not print a MaxListenersExceededWarning into the job's log.
  setMaxListeners(0, drain.signal, cancel.signal);
  let first: StopSignal | undefined;
  let timer: NodeJS.Timeout | undefined;
  const handle = (signal: StopSignal) => {
    if (first === undefined) {
      first = signal;
      drain.abort(new Error(`stopped by ${signal}`));
      onSignal(signal, 'drain');
      timer = setTimeout(() => {
        cancel.abort(new Error('grace period over'));
        onSignal(signal, 'cancel');
      }, graceMs);
      return;
    }
    dispose();
    if (!cancel.signal.aborted) {
      cancel.abort(new Error(`stopped by a second ${signal}`));
      onSignal(signal, 'cancel');
    }
  };
  const onInt = () => handle('SIGINT');
  const onTerm = () => handle('SIGTERM');
  function dispose(): void {
    clearTimeout(timer);
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return { drain: drain.signal, cancel: cancel.signal, received: () => first, dispose };
}
