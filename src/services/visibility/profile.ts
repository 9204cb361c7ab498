import type { CrewProfile, EmploymentEntry, Passport, PostalAddress, Visa } from '../../domain/crew.ts';
import type { Scope } from '../../domain/scopes.ts';

/** The scopes that each open one block of the profile (docs/contract.md, "Profile"). */
export const PROFILE_BLOCK_SCOPES = [
  'crew:profile:read', 'crew:contact:read', 'crew:professional:read', 'crew:experience:read', 'crew:personal:read',
] as const satisfies readonly Scope[];

export interface AddressWire extends PostalAddress {
  full_address: string;
}

/** The profile on the wire: each block present only with its scope (keys absent, not null). */
export interface ProfileWire {
  crew_unique_id: string;
  name?: string;
  rank?: string | null;
  email?: string | null;
  phone?: string | null;
  country_code?: string | null;
  nationality?: string | null;
  languages?: string[];
  skills?: string[];
  years_experience?: number | null;
  bio?: string | null;
  profile_photo_url?: string | null;
  employment_history?: EmploymentEntry[];
  date_of_birth?: string | null;
  address?: AddressWire | null;
  passport?: Passport | null;
  visas?: Visa[];
}

/**
 * The composed single line: street lines, city, "region postal_code", country, skipping what is
 * missing. line1 stays null when no street was supplied (docs/contract.md).
 */
export function composeAddress(a: PostalAddress): AddressWire {
  const regionLine = [a.region, a.postal_code].filter((p) => p !== null && p !== '').join(' ');
  const parts = [a.line1, a.line2, a.city, regionLine, a.country_code].filter((p): p is string => p !== null && p !== '');
  return { ...a, full_address: parts.join(', ') };
}

/** One converter for the crew profile: the profile to its wire shape for these scopes. */
export function toProfileWire(p: CrewProfile, scopes: ReadonlySet<Scope>, photoUrl: string | null): ProfileWire {
  const out: ProfileWire = { crew_unique_id: p.crewUniqueId };
  if (scopes.has('crew:profile:read')) Object.assign(out, { name: p.name, rank: p.rank });
  if (scopes.has('crew:contact:read')) Object.assign(out, { email: p.email, phone: p.phone, country_code: p.countryCode });
  if (scopes.has('crew:professional:read')) {
    Object.assign(out, {
      nationality: p.nationality, languages: p.languages, skills: p.skills, years_experience: p.yearsExperience, bio: p.bio,
      profile_photo_url: photoUrl,
    });
  }
  if (scopes.has('crew:experience:read')) out.employment_history = p.employmentHistory;
  if (scopes.has('crew:personal:read')) {
    Object.assign(out, {
      date_of_birth: p.dateOfBirth, address: p.address && composeAddress(p.address), passport: p.passport, visas: p.visas,
    });
  }
  return out;
}
