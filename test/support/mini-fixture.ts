import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small valid fixture set: one employer, partner, vessel, two crew, documents and a file. */
export function miniFixture(): Record<string, any> {
  return {
    employers: [{ employer_id: 'emp_a', name: 'Alpha Shipping' }],
    partners: [{ partner_id: 'ptn_a', name: 'Alpha Management', kind: 'customer', employer_id: 'emp_a', tier: 'management' }],
    vessels: [
      {
        vessel_id: 'ves_a',
        employer_id: 'emp_a',
        vessel_name: 'Alpha Star',
        imo: '9074729',
        mmsi: '235000001',
        flag_state: 'GB',
        vessel_type: 'bulk_carrier',
        gross_tonnage: 30000,
        propulsion_kw: 9000,
      },
    ],
    crew: [
      { crew_unique_id: 'crew_1', name: 'Ana Silva', email: 'Ana.Silva@Example.com', photo: 'files/photo.png' },
      { crew_unique_id: 'crew_2', name: 'Ben Okafor' },
    ],
    assignments: [{ crew_unique_id: 'crew_1', vessel_id: 'ves_a', role: 'master', status: 'active', as_of: '2026-10-01T00:00:00Z' }],
    consents: [{ crew_unique_id: 'crew_1', partner_id: 'ptn_a', categories: ['status', 'documents'] }],
    documents: [
      {
        document_id: 'doc_new',
        crew_unique_id: 'crew_1',
        type: 'certificate',
        category: 'medical',
        title: 'Medical fitness',
        verification_status: 'verified',
        expiry_date: '2027-06-01',
        file: 'files/doc.pdf',
        classification: { document_class: 'medical', category_code: 'medical_fitness' },
      },
      {
        document_id: 'doc_old',
        crew_unique_id: 'crew_1',
        type: 'certificate',
        category: 'medical',
        title: 'Medical fitness',
        verification_status: 'verified',
        expiry_date: '2025-06-01',
        is_current: false,
        superseded_by: 'doc_new',
        classification: { document_class: 'medical', category_code: 'medical_fitness' },
      },
    ],
  };
}

/** The photo every fixture written by writeFixture holds (files/photo.png). */
export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Writes a fixture object (and the files it names) into a fresh folder; returns the JSON path. */
export function writeFixture(data: unknown, name = 'set.json'): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fixture-'));
  mkdirSync(join(dir, 'files'));
  writeFileSync(join(dir, 'files', 'photo.png'), PNG_1x1);
  writeFileSync(join(dir, 'files', 'doc.pdf'), PDF);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(data));
  return path;
}
