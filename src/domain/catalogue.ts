import { array, boolean, enums, integer, literal, max, min, nullable, object, optional, record, type Infer } from 'superstruct';
import { TEXT_LIMITS, text } from './field-structs.ts';

export const REQUIREMENT_GROUPS = ['medical', 'stcw', 'certificate', 'qualification'] as const;

export const ROLES = [
  'master',
  'chief_officer',
  'second_officer',
  'third_officer',
  'chief_engineer',
  'second_engineer',
  'third_engineer',
  'eto',
  'bosun',
  'able_seafarer_deck',
  'ordinary_seafarer',
  'oiler',
  'motorman',
  'cook',
] as const;
export type Role = (typeof ROLES)[number];

export const VESSEL_TYPES = [
  'bulk_carrier',
  'general_cargo',
  'container',
  'ro_ro_cargo',
  'vehicle_carrier',
  'oil_tanker',
  'chemical_tanker',
  'oil_chemical_tanker',
  'lng_carrier',
  'lpg_carrier',
  'passenger',
  'ro_ro_passenger',
  'offshore_supply',
  'tug',
] as const;

const Short = text(TEXT_LIMITS.short);
/** A validity in years: 1 to 100, so every expiry worked out from it is a real date. */
const Years = max(min(integer(), 1), 100);

const Match = object({
  /** A document satisfies when its classification.category_code is one of these… */
  category_codes: array(Short),
  /** …or when one of its classification.stcw_codes is one of these. */
  stcw_codes: optional(array(Short)),
});

/** One STCW module of a requirement (basic safety training). */
export const ModuleDefinition = object({
  code: Short,
  name: Short,
  match: Match,
  /** Years a module certificate stays valid before a refresher is due; null: no expiry. */
  validity_years: nullable(Years),
});

/**
 * One requirement of the catalogue (docs/compliance-rules.md), shipped as data in
 * `data/requirements.json` and loaded like fixtures.
 */
export const RequirementDefinition = object({
  key: Short,
  group: enums(REQUIREMENT_GROUPS),
  title: Short,
  category: nullable(Short),
  code: nullable(Short),
  constraint: nullable(Short),
  validity_years: nullable(Years),
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
  match_by_role: optional(record(Short, Match)),
  modules: optional(array(ModuleDefinition)),
  required: optional(boolean()),
});

export type RequirementDefinition = Infer<typeof RequirementDefinition>;
export type ModuleDefinition = Infer<typeof ModuleDefinition>;
