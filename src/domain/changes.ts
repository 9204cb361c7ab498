/*
 * Captured writes, as the sync diff reads them (converted from the `changes` table, migration
 * 0300-change-capture, in src/store/repositories/changes-repo.ts).
 */

/** Where a reader of captured changes stands: everything at or before (tx, seq) is read. */
export interface ChangePosition {
  tx: number;
  seq: number;
}

/** One captured write: the table and row key it touched, and the crew member or partner it names. */
export interface Change extends ChangePosition {
  table: string;
  key: string;
  crewUniqueId: string | null;
  partnerId: string | null;
}

/** A table whose writes fan out to whole fleets, changed for one partner (null: for every partner). */
export type FleetWideChange = Pick<Change, 'table' | 'partnerId'>;
