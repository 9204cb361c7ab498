/**
 * The generator's tables, kept as JSON under data/: countries, the fleet and partners, the roster,
 * people's details, document templates and certificates of competency. The requirement keys a
 * role must cover come from the project's own catalogue, data/requirements.json.
 */
import { readFileSync } from 'node:fs';
import type { RequirementDefinition } from '../../src/domain/catalogue.ts';
import type { CocSpec, Country, CrewOut, PartnerOut, Template, VesselRoster, VesselSpec } from './types.ts';

const read = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as T;

const countries = read<{ countries: Record<string, Country>; flag_administrations: Record<string, string> }>('./data/countries.json');
export const COUNTRIES = countries.countries;
/** Administrations of the vessels' flags (flag endorsements). */
export const FLAG_ADMIN = countries.flag_administrations;

const fleet = read<{
  employers: Array<{ employer_id: string; name: string }>;
  mmsi_mids: Record<string, string[]>;
  vessels: VesselSpec[];
  partners: PartnerOut[];
}>('./data/fleet.json');
export const EMPLOYERS = fleet.employers;
/** Maritime identification digits (MMSI prefixes) by flag. */
export const MID = fleet.mmsi_mids;
export const VESSEL_SPECS = fleet.vessels;
export const PARTNERS = fleet.partners;

/**
 * The roster: who is on which vessel and which document situation they are in. Faults, as
 * `kind:key`, act on the documents of one requirement key:
 *   exp, soon30, soon90, noexp (no expiry recorded), unverified, verifpending, review (pending),
 *   missing, rejectedonly, placeholder, processingonly, legacyonly, withdrawnonly (the only copy is
 *   in that state), super / super2 (older editions superseded), rejected, dup, placeholder+,
 *   processing, legacy, withdrawn (an extra copy in that state besides the valid one).
 * Other faults: cap:<variant> (a restricted CoC of data/coc.json), noendorse, wrongendorse, flaggedextra.
 */
export const ROSTER = read<VesselRoster[]>('./data/roster.json');

export const PEOPLE = read<{
  officer_roles: string[];
  positions: Record<string, string>;
  ages: Record<string, [number, number]>;
  skill_sets: Record<string, string>;
  skills: Record<string, string[]>;
  previous_employers: string[];
  previous_vessels: string[];
  junior_roles: Record<string, string>;
  verification_cycle: Array<CrewOut['verification_status']>;
  background_cycle: Array<CrewOut['background_check_status']>;
  email_domains: string[];
  address_line2: string[];
  schengen_countries: string[];
  extra_languages: string[];
  bio_closings: string[];
}>('./data/people.json');

export const TEMPLATES = read<Record<string, Template>>('./data/templates.json');

const coc = read<{ by_role: Record<string, CocSpec>; variants: Record<string, Record<string, CocSpec>> }>('./data/coc.json');

/** The CoC a role holds, or the restricted variant a `cap:<variant>` fault asks for. */
export function cocFor(role: string, variant: string | null): CocSpec {
  const spec = variant ? coc.variants[variant]?.[role] : coc.by_role[role];
  if (!spec) throw new Error(`no CoC for ${role}${variant ? ` (${variant})` : ''}`);
  return spec;
}

export const CATALOGUE = read<{ requirements: RequirementDefinition[] }>('../../data/requirements.json').requirements;

/** Keys of the catalogue's requirements for a role on a vessel type (none: no vessel). */
export function requirementKeys(role: string, vesselType: string | null): string[] {
  return CATALOGUE.filter((r) => (r.roles as readonly string[]).includes(role))
    .filter((r) => !r.vessel_types || (vesselType !== null && (r.vessel_types as readonly string[]).includes(vesselType)))
    .map((r) => r.key);
}

/** The category code of the rating certificate of proficiency a role needs (catalogue `match_by_role`). */
export function copCode(role: string): string {
  const code = CATALOGUE.find((r) => r.key === 'cop_rating')?.match_by_role?.[role]?.category_codes[0];
  if (!code) throw new Error(`no certificate of proficiency for ${role}`);
  return code;
}

/** The skill set of data/people.json a role draws from. */
export function skillSet(role: string): string {
  return PEOPLE.skill_sets[role] ?? 'cadet';
}
