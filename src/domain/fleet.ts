import type { VesselFacts } from './compliance/types.ts';
import type { AssignmentStatus } from './vocabulary.ts';

/**
 * A vessel (converted from its row in src/store/repositories/fleet-repo.ts). It is the evaluator's
 * VesselFacts as it stands: a vessel goes into an evaluation unmapped.
 */
export interface Vessel extends VesselFacts {
  employerId: string;
  vesselName: string;
  imo: string | null;
  mmsi: string | null;
  isTest: boolean;
}

/** A crew member's assignment to a vessel in a role. */
export interface Assignment {
  assignmentId: string;
  crewUniqueId: string;
  vesselId: string;
  role: string;
  positionName: string | null;
  status: AssignmentStatus;
  asOf: string;
}

/** An on-fleet assignment with its vessel. */
export interface CrewAssignment {
  assignment: Assignment;
  vessel: Vessel;
}

/** One roster entry: an on-fleet assignment with its crew member's name and statuses, and its vessel. */
export interface RosterEntry {
  crewUniqueId: string;
  vesselId: string;
  asOf: string;
  name: string;
  vesselName: string;
  imo: string | null;
  role: string;
  status: AssignmentStatus;
  verificationStatus: string;
  backgroundCheckStatus: string;
}
