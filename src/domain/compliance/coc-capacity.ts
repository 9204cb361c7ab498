import type { Capacity } from '../classification.ts';
import type { VesselFacts } from './types.ts';

// docs/compliance-rules.md: master > chief_officer > second_officer = third_officer, and
// chief_engineer > second_engineer > third_engineer. The rules give the ETO (III/6) no ranking,
// so an ETO capacity covers the eto role only.
const RANKS: Readonly<Record<string, { department: string; rank: number }>> = {
  master: { department: 'deck', rank: 3 },
  chief_officer: { department: 'deck', rank: 2 },
  second_officer: { department: 'deck', rank: 1 },
  third_officer: { department: 'deck', rank: 1 },
  chief_engineer: { department: 'engine', rank: 3 },
  second_engineer: { department: 'engine', rank: 2 },
  third_engineer: { department: 'engine', rank: 1 },
};

export function capacityRoleCovers(capacityRole: string, role: string): boolean {
  if (capacityRole === role) return true;
  const held = RANKS[capacityRole];
  const wanted = RANKS[role];
  return held !== undefined && wanted !== undefined && held.department === wanted.department && held.rank >= wanted.rank;
}

function areaCovers(area: string, vessel: VesselFacts): boolean {
  return area === 'unlimited' || (area === 'near_coastal' && vessel.tradingArea === 'near_coastal');
}

/** Whether one CoC capacity allows serving as `role` on `vessel` (docs/compliance-rules.md). */
export function capacityCovers(cap: Capacity, role: string, vessel: VesselFacts): boolean {
  return (
    capacityRoleCovers(cap.role, role) &&
    (cap.gt_max === null || cap.gt_max >= vessel.grossTonnage) &&
    (cap.kw_max === null || cap.power_unrestricted || cap.kw_max >= vessel.propulsionKw) &&
    (cap.vessel_types.length === 0 || cap.vessel_types.includes(vessel.vesselType)) &&
    areaCovers(cap.area, vessel)
  );
}

export function anyCapacityCovers(caps: readonly Capacity[], role: string, vessel: VesselFacts): boolean {
  return caps.some((cap) => capacityCovers(cap, role, vessel));
}
