// CPU time of two ways of doing the same work, in alternation, the ratio taken pair by pair
// (bench/record-check.ts, bench/shape-check.ts).
import { loadavg } from 'node:os';

/** CPU milliseconds `run` takes. */
export function cpuMs(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/**
 * Runs `before` and `after` in turns, three of each not counted, then `pairs` pairs (an even
 * number); prints each pair's CPU times and ratio (after ÷ before) with the load, and the median ratio.
 */
export function cpuPairs(names: [string, string], before: () => void, after: () => void, pairs: number, what: string): void {
  for (let i = 0; i < 3; i++) {
    cpuMs(before);
    cpuMs(after);
  }
  const ratios: number[] = [];
  for (let pair = 1; pair <= pairs; pair++) {
    const load = loadavg()[0]!.toFixed(1);
    const a = cpuMs(before);
    const b = cpuMs(after);
    ratios.push(b / a);
    process.stdout.write(
      `pair ${pair}: ${names[0]} ${a.toFixed(0)} ms, ${names[1]} ${b.toFixed(0)} ms, ratio ${(b / a).toFixed(3)}, load ${load}\n`,
    );
  }
  ratios.sort((x, y) => x - y);
  process.stdout.write(`median ratio ${((ratios[pairs / 2 - 1]! + ratios[pairs / 2]!) / 2).toFixed(3)} (${what})\n`);
}
