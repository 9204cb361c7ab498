import { isExpired, type CrewDocument } from '../document.ts';
import { addDays } from './dates.ts';
import type { ComplianceEvaluation } from './types.ts';

/**
 * Dates (after `today`) at which what is sent about a crew member can change with the calendar
 * alone, never with the data: incremental sync keeps the earliest with each snapshot and diffs
 * the pair again when it comes (docs/webhooks.md). Conservative: a date may change nothing.
 */

export class TimeHorizon {
  private next: string | null = null;

  constructor(
    private readonly today: string,
    private readonly windowDays: number,
  ) {}

  /** A date at which something may flip; kept when it is after today and earlier than the rest. */
  at(date: string): void {
    if (date > this.today && (this.next === null || date < this.next)) this.next = date;
  }

  /** A listable document's payload turns `expired` the day after its expiry date. */
  document(doc: Pick<CrewDocument, 'expiryDate' | 'noExpiry'>): void {
    if (doc.noExpiry || doc.expiryDate === null || isExpired(doc, this.today)) return;
    this.at(addDays(doc.expiryDate.slice(0, 10), 1));
  }

  /**
   * A row (or module) decided by a dated document turns `expiring` when its expiry enters the
   * window and `expired` the day after it; the flag endorsement's row expiry is already capped by
   * its CoC. Pending, missing and expired rows do not move with time.
   */
  evaluation(evaluation: ComplianceEvaluation): void {
    const dated = (status: string | null, expiry: string | null) => {
      if ((status !== 'met' && status !== 'expiring') || expiry === null) return;
      const day = expiry.slice(0, 10);
      this.at(addDays(day, -this.windowDays));
      this.at(addDays(day, 1));
    };
    for (const row of evaluation.requirements) {
      dated(row.status, row.expiryDate);
      for (const d of row.satisfiedBy) dated(row.status, d.expiryDate);
      for (const m of row.modules ?? []) dated(m.status, m.expiryDate);
    }
  }

  /** The earliest date seen, or null when nothing can change by time. */
  get earliest(): string | null {
    return this.next;
  }
}
