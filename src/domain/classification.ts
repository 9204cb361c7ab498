import { array, boolean, integer, max, min, nullable, object, optional, string, type Infer } from 'superstruct';
import { TEXT_LIMITS, text } from './field-structs.ts';

const Short = text(TEXT_LIMITS.short);
/** A tonnage or power limit: the range of a vessel's gross_tonnage and propulsion_kw (docs/fixtures.md, "Limits"). */
const Limit = nullable(max(min(integer(), 1), 1_000_000));

export const DOCUMENT_CLASSES = ['coc', 'cop', 'endorsement', 'training', 'medical', 'identity', 'travel', 'other'] as const;

/** What one certificate of competency allows (docs/compliance-rules.md, "Matching a CoC to a role and vessel"). */
export const Capacity = object({
  stcw_regulation: nullable(Short),
  role: Short,
  level: nullable(Short),
  gt_max: Limit,
  kw_max: Limit,
  power_unrestricted: boolean(),
  area: Short,
  vessel_types: array(Short),
});

/** A document's classification block, the same shape in the store, the API and events. */
export const Classification = object({
  taxonomy_version: string(),
  document_class: string(),
  category_code: string(),
  catalogue_title: object({ id: string(), name: string() }),
  stcw_regulation: nullable(string()),
  stcw_codes: array(string()),
  level: nullable(string()),
  is_refresher: boolean(),
  flag_state: nullable(string()),
  coc_capacities: array(Capacity),
  sources: array(string()),
});

export type Capacity = Infer<typeof Capacity>;
export type Classification = Infer<typeof Classification>;

/** Fills the optional parts of a fixture's classification so stored JSON always has every key. */
export const ClassificationInput = object({
  taxonomy_version: optional(Short),
  document_class: Short,
  category_code: Short,
  catalogue_title: optional(object({ id: Short, name: Short })),
  stcw_regulation: optional(nullable(Short)),
  stcw_codes: optional(array(Short)),
  level: optional(nullable(Short)),
  is_refresher: optional(boolean()),
  flag_state: optional(nullable(Short)),
  coc_capacities: optional(array(Capacity)),
  sources: optional(array(Short)),
});

export function completeClassification(input: Infer<typeof ClassificationInput>, title: string): Classification {
  return {
    taxonomy_version: input.taxonomy_version ?? '2026.1',
    document_class: input.document_class,
    category_code: input.category_code,
    catalogue_title: input.catalogue_title ?? { id: input.category_code, name: title },
    stcw_regulation: input.stcw_regulation ?? null,
    stcw_codes: input.stcw_codes ?? [],
    level: input.level ?? null,
    is_refresher: input.is_refresher ?? false,
    flag_state: input.flag_state ?? null,
    coc_capacities: input.coc_capacities ?? [],
    sources: input.sources ?? ['document_scan'],
  };
}
