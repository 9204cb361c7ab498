import type { Config } from '../config/config.ts';
import type { EventSource } from './run-sync.ts';

/**
 * The sources `svc sync` runs before delivery, in order. The fleet diff (partner visibility now
 * against the last snapshot) joins here; until then a run delivers what the outbox holds.
 */
export function syncEventSources(_config: Config): EventSource[] {
  return [];
}
