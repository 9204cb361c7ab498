import type { EmploymentSource } from './vocabulary.ts';

/*
 * A crew member's profile (converted from the crew row in src/store/repositories/crew-repo.ts).
 * The nested records are kept as the JSON objects the store holds and the API sends, snake_case.
 */

export interface PostalAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country_code: string | null;
}

export interface Passport {
  number: string;
  issuing_country: string;
  expiry_date: string;
}

export interface Visa {
  type: string;
  country_code: string;
  number: string;
  expiry_date: string;
}

export interface EmploymentEntry {
  employer_name: string;
  vessel_name: string | null;
  role: string;
  start_date: string;
  end_date: string | null;
  source: EmploymentSource;
}

export interface CrewProfile {
  crewUniqueId: string;
  name: string;
  rank: string | null;
  email: string | null;
  phone: string | null;
  countryCode: string | null;
  nationality: string | null;
  languages: string[];
  skills: string[];
  yearsExperience: number | null;
  bio: string | null;
  dateOfBirth: string | null;
  address: PostalAddress | null;
  passport: Passport | null;
  visas: Visa[];
  employmentHistory: EmploymentEntry[];
  photoFileId: string | null;
}

/** The status and profile-change fields of a crew member: what the status and profile events carry (vocabulary.ts EVENT_TYPES). */
export interface CrewSignals {
  crewUniqueId: string;
  verificationStatus: string;
  backgroundCheckStatus: string;
  profileUpdatedAt: string;
}
