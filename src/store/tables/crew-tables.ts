import type {
  AssignmentStatus,
  BackgroundCheckStatus,
  ConsentCategory,
  PartnerKind,
  PartnerTier,
  ProcessingState,
  ReviewStatus,
  TradingArea,
  VerificationStatus,
} from '../../domain/vocabulary.ts';
import type { Bool } from './columns.ts';

/* The fleet and crew data the API serves and the sync compares (column conventions: ./columns.ts). */

export interface EmployersTable {
  employer_id: string;
  name: string;
}

export interface PartnersTable {
  partner_id: string;
  name: string;
  kind: PartnerKind;
  /** The employer account whose vessels form a customer partner's fleet. */
  employer_id: string | null;
  tier: PartnerTier | null;
  /** JSON array of scope names, or null. */
  scope_overrides: string | null;
  upgraded: Bool;
  /** JSON array: an external partner's contract scopes. */
  contract_scopes: string | null;
  /** Requests per window; null means the configured default. */
  rate_limit: number | null;
  created_at: string;
}

export interface ContractVesselsTable {
  partner_id: string;
  vessel_id: string;
}

export interface VesselsTable {
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
  is_test: Bool;
}

export interface CrewTable {
  crew_unique_id: string;
  name: string;
  rank: string | null;
  email: string | null;
  /** lower(trim(email)), for the case-insensitive lookup. */
  email_normalized: string | null;
  phone: string | null;
  country_code: string | null;
  nationality: string | null;
  languages: string; // JSON string[]
  skills: string; // JSON string[]
  years_experience: number | null;
  bio: string | null;
  date_of_birth: string | null;
  address: string | null; // JSON {line1,line2,city,region,postal_code,country_code}
  passport: string | null; // JSON {number,issuing_country,expiry_date}
  visas: string; // JSON [{type,country_code,number,expiry_date}]
  employment_history: string; // JSON [{employer_name,vessel_name,role,start_date,end_date,source}]
  photo_file_id: string | null;
  verification_status: VerificationStatus;
  background_check_status: BackgroundCheckStatus;
  profile_updated_at: string;
  updated_at: string;
}

export interface AssignmentsTable {
  assignment_id: string;
  crew_unique_id: string;
  vessel_id: string;
  role: string;
  position_name: string | null;
  status: AssignmentStatus;
  as_of: string;
}

export interface ConsentsTable {
  crew_unique_id: string;
  partner_id: string;
  category: ConsentCategory;
}

export interface FilesTable {
  /** sha256 hex of the bytes: the same file is stored once. */
  file_id: string;
  content_type: string;
  size: number;
  /** Empty for a file stored in chunks (file_chunks); the whole file for one stored before them. */
  bytes: Uint8Array;
  /** When it was stored (ISO-8601 UTC); `svc sync` deletes a file unused that long (src/services/files/unused-files.ts). */
  stored_at: string | null;
}

export interface FileChunksTable {
  file_id: string;
  /** 0, 1, 2…: the chunks in file order. */
  seq: number;
  bytes: Uint8Array;
}

export interface DocumentsTable {
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
  no_expiry: Bool;
  document_number: string | null;
  processing_state: ProcessingState;
  is_current: Bool;
  /** 0 once withdrawn by the crew member. */
  is_live: Bool;
  superseded_by: string | null;
  document_class: string;
  classification: string; // JSON classification object
  file_id: string | null;
  file_name: string | null;
  processed_at: string | null;
  updated_at: string;
}

export interface RequirementCatalogueTable {
  requirement_key: string;
  position: number;
  definition: string; // JSON RequirementDefinition
}

export interface ComplianceResultsTable {
  crew_unique_id: string;
  vessel_id: string;
  as_of: string;
  result: string; // JSON ComplianceResult (unredacted)
}
