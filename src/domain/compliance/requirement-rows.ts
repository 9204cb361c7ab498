import type { CompiledRequirement } from './catalogue-index.ts';
import {
  assess,
  compareBest,
  matchingDocuments,
  toCandidate,
  type Assessment,
  type Candidate,
  type DateWindow,
  type DocumentIndex,
} from './candidates.ts';
import { anyCapacityCovers } from './coc-capacity.ts';
import { dayNumber } from './dates.ts';
import type { EvaluationDocument, ModuleRow, RequirementRow, RequirementStatus, SatisfyingDocument, VesselFacts } from './types.ts';

export interface RowContext {
  role: string;
  vessel: VesselFacts;
  window: DateWindow;
  index: DocumentIndex;
  /** The role's requirements that apply to the vessel type, in catalogue order. */
  requirements: readonly CompiledRequirement[];
  /** CoC assessments already made, by requirement (the flag endorsement row needs the CoC's). */
  cocMemo: Map<CompiledRequirement, Assessment>;
}

// The BST row takes the worst of its modules (docs/compliance-rules.md).
const SEVERITY: Readonly<Record<RequirementStatus, number>> = { met: 0, expiring: 1, pending: 2, expired: 3, missing: 4 };

function daysUntil(expiry: string | null, dateWindow: DateWindow): number | null {
  return expiry === null ? null : dayNumber(expiry) - dateWindow.todayDay;
}

function satisfyingDocument(candidate: Candidate): SatisfyingDocument {
  return {
    documentId: candidate.doc.documentId,
    title: candidate.doc.title,
    expiryDate: candidate.doc.expiryDate,
    documentClass: candidate.doc.documentClass,
  };
}

function row(
  req: CompiledRequirement,
  status: RequirementStatus,
  expiry: string | null,
  satisfying: readonly Candidate[],
  modules: ModuleRow[] | null,
  dateWindow: DateWindow,
): RequirementRow {
  const { def } = req;
  const missing = status === 'missing';
  return {
    key: def.key,
    group: def.group,
    category: def.category,
    title: def.title,
    code: def.code,
    constraint: def.constraint,
    status,
    expiryDate: missing ? null : expiry,
    daysUntilExpiry: missing ? null : daysUntil(expiry, dateWindow),
    required: req.required,
    satisfiedBy: missing ? [] : satisfying.map(satisfyingDocument),
    modules,
  };
}

function assessDocuments(docs: readonly EvaluationDocument[], dateWindow: DateWindow): Assessment {
  return assess(docs.map(toCandidate), dateWindow);
}

function assessCoc(req: CompiledRequirement, ctx: RowContext): Assessment {
  let assessment = ctx.cocMemo.get(req);
  if (!assessment) {
    const held = matchingDocuments(ctx.index, req.match).filter((d) =>
      anyCapacityCovers(d.classification.coc_capacities, ctx.role, ctx.vessel),
    );
    assessment = assessDocuments(held, ctx.window);
    ctx.cocMemo.set(req, assessment);
  }
  return assessment;
}

// The CoC the flag endorsement row refers to; null when the role needs no CoC on this vessel.
function cocAssessment(ctx: RowContext): Assessment | null {
  const req = ctx.requirements.find((r) => r.kind === 'coc_capacity');
  return req ? assessCoc(req, ctx) : null;
}

const upper = (s: string | null): string | null => (s === null ? null : s.toUpperCase());

function cocFlagDiffers(ctx: RowContext): boolean {
  const flag = upper(cocAssessment(ctx)?.best?.doc.classification.flag_state ?? null);
  return flag !== null && flag !== upper(ctx.vessel.flagState);
}

// An endorsement never outlives the CoC it recognises: its effective expiry is capped by the CoC's.
function capByCoc(endorsement: Candidate, coc: Candidate | null): Candidate {
  if (coc === null || coc.noExpiry || coc.expiry === null) return endorsement;
  if (endorsement.noExpiry) return { ...endorsement, noExpiry: false, expiry: coc.expiry };
  return endorsement.expiry !== null && endorsement.expiry > coc.expiry ? { ...endorsement, expiry: coc.expiry } : endorsement;
}

function simpleRow(req: CompiledRequirement, assessment: Assessment, dateWindow: DateWindow): RequirementRow {
  return row(req, assessment.status, assessment.best?.expiry ?? null, assessment.satisfying, null, dateWindow);
}

function modularRow(req: CompiledRequirement, ctx: RowContext): RequirementRow {
  const dateWindow = ctx.window;
  let status: RequirementStatus = 'met';
  let earliest: string | null = null;
  const bests: Candidate[] = [];
  const modules = (req.modules ?? []).map((moduleSpec): ModuleRow => {
    const assessment = assessDocuments(matchingDocuments(ctx.index, moduleSpec.match), dateWindow);
    if (SEVERITY[assessment.status] > SEVERITY[status]) status = assessment.status;
    const best = assessment.best;
    if (best && !bests.some((other) => other.doc === best.doc)) bests.push(best);
    const expiry = best?.expiry ?? null;
    if (expiry !== null && (earliest === null || expiry < earliest)) earliest = expiry;
    return {
      code: moduleSpec.def.code,
      name: moduleSpec.def.name,
      status: assessment.status,
      daysUntilExpiry: daysUntil(expiry, dateWindow),
      documentId: best?.doc.documentId ?? null,
      expiryDate: expiry,
      documentClass: best?.doc.documentClass ?? null,
    };
  });
  return row(req, status, earliest, bests.sort(compareBest), modules, dateWindow);
}

/** The row of one requirement, or null when its condition leaves it out for this crew member. */
export function requirementRow(req: CompiledRequirement, ctx: RowContext): RequirementRow | null {
  if (req.cocFlagDiffers && !cocFlagDiffers(ctx)) return null;
  switch (req.kind) {
    case 'coc_capacity':
      return simpleRow(req, assessCoc(req, ctx), ctx.window);
    case 'flag_endorsement': {
      const flag = upper(ctx.vessel.flagState);
      const coc = cocAssessment(ctx)?.best ?? null;
      const held = matchingDocuments(ctx.index, req.match).filter((d) => upper(d.classification.flag_state) === flag);
      return simpleRow(
        req,
        assess(
          held.map((d) => capByCoc(toCandidate(d), coc)),
          ctx.window,
        ),
        ctx.window,
      );
    }
    default:
      return req.modules
        ? modularRow(req, ctx)
        : simpleRow(req, assessDocuments(matchingDocuments(ctx.index, req.match), ctx.window), ctx.window);
  }
}
