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

/**
 * The requirements of `role`, in catalogue order, compiled for it; undefined when the catalogue has
 * no requirement for the role (it has no requirement set).
 */
export function requirementsForRole(catalogue: readonly RequirementDefinition[], role: string): CompiledRequirement[] | undefined {
  const compiled = catalogue.filter((def) => (def.roles as readonly string[]).includes(role)).map((def) => compileFor(def, role));
  return compiled.length > 0 ? compiled : undefined;
}
