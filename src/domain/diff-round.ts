import type { ChangePosition } from './changes.ts';

/**
 * A diff round split across processes (src/sync/diff/shares.ts): what every process diffing a
 * share of it must agree on, fixed by the run that opened it before it read any data.
 */
export interface DiffRound {
  roundId: string;
  /** The run that opened the round and closes it (moves the cursor once every share is done). */
  runId: string;
  /** ISO instant of the run: occurred_at and created_at of the round's events. */
  at: string;
  /** YYYY-MM-DD the payloads are computed for. */
  today: string;
  windowDays: number;
  /** The captured changes the round consumes: after `from`, up to `until` (the store-wide cursor moves there at the end). */
  from: ChangePosition | null;
  until: ChangePosition | null;
  /** Partners re-diffed whole (first run, fleet-wide change, `--full`); the others only where changes or dates reach. */
  full: string[];
  /** How long, in real milliseconds, a claim holds a share without its holder renewing it. */
  claimMs: number;
}

/** Events per partner and event type. */
export type EventCounts = Record<string, Record<string, number>>;

/** Adds one partner's counts per event type to another's. */
export function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [type, n] of Object.entries(from)) into[type] = (into[type] ?? 0) + n;
}

/** One share of a round: its partners, and whether a process finished diffing them. */
export interface DiffShare {
  roundId: string;
  share: number;
  partnerIds: string[];
  done: boolean;
  /** The process that holds or held its claim (the one that finished it, once done). */
  holder: string | null;
  /** Events created per partner and event type, by every process that held the share (holdDiffShare). */
  result: EventCounts;
}

/**
 * Splits partners into at most `count` shares of about equal work, keeping partners whose fleets
 * overlap together where that costs no balance: a crew member is read and evaluated once per
 * share that sees them, so two partners of one employer are cheaper in one share than in two.
 * Work is counted in vessels: the largest fleet first, each partner into the share whose vessels
 * (with it) are fewest, the share it adds fewest vessels to on a tie. Each share lists its
 * partners in the order given; shares come largest first.
 */
export function partnerShares(partners: ReadonlyArray<{ partnerId: string; vessels: ReadonlySet<string> }>, count: number): string[][] {
  const shares = Array.from({ length: Math.max(1, Math.min(count, partners.length)) }, () => ({
    partners: [] as string[],
    vessels: new Set<string>(),
  }));
  const order = new Map(partners.map((p, index) => [p.partnerId, index]));
  const bySize = [...partners].sort((a, b) => b.vessels.size - a.vessels.size || order.get(a.partnerId)! - order.get(b.partnerId)!);
  for (const partner of bySize) {
    const added = (share: (typeof shares)[number]) => [...partner.vessels].filter((v) => !share.vessels.has(v)).length;
    let best = shares[0]!;
    for (const share of shares.slice(1)) {
      const [size, bestSize] = [share.vessels.size + added(share), best.vessels.size + added(best)];
      if (size < bestSize || (size === bestSize && added(share) < added(best))) best = share;
    }
    best.partners.push(partner.partnerId);
    for (const v of partner.vessels) best.vessels.add(v);
  }
  return shares
    .filter((share) => share.partners.length > 0)
    .sort((a, b) => b.vessels.size - a.vessels.size)
    .map((share) => share.partners.sort((a, b) => order.get(a)! - order.get(b)!));
}
