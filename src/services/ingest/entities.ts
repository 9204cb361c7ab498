import { array, assign, enums, nullable, object, optional, pattern, string, type Struct } from 'superstruct';
import { RequirementDefinition } from '../../domain/catalogue.ts';
import type { IngestEntity } from '../../domain/ingest-change.ts';
import { CONSENT_CATEGORIES } from '../../domain/vocabulary.ts';
import { checkRecord, type CheckedRecord } from './envelope.ts';
import { AssignmentFixture, CrewFixture, DocumentFixture, EmployerFixture, PartnerFixture, VesselFixture } from '../fixtures/schema.ts';

/** A file's id: the SHA-256 of its bytes, in lower-case hex. */
export const Sha256 = pattern(string(), /^[0-9a-f]{64}$/);

/**
 * The records of the change format: the fixture records (docs/fixtures.md), and for files, beside
 * the fixture's path (`file`, `photo`, read from the folder given to the command), the file's
 * SHA-256 (`file_sha256`, `photo_sha256`): checked against the file's bytes when both are given,
 * or naming a file the store already holds (uploaded, or sent before) when given alone.
 */
const CrewRecord = assign(CrewFixture, object({ photo_sha256: optional(nullable(Sha256)) }));
const DocumentRecord = assign(DocumentFixture, object({ file_sha256: optional(nullable(Sha256)) }));
const ConsentRecord = object({
  crew_unique_id: string(),
  partner_id: string(),
  categories: array(enums(CONSENT_CATEGORIES)),
});

/** A reference from a record to another entity, by the field that holds it. */
export interface Reference {
  entity: IngestEntity;
  id: string;
  field: string;
}

/** How a reference to an entity neither the store nor the batch holds is reported: `unknown vessel_id "ves_x"`. */
export function unknownReference(ref: Reference): string {
  const kind = ENTITY_KINDS[ref.entity] as EntityKind | undefined;
  return kind ? `unknown ${kind.idFields[0]} "${ref.id}"` : `no stored file has SHA-256 ${ref.id}`;
}

/** What varies by entity: its record's shape, the id it is stored under, what it refers to, whom it is about. */
export interface EntityKind {
  /** Checks a record against the entity's struct (superstruct), coercing it. */
  check(record: unknown): CheckedRecord;
  /** The record's id fields, which must agree with the change's id. */
  idFields: readonly string[];
  /** What the record refers to; a field that does not hold an id refers to nothing. */
  references(record: Record<string, unknown>): Reference[];
  /** Rules that tie fields of a valid record together: each broken one as the field it names and why. */
  rules(record: Record<string, unknown>): RuleProblem[];
}

/** A broken rule of one record: the field it names (empty: the record) and why. */
export interface RuleProblem {
  field: string;
  msg: string;
}

function partnerRules(p: Record<string, unknown>): RuleProblem[] {
  const out: RuleProblem[] = [];
  if (p.kind === 'customer') {
    if (!p.employer_id) out.push({ field: 'employer_id', msg: 'a customer partner needs an employer_id' });
    if (!p.tier) out.push({ field: 'tier', msg: 'a customer partner needs a tier' });
    if (p.contract_scopes || p.contract_vessel_ids)
      out.push({ field: '', msg: 'contract_scopes and contract_vessel_ids are for external partners' });
  } else {
    if (!p.contract_scopes) out.push({ field: 'contract_scopes', msg: "an external partner needs its contract's scopes" });
    if (p.tier || p.scope_overrides) out.push({ field: '', msg: 'tier and scope_overrides are for customer partners' });
  }
  return out;
}

function documentRules(d: Record<string, unknown>): RuleProblem[] {
  return d.no_expiry && d.expiry_date ? [{ field: 'expiry_date', msg: 'a no_expiry document has no expiry_date' }] : [];
}

const ref = (entity: IngestEntity, id: unknown, field: string): Reference[] => (typeof id === 'string' ? [{ entity, id, field }] : []);
const noRules = () => [];
const checker =
  <T extends object, S>(struct: Struct<T, S>) =>
  (record: unknown) =>
    checkRecord(struct, record);

/** One entry per entity of the change format (docs/ingest.md). */
export const ENTITY_KINDS: Record<IngestEntity, EntityKind> = {
  employer: {
    check: checker(EmployerFixture),
    idFields: ['employer_id'],
    references: () => [],
    rules: noRules,
  },
  partner: {
    check: checker(PartnerFixture),
    idFields: ['partner_id'],
    rules: partnerRules,
    references: (r) => [
      ...ref('employer', r.employer_id, 'employer_id'),
      ...(Array.isArray(r.contract_vessel_ids) ? r.contract_vessel_ids : []).flatMap((v: unknown, i) =>
        ref('vessel', v, `contract_vessel_ids.${i}`),
      ),
    ],
  },
  vessel: {
    check: checker(VesselFixture),
    idFields: ['vessel_id'],
    rules: noRules,
    references: (r) => ref('employer', r.employer_id, 'employer_id'),
  },
  crew: {
    check: checker(CrewRecord),
    idFields: ['crew_unique_id'],
    rules: noRules,
    references: () => [],
  },
  assignment: {
    check: checker(AssignmentFixture),
    idFields: ['assignment_id'],
    rules: noRules,
    references: (r) => [...ref('crew', r.crew_unique_id, 'crew_unique_id'), ...ref('vessel', r.vessel_id, 'vessel_id')],
  },
  consent: {
    check: checker(ConsentRecord),
    idFields: ['crew_unique_id', 'partner_id'],
    rules: noRules,
    references: (r) => [...ref('crew', r.crew_unique_id, 'crew_unique_id'), ...ref('partner', r.partner_id, 'partner_id')],
  },
  document: {
    check: checker(DocumentRecord),
    idFields: ['document_id'],
    rules: documentRules,
    references: (r) => [...ref('crew', r.crew_unique_id, 'crew_unique_id'), ...ref('document', r.superseded_by, 'superseded_by')],
  },
  requirement: {
    check: checker(RequirementDefinition),
    idFields: ['key'],
    references: () => [],
    rules: noRules,
  },
};
