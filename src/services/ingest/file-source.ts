import { createHash } from 'node:crypto';
import { open, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';

/**
 * A file found for a change, read once to hash it: its id (SHA-256 of the bytes), type and size;
 * `chunks` reads it again from its start (as it is stored), and `close` lets it go.
 */
export interface ResolvedFile {
  fileId: string;
  contentType: string;
  size: number;
  chunks(): AsyncIterable<Buffer>;
  close(): Promise<void>;
}

/** Where a change's `file` and `photo` paths are read from. */
export interface FileSource {
  read(path: string): Promise<ResolvedFile | { problem: string }>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

/** The largest file a change may bring (documents are scans and photos). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

const failure = (path: string, err: unknown) => ({
  problem: `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
});

/**
 * Files under one folder (named in problems as `name`): a path is resolved to its real path
 * (symbolic links followed) and must stay inside the folder's real path and be a regular file; it
 * is read in chunks, hashed as it is read, and refused past MAX_FILE_BYTES. It stays open (the
 * same file, whatever its path comes to name) until the caller closes it.
 */
export function folderFiles(folder: string, name = folder): FileSource {
  let root: Promise<string> | null = null;
  return {
    async read(path) {
      const contentType = CONTENT_TYPES[extname(path).toLowerCase()];
      if (!contentType) return { problem: `${path} is not a .pdf, .jpg or .png file` };
      root ??= realpath(folder);
      let real: string;
      try {
        const base = await root;
        real = await realpath(join(base, path));
        if (!real.startsWith(base + sep)) return { problem: `${path} leads outside ${name} (to ${real}); files must lie inside it` };
        if (!(await stat(real)).isFile()) return { problem: `${path} is not a regular file` };
      } catch (err) {
        return failure(path, err);
      }
      const handle = await open(real, 'r').catch((err: unknown) => failure(path, err));
      if ('problem' in handle) return handle;
      const chunks = () => handle.createReadStream({ start: 0, highWaterMark: 256 * 1024, autoClose: false }) as AsyncIterable<Buffer>;
      try {
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of chunks()) {
          size += chunk.length;
          if (size > MAX_FILE_BYTES) throw new RangeError(`${path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
          hash.update(chunk);
        }
        return { fileId: hash.digest('hex'), contentType, size, chunks, close: () => handle.close() };
      } catch (err) {
        await handle.close();
        return err instanceof RangeError ? { problem: err.message } : failure(path, err);
      }
    },
  };
}
