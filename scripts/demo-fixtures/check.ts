/**
 * Checks the generated data set the way `svc fixtures load` will (the fixture schema with its IMO
 * and MMSI checks, the rules and references ingestion checks, each id stated once), plus the
 * demo's own promises: referenced files exist, editions chain within one crew member, dates are
 * plausible, e-mails and consents unique.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'superstruct';
import { fixtureRecords, keyOf, placeOf, problemLines, repeatedRecords } from '../../src/services/fixtures/fixture-changes.ts';
import { formatPath } from '../../src/services/fixtures/read-fixtures.ts';
import { ENTITY_KINDS, unknownReference } from '../../src/services/ingest/entities.ts';
import { refKey } from '../../src/store/repositories/ingest-repo.ts';
import { FixtureFile } from '../../src/services/fixtures/schema.ts';
import { REF } from './random.ts';

/** Every problem of the data set written to `outDir`; empty when it is sound. */
export function checkDemo(parsed: unknown, outDir: string): string[] {
  const [err, data] = validate(parsed, FixtureFile);
  if (err) return err.failures().map((f) => `schema: ${formatPath(f.path)}: ${f.message}`);
  const { unique, problems } = repeatedRecords(fixtureRecords([{ path: 'demo.json', data }]));
  const errors = problemLines(problems);
  const defined = new Set(unique.map((r) => refKey(r.entity, keyOf(r) ?? '')));
  for (const r of unique) {
    const kind = ENTITY_KINDS[r.entity];
    for (const rule of kind.rules(r.record)) errors.push(`${placeOf(r)}.${rule.field}: ${rule.msg}`);
    for (const ref of kind.references(r.record))
      if (!defined.has(refKey(ref.entity, ref.id))) errors.push(`${placeOf(r)}.${ref.field}: ${unknownReference(ref)}`);
  }

  const imos = (data.vessels ?? []).map((v) => v.imo).filter(Boolean);
  if (new Set(imos).size !== imos.length) errors.push('duplicate IMO numbers');
  const consentPairs = new Set<string>();
  for (const c of data.consents ?? []) {
    const k = `${c.crew_unique_id}|${c.partner_id}`;
    if (consentPairs.has(k)) errors.push(`duplicate consent ${k}`);
    consentPairs.add(k);
  }
  const docs = data.documents ?? [];
  const docOwner = new Map(docs.map((d) => [d.document_id, d.crew_unique_id]));
  for (const d of docs) {
    if (d.superseded_by) {
      if (docOwner.get(d.superseded_by) !== d.crew_unique_id)
        errors.push(`document ${d.document_id}: superseded_by ${d.superseded_by} is not a document of the same crew`);
      if (d.is_current !== false) errors.push(`document ${d.document_id}: superseded but is_current`);
    }
    if (d.issue_date && d.expiry_date && d.issue_date > d.expiry_date) errors.push(`document ${d.document_id}: issued after expiry`);
    if (d.issue_date && d.issue_date > REF) errors.push(`document ${d.document_id}: issued after the reference date`);
    if (d.file && !existsSync(join(outDir, d.file))) errors.push(`document ${d.document_id}: missing file ${d.file}`);
  }
  const emails = new Set<string>();
  for (const c of data.crew ?? []) {
    if (c.photo && !existsSync(join(outDir, c.photo))) errors.push(`crew ${c.crew_unique_id}: missing photo ${c.photo}`);
    if (c.email) {
      const e = c.email.trim().toLowerCase();
      if (emails.has(e)) errors.push(`crew ${c.crew_unique_id}: duplicate email ${c.email}`);
      emails.add(e);
    }
  }
  return errors;
}
