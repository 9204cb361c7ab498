import { createHash } from 'node:crypto';
import { open, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';

/** A file read for a change: its id (SHA-256 of the bytes), type and bytes. */
export interface ResolvedFile {
  fileId: string;
  contentType: string;
  bytes: Buffer;
}

/** Where a change's `file` and `photo` paths are read from. */
export interface FileSource {
  read(path: string): Promise<ResolvedFile | { problem: string }>;
}

const CONTENT_TYPES: Record<string, string> = { '.pdf': 'application/pdf', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png' };

/** The largest file a change may bring (documents are scans and photos). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

const failure = (path: string, err: unknown) => ({ problem: `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` });

/**
 * Files under one folder (named in problems as `name`): a path is resolved to its real path
 * (symbolic links followed) and must stay inside the folder's real path and be a regular file; it
 * is read in chunks, hashed as it is read, and refused past MAX_FILE_BYTES.
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
      try {
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of handle.createReadStream({ highWaterMark: 256 * 1024, autoClose: false }) as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > MAX_FILE_BYTES) return { problem: `${path} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` };
          hash.update(chunk);
          chunks.push(chunk);
        }
        return { fileId: hash.digest('hex'), contentType, bytes: Buffer.concat(chunks) };
      } finally {
        await handle.close();
      }
    },
  };
}
