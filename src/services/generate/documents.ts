import type { Insertable } from 'kysely';
import type { Role } from '../../domain/catalogue.ts';
import { completeClassification } from '../../domain/classification.ts';
import type { DocumentsTable } from '../../store/database.ts';
import type { Rng } from './random.ts';

interface Template {
  code: string;
  cls: string;
  title: string;
  stcw?: string[];
  years: number | null;
}

const COMMON: Template[] = [
  { code: 'medical_fitness', cls: 'medical', title: 'Medical fitness certificate', years: 2 },
  { code: 'drug_alcohol_test', cls: 'medical', title: 'Drug and alcohol test', years: 1 },
  { code: 'bst', cls: 'training', title: 'Basic safety training', stcw: ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'], years: 5 },
  { code: 'security_awareness', cls: 'training', title: 'Security awareness', stcw: ['A-VI/6-1'], years: null },
  { code: 'passport', cls: 'identity', title: 'Passport', years: 10 },
];
const OFFICER: Template[] = [
  { code: 'coc', cls: 'coc', title: 'Certificate of competency', years: 5 },
  { code: 'pscrb', cls: 'training', title: 'Survival craft and rescue boats', stcw: ['A-VI/2-1'], years: 5 },
  { code: 'aff', cls: 'training', title: 'Advanced fire fighting', stcw: ['A-VI/3'], years: 5 },
  { code: 'mfa', cls: 'training', title: 'Medical first aid', stcw: ['A-VI/4-1'], years: null },
];
const RATING: Template[] = [{ code: 'cop_ii_5', cls: 'cop', title: 'Able seafarer deck (II/5)', years: null }];
const EXTRA: Template[] = [
  { code: 'seaman_book', cls: 'identity', title: "Seafarer's record book", years: 10 },
  { code: 'ecdis', cls: 'training', title: 'ECDIS generic training', years: null },
  { code: 'visa', cls: 'travel', title: 'C1/D visa', years: 5 },
];

const OFFICERS = new Set([
  'master',
  'chief_officer',
  'second_officer',
  'third_officer',
  'chief_engineer',
  'second_engineer',
  'third_engineer',
  'eto',
]);

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The documents of one generated crew member: the role's certificate set, then extras, `count` in
 * all, with every document case in proportion (expired, expiring, superseded, no expiry, no date,
 * rejected, duplicate, placeholder, processing, legacy, withdrawn, unverified, flagged).
 */
export function generateDocuments(
  rng: Rng,
  crewId: string,
  role: Role,
  count: number,
  today: string,
  fileId: string,
  now: string,
): Insertable<DocumentsTable>[] {
  const set = [...COMMON, ...(OFFICERS.has(role) ? OFFICER : RATING), ...EXTRA];
  const out: Insertable<DocumentsTable>[] = [];
  for (let templateIndex = 0; out.length < count; templateIndex++) {
    const template = set[templateIndex % set.length]!;
    const id = `${crewId}_d${String(out.length).padStart(2, '0')}`;
    const roll = rng.next();
    let expiry: string | null = template.years === null ? null : addDays(today, 60 + rng.int(template.years * 300));
    let noExpiry = template.years === null;
    let state: DocumentsTable['processing_state'] = 'processed';
    let live: 0 | 1 = 1;
    let verification: DocumentsTable['verification_status'] = 'verified';
    let review: DocumentsTable['review_status'] = 'approved';
    if (roll < 0.08 && !noExpiry) expiry = addDays(today, rng.int(90));
    else if (roll < 0.15 && !noExpiry) expiry = addDays(today, -1 - rng.int(400));
    else if (roll < 0.17) {
      noExpiry = false;
      expiry = null;
    } else if (roll < 0.18) state = 'rejected';
    else if (roll < 0.19) state = 'duplicate';
    else if (roll < 0.2) state = 'placeholder';
    else if (roll < 0.21) state = 'processing';
    else if (roll < 0.22) state = 'legacy';
    else if (roll < 0.23) live = 0;
    else if (roll < 0.25) verification = rng.pick(['unverified', 'pending'] as const);
    else if (roll < 0.26) review = rng.pick(['pending', 'flagged'] as const);
    const superseded = roll > 0.95 && out.length + 1 < count;
    const base = {
      crew_unique_id: crewId,
      type: 'certificate',
      category: template.cls,
      title: template.title,
      issuer: rng.chance(0.1) ? null : 'Maritime Authority',
      verification_status: verification,
      review_status: review,
      no_expiry: noExpiry ? (1 as const) : (0 as const),
      document_number: `N${crewId.slice(-6)}${out.length}`,
      is_live: live,
      document_class: template.cls,
      classification: JSON.stringify(
        completeClassification(
          {
            document_class: template.cls,
            category_code: template.code,
            stcw_codes: template.stcw ?? [],
            coc_capacities:
              template.code === 'coc'
                ? [
                    {
                      stcw_regulation: 'II/2',
                      role: role,
                      level: 'management',
                      gt_max: null,
                      kw_max: null,
                      power_unrestricted: true,
                      area: 'unlimited',
                      vessel_types: [],
                    },
                  ]
                : [],
          },
          template.title,
        ),
      ),
      file_id: fileId,
      file_name: `${template.code}.pdf`,
      processed_at: now,
      updated_at: now,
    };
    if (superseded) {
      const newId = `${crewId}_d${String(out.length + 1).padStart(2, '0')}`;
      out.push({
        ...base,
        document_id: id,
        issue_date: addDays(today, -2000),
        expiry_date: expiry && addDays(expiry, -1825),
        processing_state: 'processed',
        is_current: 0,
        superseded_by: newId,
      });
      out.push({
        ...base,
        document_id: newId,
        issue_date: addDays(today, -100),
        expiry_date: expiry,
        processing_state: state,
        is_current: 1,
        superseded_by: null,
      });
    } else {
      out.push({
        ...base,
        document_id: id,
        issue_date: addDays(today, -400),
        expiry_date: noExpiry ? null : expiry,
        processing_state: state,
        is_current: 1,
        superseded_by: null,
      });
    }
  }
  return out.slice(0, count);
}
