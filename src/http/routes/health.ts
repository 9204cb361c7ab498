import { pingStore } from '../../store/repositories/store-health-repo.ts';
import type { RouteModule } from '../app-deps.ts';

const STORE_TIMEOUT_MS = 2000;

async function storeAnswers(ping: () => Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), STORE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([ping().then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `GET /_internal/health`: 200 when the store answers within 2 s, else 503. No key needed. */
export const healthRoutes: RouteModule = {
  name: 'health',
  register(router, deps) {
    router.get('/_internal/health', async (ctx) => {
      const ok = await storeAnswers(() => pingStore(deps.db));
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ok ? 200 : 503;
      ctx.body = ok ? { status: 'ok', store: 'ok' } : { status: 'unavailable', store: 'unavailable' };
    });
  },
};
