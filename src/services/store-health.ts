import type { Db } from '../store/database.ts';
import { pingStore } from '../store/repositories/store-health-repo.ts';

/** How long the health probe waits for the store. */
export const STORE_TIMEOUT_MS = 2000;

/** True when the store answers a round trip within `timeoutMs`; never throws. */
export async function storeAnswers(db: Db, timeoutMs = STORE_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      pingStore(db).then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
