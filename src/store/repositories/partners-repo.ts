import type { Selectable } from 'kysely';
import type { Partner } from '../../domain/partner.ts';
import type { Db, PartnersTable } from '../database.ts';
import { fromJson } from './json.ts';

export function toPartner(row: Selectable<PartnersTable>): Partner {
  return {
    partnerId: row.partner_id,
    name: row.name,
    kind: row.kind,
    employerId: row.employer_id,
    tier: row.tier,
    scopeOverrides: fromJson<string[]>(row.scope_overrides),
    upgraded: row.upgraded === 1,
    contractScopes: fromJson<string[]>(row.contract_scopes),
    rateLimit: row.rate_limit,
  };
}

export async function findPartner(db: Db, partnerId: string): Promise<Partner | undefined> {
  const row = await db.selectFrom('partners').selectAll().where('partner_id', '=', partnerId).executeTakeFirst();
  return row && toPartner(row);
}

export async function listPartners(db: Db): Promise<Partner[]> {
  const rows = await db.selectFrom('partners').selectAll().orderBy('partner_id').execute();
  return rows.map(toPartner);
}
