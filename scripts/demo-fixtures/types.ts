/** The shapes the demo generator reads from its JSON tables and writes into fixtures/demo.json. */
import type {
  AssignmentStatus,
  BackgroundCheckStatus,
  EmploymentSource,
  PartnerKind,
  PartnerTier,
  ProcessingState,
  ReviewStatus,
  TradingArea,
  VerificationStatus,
} from '../../src/domain/vocabulary.ts';

export type { AssignmentStatus, ProcessingState };
/** A roster slot's consent to the partners that see it: all categories, all but one, status only, or none. */
export type Consent = 'all' | 'no_status' | 'no_profile' | 'no_documents' | 'no_compliance' | 'none' | 'status_only';

/** One country's reference data (data/countries.json). */
export interface Country {
  code: string;
  name: string;
  dial: string;
  /** National significant number of a mobile phone, as a pattern (see random.ts `drawPattern`). */
  phone_pattern: string;
  languages: string[];
  /** "Name" (either), "Name|M", "Name|F". */
  first: string[];
  /** "Surname" or "Male|Female". */
  last: string[];
  familyFirst?: boolean;
  /** Complete names, for naming traditions without family names. */
  full?: string[];
  cities: Array<[city: string, region: string, postal: string]>;
  streets: string[];
  /** Addresses read "12 Street" rather than "Street 12". */
  house_number_first?: boolean;
  passport_pattern: string;
  passportAuthority: string;
  maritimeAdmin: string;
  training: string[];
  clinics: string[];
}

/** One vessel of data/fleet.json. */
export interface VesselSpec {
  id: string;
  employer: string;
  name: string;
  imo6: string | null;
  flag: string;
  type: string;
  gt: number;
  kw: number;
  area?: 'near_coastal';
  test?: boolean;
}

/** One crew member of data/roster.json: role, document faults, consents, further assignments. */
export interface Slot {
  role: string;
  status?: AssignmentStatus;
  nat?: string;
  /** Where the crew member lives when not in their country of nationality. */
  res?: string;
  faults?: string[];
  consent?: Consent;
  /** Per-partner consent replacing `consent` for that partner ('none' removes the record). */
  consentFor?: Record<string, Consent>;
  /** Further assignments on other vessels; `coverDocs`: the documents also satisfy them. */
  also?: Array<{ vessel: string; role?: string; status: AssignmentStatus; coverDocs?: boolean }>;
  bst?: 'combined' | 'modules' | 'refresher';
  note?: string;
}

export interface VesselRoster {
  vessel: string | null;
  slots: Slot[];
  pool: { officers: string[]; ratings: string[] };
}

/** How a kind of document is issued (data/templates.json). */
export interface Template {
  code: string;
  docClass: string;
  type: string;
  category: string;
  title: string;
  catalogueName: string;
  reg: string | null;
  codes: string[];
  level: string | null;
  validity: number | null;
  refresher?: boolean;
  file: string;
  issuer: 'training' | 'clinic' | 'admin' | 'company' | 'passport' | 'flag';
  prefix: string;
}

export interface CapacityOut {
  stcw_regulation: string | null;
  role: string;
  level: string | null;
  gt_max: number | null;
  kw_max: number | null;
  power_unrestricted: boolean;
  area: string;
  vessel_types: string[];
}

/** A certificate of competency to issue (data/coc.json). */
export interface CocSpec {
  title: string;
  reg: string;
  level: string;
  caps: CapacityOut[];
}

export interface ClassificationOut {
  taxonomy_version: string;
  document_class: string;
  category_code: string;
  catalogue_title: { id: string; name: string };
  stcw_regulation: string | null;
  stcw_codes: string[];
  level: string | null;
  is_refresher: boolean;
  flag_state: string | null;
  coc_capacities: CapacityOut[];
  sources: string[];
}

export interface DocOut {
  document_id: string;
  crew_unique_id: string;
  type: string;
  category: string;
  title: string;
  issuer: string | null;
  verification_status: VerificationStatus;
  review_status: ReviewStatus;
  issue_date: string | null;
  expiry_date: string | null;
  no_expiry: boolean;
  document_number: string | null;
  processing_state: ProcessingState;
  is_current: boolean;
  is_live: boolean;
  superseded_by: string | null;
  classification: ClassificationOut;
  file: string | null;
  processed_at: string | null;
  updated_at: string;
}

export interface CrewOut {
  crew_unique_id: string;
  name: string;
  rank: string | null;
  email: string | null;
  phone: string | null;
  country_code: string | null;
  nationality: string | null;
  languages: string[];
  skills: string[];
  years_experience: number | null;
  bio: string | null;
  date_of_birth: string | null;
  address: {
    line1: string | null;
    line2: string | null;
    city: string | null;
    region: string | null;
    postal_code: string | null;
    country_code: string;
  } | null;
  passport: { number: string; issuing_country: string; expiry_date: string } | null;
  visas: Array<{ type: string; country_code: string; number: string; expiry_date: string }>;
  employment_history: Array<{
    employer_name: string;
    vessel_name: string | null;
    role: string;
    start_date: string;
    end_date: string | null;
    source: EmploymentSource;
  }>;
  photo: string | null;
  verification_status: VerificationStatus;
  background_check_status: BackgroundCheckStatus;
  profile_updated_at: string;
}

export interface VesselOut {
  vessel_id: string;
  employer_id: string;
  vessel_name: string;
  imo: string | null;
  mmsi: string | null;
  flag_state: string;
  vessel_type: string;
  gross_tonnage: number;
  propulsion_kw: number;
  trading_area: TradingArea;
  is_test: boolean;
}

export interface PartnerOut {
  partner_id: string;
  name: string;
  kind: PartnerKind;
  employer_id?: string;
  tier?: PartnerTier;
  scope_overrides?: string[] | null;
  upgraded?: boolean;
  contract_scopes?: string[];
  contract_vessel_ids?: string[];
  rate_limit?: number | null;
}

export interface AssignmentOut {
  assignment_id: string;
  crew_unique_id: string;
  vessel_id: string;
  role: string;
  position_name: string | null;
  status: AssignmentStatus;
  as_of: string;
}

export interface ConsentOut {
  crew_unique_id: string;
  partner_id: string;
  categories: string[];
}

/** One crew member before generation: their slot, countries and assignments. */
export interface CrewPlan {
  id: string;
  num: string;
  slot: Slot;
  vessel: VesselOut | null;
  country: Country;
  residence: Country;
  assignments: Array<{ vessel: VesselOut; role: string; status: AssignmentStatus; coverDocs: boolean }>;
}

export interface Built {
  crew: CrewOut[];
  assignments: AssignmentOut[];
  consents: ConsentOut[];
  documents: DocOut[];
  plans: CrewPlan[];
}
