import type { Selectable } from 'kysely';
import type { Scope } from '../../domain/scopes.ts';
import type { CrewTable } from '../../store/database.ts';
import { fromJson } from '../../store/repositories/json.ts';

/** The scopes that each open one block of the profile (docs/contract.md, "Profile"). */
export const PROFILE_BLOCK_SCOPES = [
  'crew:profile:read', 'crew:contact:read', 'crew:professional:read', 'crew:experience:read', 'crew:personal:read',
] as const satisfies readonly Scope[];

export interface AddressWire {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country_code: string | null;
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
  employment_history?: unknown[];
  date_of_birth?: string | null;
  address?: AddressWire | null;
  passport?: { number: string; issuing_country: string; expiry_date: string } | null;
  visas?: unknown[];
}

/**
 * The composed single line: street lines, city, "region postal_code", country, skipping what is
 * missing. line1 stays null when no street was supplied (docs/contract.md).
 */
export function composeAddress(a: Omit<AddressWire, 'full_address'>): AddressWire {
  const regionLine = [a.region, a.postal_code].filter((p) => p !== null && p !== '').join(' ');
  const parts = [a.line1, a.line2, a.city, regionLine, a.country_code].filter((p): p is string => p !== null && p !== '');
  return { ...a, full_address: parts.join(', ') };
}

/** One converter for the crew profile: the stored crew row to its wire shape for these scopes. */
export function toProfileWire(row: Selectable<CrewTable>, scopes: ReadonlySet<Scope>, photoUrl: string | null): ProfileWire {
  const out: ProfileWire = { crew_unique_id: row.crew_unique_id };
  if (scopes.has('crew:profile:read')) Object.assign(out, { name: row.name, rank: row.rank });
  if (scopes.has('crew:contact:read')) Object.assign(out, { email: row.email, phone: row.phone, country_code: row.country_code });
  if (scopes.has('crew:professional:read')) {
    Object.assign(out, {
      nationality: row.nationality,
      languages: fromJson<string[]>(row.languages) ?? [],
      skills: fromJson<string[]>(row.skills) ?? [],
      years_experience: row.years_experience,
      bio: row.bio,
      profile_photo_url: photoUrl,
    });
  }
  if (scopes.has('crew:experience:read')) out.employment_history = fromJson<unknown[]>(row.employment_history) ?? [];
  if (scopes.has('crew:personal:read')) {
    const address = fromJson<Omit<AddressWire, 'full_address'>>(row.address);
    Object.assign(out, {
      date_of_birth: row.date_of_birth,
      address: address && composeAddress({
        line1: address.line1 ?? null, line2: address.line2 ?? null, city: address.city ?? null,
        region: address.region ?? null, postal_code: address.postal_code ?? null, country_code: address.country_code ?? null,
      }),
      passport: fromJson(row.passport),
      visas: fromJson<unknown[]>(row.visas) ?? [],
    });
  }
  return out;
}
