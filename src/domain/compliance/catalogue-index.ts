import type { ModuleDefinition, RequirementDefinition } from '../catalogue.ts';

export interface CompiledMatch {
  categoryCodes: readonly string[];
  stcwCodes: readonly string[];
}

export interface CompiledModule {
  def: ModuleDefinition;
  match: CompiledMatch;
}

export type MatchingKind = 'documents' | 'coc_capacity' | 'flag_endorsement';

export interface CompiledRequirement {
  def: RequirementDefinition;
  kind: MatchingKind;
  /** null: every vessel type. */
  vesselTypes: ReadonlySet<string> | null;
  /** The requirement's match with `match_by_role` already applied for the role. */
  match: CompiledMatch;
  modules: readonly CompiledModule[] | null;
  cocFlagDiffers: boolean;
  required: boolean;
}

export interface CompiledCatalogue {
  /** Requirements per role in catalogue order; a role absent here has no requirement set. */
  byRole: ReadonlyMap<string, readonly CompiledRequirement[]>;
}

// Keyed by array identity: services load the catalogue once and pass the same array each time.
const cache = new WeakMap<readonly RequirementDefinition[], CompiledCatalogue>();

function compileMatch(match: RequirementDefinition['match']): CompiledMatch {
  return { categoryCodes: [...new Set(match.category_codes)], stcwCodes: [...new Set(match.stcw_codes ?? [])] };
}

function compileFor(def: RequirementDefinition, role: string): CompiledRequirement {
  const byRole = def.match_by_role?.[role];
  return {
    def,
    kind: def.matching ?? 'documents',
    vesselTypes: def.vessel_types && def.vessel_types.length > 0 ? new Set(def.vessel_types) : null,
    match: compileMatch(byRole ?? def.match),
    modules: def.modules && def.modules.length > 0 ? def.modules.map((m) => ({ def: m, match: compileMatch(m.match) })) : null,
    cocFlagDiffers: def.condition === 'coc_flag_differs',
    required: def.required ?? true,
  };
}

export function compileCatalogue(catalogue: readonly RequirementDefinition[]): CompiledCatalogue {
  const cached = cache.get(catalogue);
  if (cached) return cached;
  const byRole = new Map<string, CompiledRequirement[]>();
  for (const def of catalogue) {
    for (const role of new Set(def.roles)) {
      let list = byRole.get(role);
      if (!list) byRole.set(role, (list = []));
      list.push(compileFor(def, role));
    }
  }
  const compiled: CompiledCatalogue = { byRole };
  cache.set(catalogue, compiled);
  return compiled;
}
