/** The crew of the roster: plans (nationality, vessels), then profiles, assignments and documents. */
import { buildDocuments } from './documents.ts';
import { buildConsents } from './fleet.ts';
import { buildPerson, type Taken } from './person.ts';
import { Rng } from './random.ts';
import { COUNTRIES, PEOPLE, ROSTER } from './tables.ts';
import type { AssignmentOut, Built, CrewOut, CrewPlan, DocOut, VesselOut } from './types.ts';

/** One plan per roster slot, numbered in roster order: crew_0001, crew_0002, … */
function planCrew(vessels: readonly VesselOut[]): CrewPlan[] {
  const vById = new Map(vessels.map((v) => [v.vessel_id, v]));
  const plans: CrewPlan[] = [];
  let n = 0;
  for (const group of ROSTER) {
    for (const slot of group.slots) {
      n++;
      const num = String(n).padStart(4, '0');
      const r = new Rng(`nat:${num}`);
      const officer = PEOPLE.officer_roles.includes(slot.role);
      const nat = slot.nat ?? r.pick(officer ? group.pool.officers : group.pool.ratings);
      const vessel = group.vessel ? vById.get(group.vessel)! : null;
      const assignments = vessel ? [{ vessel, role: slot.role, status: slot.status ?? 'active', coverDocs: true }] : [];
      for (const a of slot.also ?? [])
        assignments.push({ vessel: vById.get(a.vessel)!, role: a.role ?? slot.role, status: a.status, coverDocs: a.coverDocs ?? false });
      plans.push({ id: `crew_${num}`, num, slot, vessel, country: COUNTRIES[nat]!, residence: COUNTRIES[slot.res ?? nat]!, assignments });
    }
  }
  return plans;
}

export function buildPeople(vessels: readonly VesselOut[]): Built {
  const plans = planCrew(vessels);
  const taken: Taken = { names: new Set(), emails: new Set() };
  const crew: CrewOut[] = [];
  const assignments: AssignmentOut[] = [];
  const documents: DocOut[] = [];
  for (const [i, p] of plans.entries()) {
    const built = buildPerson(p, i, taken);
    crew.push(built.person);
    assignments.push(...built.assignments);
    documents.push(...buildDocuments(p, built.person, i));
  }
  return { crew, assignments, consents: buildConsents(plans, vessels), documents, plans };
}
