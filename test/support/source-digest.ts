import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout these tests belong to. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/**
 * A digest of the path and content of every file under `inputs` (paths from the checkout's root):
 * what is made from exactly these files can be found again by it, and is never taken for what
 * was made from others.
 */
export function sourceDigest(inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => filesUnder(join(ROOT, input)))) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 20);
}
