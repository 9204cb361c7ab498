import type { ConfirmChannel } from 'amqplib';
import type { ChangeResult } from '../../domain/ingest-change.ts';
import type { Incoming } from './apply-changes.ts';

/**
 * The body of one dead-lettered change (docs/ingest.md, "RabbitMQ"): where it came from, why it was
 * rejected (the issues shaped as the admin API's 422 issues) and the change's own line, as received.
 */
export interface DeadLetter {
  origin: string;
  source_queue: string;
  entity: string | null;
  id: string | null;
  reason: string;
  issues: NonNullable<ChangeResult['issues']>;
  change: string;
  rejected_at: string;
}

/** The dead letters of a batch's results: one per rejected change, paired with its line by position. */
export function deadLetters(incoming: readonly Incoming[], results: readonly ChangeResult[], sourceQueue: string, at: Date): DeadLetter[] {
  const letters: DeadLetter[] = [];
  results.forEach((r, i) => {
    if (r.outcome !== 'rejected') return;
    letters.push({
      origin: r.origin,
      source_queue: sourceQueue,
      entity: r.entity ?? null,
      id: r.id ?? null,
      reason: r.reason ?? 'rejected',
      issues: r.issues ?? [],
      change: incoming[i]?.text ?? '',
      rejected_at: at.toISOString(),
    });
  });
  return letters;
}

/**
 * Publishes each letter to `queue` (persistent, JSON, message id = the change's origin) and waits
 * until the broker has confirmed them all: only then may the message they came from be acked.
 */
export async function publishDeadLetters(channel: ConfirmChannel, queue: string, letters: readonly DeadLetter[]): Promise<void> {
  if (letters.length === 0) return;
  for (const letter of letters) {
    channel.sendToQueue(queue, Buffer.from(JSON.stringify(letter)), {
      persistent: true,
      contentType: 'application/json',
      messageId: letter.origin,
      type: 'svc.ingest.rejected',
    });
  }
  await channel.waitForConfirms();
}
