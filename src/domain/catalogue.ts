import { array, boolean, enums, integer, literal, min, nullable, object, optional, record, string, type Infer } from 'superstruct';

export const REQUIREMENT_GROUPS = ['medical', 'stcw', 'certificate', 'qualification'] as const;

export const ROLES = [
  'master', 'chief_officer', 'second_officer', 'third_officer',
  'chief_engineer', 'second_engineer', 'third_engineer', 'eto',
  'bosun', 'able_seafarer_deck', 'ordinary_seafarer', 'oiler', 'motorman', 'cook',
] as const;
export type Role = (typeof ROLES)[number];

export const VESSEL_TYPES = [
  'bulk_carrier', 'general_cargo', 'container', 'ro_ro_cargo', 'vehicle_carrier', 'oil_tanker',
  'chemical_tanker', 'oil_chemical_tanker', 'lng_carrier', 'lpg_carrier', 'passenger',
  'ro_ro_passenger', 'offshore_supply', 'tug',
] as const;

const Match = object({
  /** A document satisfies when its classification.category_code is one of these… */
  category_codes: array(string()),
  /** …or when one of its classification.stcw_codes is one of these. */
  stcw_codes: optional(array(string())),
});

/** One STCW module of a requirement (basic safety training). */
export const ModuleDefinition = object({
  code: string(),
  name: string(),
  match: Match,
  /** Years a module certificate stays valid before a refresher is due; null: no expiry. */
  validity_years: nullable(min(integer(), 1)),
});

/**
 * One requirement of the catalogue (docs/compliance-rules.md), shipped as data in
 * `data/requirements.json` and loaded like fixtures.
 */
export const RequirementDefinition = object({
  key: string(),
  group: enums(REQUIREMENT_GROUPS),
  title: string(),
  category: nullable(string()),
  code: nullable(string()),
  constraint: nullable(string()),
  validity_years: nullable(min(integer(), 1)),
  /** Roles the requirement applies to. */
  roles: array(enums(ROLES)),
  /** Only on these vessel types; absent or empty: every type. */
  vessel_types: optional(array(enums(VESSEL_TYPES))),
  /** How candidate documents are matched beyond `match`. */
  matching: optional(enums(['documents', 'coc_capacity', 'flag_endorsement'])),
  /** Only applies when the crew member's CoC flag differs from the vessel's flag. */
  condition: optional(literal('coc_flag_differs')),
  match: Match,
  /** Per-role matching that replaces `match` for the roles it names (cop_rating: II/5 for a bosun…). */
  match_by_role: optional(record(string(), Match)),
  modules: optional(array(ModuleDefinition)),
  required: optional(boolean()),
});

export type RequirementDefinition = Infer<typeof RequirementDefinition>;
export type ModuleDefinition = Infer<typeof ModuleDefinition>;
