import { AppError } from '../domain/app-error.ts';
import type { Db } from '../store/database.ts';
import { findOutboxEvent } from '../store/repositories/outbox-repo.ts';
import { findPartner } from '../store/repositories/partners-repo.ts';

/**
 * Refuses ids an operator typed that name nothing: an unknown partner is partner_not_found
 * (`no partner with id "…"`), an unknown event not_found (`no event with id "…"`), so a typo is
 * never mistaken for an empty result (`replayed 0`, an empty list). Absent ids are not checked.
 */
export async function requireKnownIds(db: Db, ids: { partnerId?: string; eventId?: string }): Promise<void> {
  if (ids.partnerId !== undefined && !(await findPartner(db, ids.partnerId))) {
    throw new AppError('partner_not_found', `no partner with id "${ids.partnerId}"`);
  }
  if (ids.eventId !== undefined && !(await findOutboxEvent(db, ids.eventId))) {
    throw new AppError('not_found', `no event with id "${ids.eventId}"`);
  }
}
