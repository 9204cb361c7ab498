import type { Db } from '../../store/database.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import { listEndpoints } from '../../store/repositories/webhook-endpoints-repo.ts';
import { diffPartner, type DiffDeps, type PartnerDiffResult } from './partner-diff.ts';

/**
 * The diff stage of `svc sync`: every partner with an active endpoint, one after the other (the
 * store has one writer at a time anyway). `onPartner` reports progress after each.
 */
export async function runDiff(db: Db, deps: DiffDeps, onPartner?: (r: PartnerDiffResult) => void): Promise<PartnerDiffResult[]> {
  const results: PartnerDiffResult[] = [];
  for (const endpoint of await listEndpoints(db, { status: 'active' })) {
    const partner = await findPartner(db, endpoint.partnerId);
    if (!partner) continue;
    const r = await diffPartner(db, deps, partner, new Set(endpoint.subscribedEvents));
    results.push(r);
    onPartner?.(r);
  }
  return results;
}
