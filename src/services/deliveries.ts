import type { Db } from '../store/database.ts';
import { listDeliveryAttempts, type DeliveryAttemptView } from '../store/repositories/delivery-repo.ts';

/** Delivery attempts, newest first, of one partner or one event, for the operator (`svc admin deliveries`). */
export function deliveryHistory(db: Db, filter: { partnerId?: string; eventId?: string; limit?: number }): Promise<DeliveryAttemptView[]> {
  return listDeliveryAttempts(db, filter);
}
