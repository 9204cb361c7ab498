import type { StoredFile } from '../../src/services/files/stored-files.ts';

/** A stored file's bytes, read whole (test files are small). */
export async function wholeFile(file: StoredFile): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of file.chunks()) parts.push(chunk);
  return Buffer.concat(parts);
}
