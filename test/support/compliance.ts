import { readFileSync } from 'node:fs';
import { array, create, object } from 'superstruct';
import { RequirementDefinition } from '../../src/domain/catalogue.ts';
import type { Capacity } from '../../src/domain/classification.ts';
import { completeClassification } from '../../src/domain/classification.ts';
import type { CrewDocument } from '../../src/domain/document.ts';
import type { EvaluationInput, VesselFacts } from '../../src/domain/compliance/index.ts';

const CatalogueFile = object({ requirements: array(RequirementDefinition) });

export const CATALOGUE_PATH = new URL('../../data/requirements.json', import.meta.url);

/** The shipped catalogue, validated by the same struct the fixture loader uses. */
export function loadCatalogue(): RequirementDefinition[] {
  return create(JSON.parse(readFileSync(CATALOGUE_PATH, 'utf8')), CatalogueFile).requirements;
}

export const CATALOGUE = loadCatalogue();

export const TODAY = '2026-03-01';

export const OFFICERS = [
  'master',
  'chief_officer',
  'second_officer',
  'third_officer',
  'chief_engineer',
  'second_engineer',
  'third_engineer',
  'eto',
] as const;
export const RATINGS = ['bosun', 'able_seafarer_deck', 'ordinary_seafarer', 'oiler', 'motorman', 'cook'] as const;
export const ALL_ROLES = [...OFFICERS, ...RATINGS] as const;

export const BULK_CARRIER: VesselFacts = {
  vesselId: 'ves_bulk',
  vesselType: 'bulk_carrier',
  grossTonnage: 40_000,
  propulsionKw: 9_000,
  flagState: 'PA',
  tradingArea: 'unlimited',
};
export const OIL_TANKER: VesselFacts = {
  vesselId: 'ves_tank',
  vesselType: 'oil_tanker',
  grossTonnage: 60_000,
  propulsionKw: 12_000,
  flagState: 'LR',
  tradingArea: 'unlimited',
};

export interface DocSpec {
  id: string;
  code: string;
  documentClass?: string;
  stcwCodes?: string[];
  expiry?: string | null;
  noExpiry?: boolean;
  issueDate?: string | null;
  verification?: CrewDocument['verificationStatus'];
  review?: CrewDocument['reviewStatus'];
  processingState?: CrewDocument['processingState'];
  isCurrent?: boolean;
  isLive?: boolean;
  flagState?: string | null;
  capacities?: Capacity[];
}

const CLASS_OF: Record<string, string> = {
  medical_fitness: 'medical',
  drug_alcohol_test: 'medical',
  coc: 'coc',
  gmdss_goc: 'coc',
  flag_endorsement: 'endorsement',
  cop_ii_4: 'cop',
  cop_ii_5: 'cop',
  cop_iii_4: 'cop',
  cop_iii_5: 'cop',
  passport: 'identity',
  seaman_book: 'identity',
  visa: 'travel',
  other: 'other',
};

/** A verified, approved, listable document valid until 2030 unless told otherwise. */
export function doc(s: DocSpec): CrewDocument {
  const documentClass = s.documentClass ?? CLASS_OF[s.code] ?? 'training';
  const title = `${s.code} ${s.id}`;
  return {
    documentId: s.id,
    crewUniqueId: 'crew_1',
    type: documentClass,
    category: documentClass,
    title,
    issuer: null,
    verificationStatus: s.verification ?? 'verified',
    reviewStatus: s.review ?? 'approved',
    issueDate: s.issueDate === undefined ? '2024-01-01' : s.issueDate,
    expiryDate: s.expiry === undefined ? '2030-01-01' : s.expiry,
    noExpiry: s.noExpiry ?? false,
    documentNumber: null,
    processingState: s.processingState ?? 'processed',
    isCurrent: s.isCurrent ?? true,
    isLive: s.isLive ?? true,
    supersededBy: null,
    documentClass,
    classification: completeClassification(
      {
        document_class: documentClass,
        category_code: s.code,
        stcw_codes: s.stcwCodes ?? [],
        flag_state: s.flagState ?? null,
        coc_capacities: s.capacities ?? [],
      },
      title,
    ),
    fileId: null,
    fileName: null,
    contentType: null,
    processedAt: '2024-01-02T00:00:00Z',
    updatedAt: '2024-01-02T00:00:00Z',
  };
}

export function capacity(role: string, over: Partial<Capacity> = {}): Capacity {
  return {
    stcw_regulation: null,
    role,
    level: null,
    gt_max: null,
    kw_max: null,
    power_unrestricted: false,
    area: 'unlimited',
    vessel_types: [],
    ...over,
  };
}

/** A CoC for `role`, unlimited, issued by the vessel's flag unless told otherwise. */
export function coc(id: string, role: string, over: Partial<DocSpec> & { capacity?: Partial<Capacity> } = {}): CrewDocument {
  return doc({ id, code: 'coc', flagState: 'PA', capacities: [capacity(role, over.capacity)], ...over });
}

export function input(over: Partial<EvaluationInput> = {}): EvaluationInput {
  return {
    role: 'master',
    positionName: 'Master',
    vessel: BULK_CARRIER,
    catalogue: CATALOGUE,
    documents: [],
    today: TODAY,
    windowDays: 90,
    ...over,
  };
}

export const ALL_BST_CODES = ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'];

/** Documents that meet every requirement `role` can have on a bulk carrier or tanker. */
export function fullSet(role: string, vesselFlag = 'PA'): CrewDocument[] {
  const codes = [
    'medical_fitness',
    'drug_alcohol_test',
    'security_awareness',
    'dsd',
    'pscrb',
    'aff',
    'mfa',
    'medical_care',
    'tanker_basic',
    'tanker_advanced_oil',
    'gmdss_goc',
    'ecdis',
    'brm',
    'erm',
    'ships_cook',
    'cop_ii_5',
    'cop_ii_4',
    'cop_iii_4',
    'cop_iii_5',
  ];
  return [
    ...codes.map((code) => doc({ id: `d_${code}`, code })),
    doc({ id: 'd_bst', code: 'bst', stcwCodes: ALL_BST_CODES }),
    coc('d_coc', role, { flagState: vesselFlag }),
  ];
}
