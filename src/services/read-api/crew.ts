import { AppError } from '../../domain/app-error.ts';
import { fleetOf } from '../../domain/partner.ts';
import type { Db } from '../../store/database.ts';
import { findCrewProfile, toCrewProfile } from '../../store/repositories/crew-repo.ts';
import { openStoredFile, type StoredFile } from '../files/stored-files.ts';
import { crewOnFleet, findFleetCrewByEmail } from '../../store/repositories/crew-on-fleet-repo.ts';
import { requireCrewAccess, requireGranted, storeCrewAccess } from '../visibility/access.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';
import { toProfileWire, type ProfileWire } from '../visibility/profile.ts';

/** Crew lookup by e-mail (docs/decisions.md §4): case-insensitive and trimmed, crew on the fleet only. */
export async function lookupCrew(db: Db, ctx: PartnerContext, email: string): Promise<{ crew_unique_id: string }> {
  const id = await findFleetCrewByEmail(db, fleetOf(ctx.partner, ctx.mode), email.trim().toLowerCase());
  if (!id) throw new AppError('crew_not_found', 'no crew member with that e-mail address on your fleet');
  return { crew_unique_id: id };
}

async function profileOf(db: Db, crewUniqueId: string) {
  const profile = await findCrewProfile(db, crewUniqueId);
  // An assignment references its crew row, so this only happens if the row vanished mid-request.
  if (!profile) throw new AppError('crew_not_found', `no crew member ${crewUniqueId} on your fleet`);
  return profile;
}

/**
 * The profile, one block per effective scope (the route requires at least one of them): the crew
 * row, the fleet and the profile consent read in one round trip, judged as requireCrewAccess does.
 */
export async function crewProfile(db: Db, ctx: PartnerContext, crewUniqueId: string, photoUrl: string): Promise<ProfileWire> {
  const found = await crewOnFleet(db, fleetOf(ctx.partner, ctx.mode), crewUniqueId, ctx.partner.partnerId);
  requireGranted(found?.onFleet ?? false, found?.consents ?? new Set(), crewUniqueId, 'profile');
  const profile = toCrewProfile(found!.crew);
  return toProfileWire(profile, ctx.scopes, profile.photoFileId ? photoUrl : null);
}

/** The photo, with profile consent; 404 photo_not_found when none. */
export async function crewPhoto(db: Db, ctx: PartnerContext, crewUniqueId: string): Promise<StoredFile> {
  await requireCrewAccess(storeCrewAccess(db), ctx, crewUniqueId, 'profile');
  const { photoFileId } = await profileOf(db, crewUniqueId);
  const file = photoFileId ? await openStoredFile(db, photoFileId) : undefined;
  if (!file) throw new AppError('photo_not_found', `crew member ${crewUniqueId} has no photo`);
  return file;
}
