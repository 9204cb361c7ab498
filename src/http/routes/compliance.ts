import { CatalogueCache } from '../../services/compliance/catalogue-cache.ts';
import { runComplianceCheck } from '../../services/read-api/compliance.ts';
import { requireScope } from '../../services/visibility/access.ts';
import type { RouteModule } from '../app-deps.ts';
import { partnerGuards } from '../middleware/guards.ts';
import { partnerOf, pathParam } from '../request-context.ts';
import { parseJsonBody, queryString } from '../validation/index.ts';

/** The compliance check of one crew member, with the stored-result fallback. */
export const complianceRoutes: RouteModule = {
  name: 'compliance',
  register(router, deps) {
    // One cache per app: the evaluator keeps its compiled catalogue index per array identity.
    const catalogue = new CatalogueCache(deps.clock);
    router.post('/api/v2/employers/me/crew/:crew_unique_id/compliance-checks', ...partnerGuards(deps), async (ctx) => {
      const partner = partnerOf(ctx);
      requireScope(partner, 'crew:compliance:read');
      const vesselId = queryString(ctx, 'vessel_id', { minLength: 1, maxLength: 128 });
      await parseJsonBody(ctx, {});
      const { fileLink } = await deps.signingKeys();
      ctx.body = await runComplianceCheck(deps.db, partner, pathParam(ctx, 'crew_unique_id'), vesselId, {
        clock: deps.clock,
        catalogue,
        windowDays: deps.config.complianceWindowDays,
        deadlineMs: deps.config.complianceDeadlineMs,
        fault: deps.config.complianceFault,
      }, { key: fileLink, now: deps.clock(), ttlSeconds: deps.config.downloadLinkTtlSeconds });
    });
  },
};
