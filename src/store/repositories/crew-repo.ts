import type { Selectable } from 'kysely';
import type { CrewProfile, PostalAddress } from '../../domain/crew.ts';
import type { CrewTable, Db } from '../database.ts';
import { fromJson } from './json.ts';

/** Whether a crew member with this id is held at all, on any fleet or none. */
export async function crewExists(db: Db, crewUniqueId: string): Promise<boolean> {
  const row = await db.selectFrom('crew').select('crew_unique_id').where('crew_unique_id', '=', crewUniqueId).executeTakeFirst();
  return row !== undefined;
}

/** The crew row as a profile; missing parts of a stored address read as null. */
export function toCrewProfile(row: Selectable<CrewTable>): CrewProfile {
  const address = fromJson<Partial<PostalAddress>>(row.address);
  return {
    crewUniqueId: row.crew_unique_id,
    name: row.name,
    rank: row.rank,
    email: row.email,
    phone: row.phone,
    countryCode: row.country_code,
    nationality: row.nationality,
    languages: fromJson<string[]>(row.languages) ?? [],
    skills: fromJson<string[]>(row.skills) ?? [],
    yearsExperience: row.years_experience,
    bio: row.bio,
    dateOfBirth: row.date_of_birth,
    address: address && {
      line1: address.line1 ?? null,
      line2: address.line2 ?? null,
      city: address.city ?? null,
      region: address.region ?? null,
      postal_code: address.postal_code ?? null,
      country_code: address.country_code ?? null,
    },
    passport: fromJson(row.passport),
    visas: fromJson(row.visas) ?? [],
    employmentHistory: fromJson(row.employment_history) ?? [],
    photoFileId: row.photo_file_id,
  };
}

export async function findCrewProfile(db: Db, crewUniqueId: string): Promise<CrewProfile | undefined> {
  const row = await db.selectFrom('crew').selectAll().where('crew_unique_id', '=', crewUniqueId).executeTakeFirst();
  return row && toCrewProfile(row);
}
