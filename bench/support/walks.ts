// Sequential timings for bench:api: walking a whole list a page at a time (one client, as a
// partner's nightly job would), and single calls, each the median of a few repeats.
import { performance } from 'node:perf_hooks';

/** The fields of a list page the walk reads. */
interface ListPage {
  items: unknown[];
  next_cursor?: string;
}

async function getJson(port: number, key: string, path: string): Promise<ListPage> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as ListPage;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A walk's time (ms, the median when repeated), and what it went through. */
export interface Walk {
  ms: number;
  items: number;
  pages: number;
}

/** Milliseconds to walk every page of `path` (a list with `next_cursor`), and the number of items; the median of `repeats` walks. */
export async function walkList(port: number, key: string, path: string, repeats = 3): Promise<Walk> {
  const times: number[] = [];
  let items = 0;
  let pages = 0;
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    items = 0;
    pages = 0;
    let cursor: string | undefined;
    do {
      const page = await getJson(port, key, `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      items += page.items.length;
      pages += 1;
      cursor = page.next_cursor;
    } while (cursor);
    times.push(performance.now() - start);
  }
  return { ms: median(times), items, pages };
}

/** Milliseconds of the first call of `path`, and the median of `repeats` calls after it. */
export async function timeCall(port: number, key: string, path: string, repeats = 7): Promise<{ first: number; median: number }> {
  const start = performance.now();
  await getJson(port, key, path);
  const first = performance.now() - start;
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await getJson(port, key, path);
    times.push(performance.now() - start);
  }
  return { first, median: median(times) };
}
