import type { CrewProfile, EmploymentEntry, Passport, PostalAddress, Visa } from '../../domain/crew.ts';
import type { Scope } from '../../domain/scopes.ts';

/** The scopes that each open one block of the profile (docs/contract.md, "Profile"). */
export const PROFILE_BLOCK_SCOPES = [
  'crew:profile:read',
  'crew:contact:read',
  'crew:professional:read',
  'crew:experience:read',
  'crew:personal:read',
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
export function composeAddress(address: PostalAddress): AddressWire {
  const regionLine = [address.region, address.postal_code].filter((p) => p !== null && p !== '').join(' ');
  const parts = [address.line1, address.line2, address.city, regionLine, address.country_code].filter(
    (p): p is string => p !== null && p !== '',
  );
  return { ...address, full_address: parts.join(', ') };
}

/** One converter for the crew profile: the profile to its wire shape for these scopes. */
export function toProfileWire(profile: CrewProfile, scopes: ReadonlySet<Scope>, photoUrl: string | null): ProfileWire {
  const out: ProfileWire = { crew_unique_id: profile.crewUniqueId };
  if (scopes.has('crew:profile:read')) Object.assign(out, { name: profile.name, rank: profile.rank });
  if (scopes.has('crew:contact:read'))
    Object.assign(out, { email: profile.email, phone: profile.phone, country_code: profile.countryCode });
  if (scopes.has('crew:professional:read')) {
    Object.assign(out, {
      nationality: profile.nationality,
      languages: profile.languages,
      skills: profile.skills,
      years_experience: profile.yearsExperience,
      bio: profile.bio,
      profile_photo_url: photoUrl,
    });
  }
  if (scopes.has('crew:experience:read')) out.employment_history = profile.employmentHistory;
  if (scopes.has('crew:personal:read')) {
    Object.assign(out, {
      date_of_birth: profile.dateOfBirth,
      address: profile.address && composeAddress(profile.address),
      passport: profile.passport,
      visas: profile.visas,
    });
  }
  return out;
}
