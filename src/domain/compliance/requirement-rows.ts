import type { CompiledRequirement } from './catalogue-index.ts';
import {
  assess, compareBest, matchingDocuments, toCandidate,
  type Assessment, type Candidate, type DateWindow, type DocumentIndex,
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

function daysUntil(expiry: string | null, w: DateWindow): number | null {
  return expiry === null ? null : dayNumber(expiry) - w.todayDay;
}

function satisfyingDocument(c: Candidate): SatisfyingDocument {
  return { documentId: c.doc.documentId, title: c.doc.title, expiryDate: c.doc.expiryDate, documentClass: c.doc.documentClass };
}

function row(
  req: CompiledRequirement, status: RequirementStatus, expiry: string | null,
  satisfying: readonly Candidate[], modules: ModuleRow[] | null, w: DateWindow,
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
    daysUntilExpiry: missing ? null : daysUntil(expiry, w),
    required: req.required,
    satisfiedBy: missing ? [] : satisfying.map(satisfyingDocument),
    modules,
  };
}

function assessDocuments(docs: readonly EvaluationDocument[], w: DateWindow): Assessment {
  return assess(docs.map(toCandidate), w);
}

function assessCoc(req: CompiledRequirement, ctx: RowContext): Assessment {
  let a = ctx.cocMemo.get(req);
  if (!a) {
    const held = matchingDocuments(ctx.index, req.match)
      .filter((d) => anyCapacityCovers(d.classification.coc_capacities, ctx.role, ctx.vessel));
    a = assessDocuments(held, ctx.window);
    ctx.cocMemo.set(req, a);
  }
  return a;
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
function capByCoc(c: Candidate, coc: Candidate | null): Candidate {
  if (coc === null || coc.noExpiry || coc.expiry === null) return c;
  if (c.noExpiry) return { ...c, noExpiry: false, expiry: coc.expiry };
  return c.expiry !== null && c.expiry > coc.expiry ? { ...c, expiry: coc.expiry } : c;
}

function simpleRow(req: CompiledRequirement, a: Assessment, w: DateWindow): RequirementRow {
  return row(req, a.status, a.best?.expiry ?? null, a.satisfying, null, w);
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
      const held = matchingDocuments(ctx.index, req.match)
        .filter((d) => upper(d.classification.flag_state) === flag);
      return simpleRow(req, assess(held.map((d) => capByCoc(toCandidate(d), coc)), ctx.window), ctx.window);
    }
    default:
      return req.modules
        ? modularRow(req, ctx)
        : simpleRow(req, assessDocuments(matchingDocuments(ctx.index, req.match), ctx.window), ctx.window);
  }
}
