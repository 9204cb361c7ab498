import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Documents per generated crew member. */
const DOCS_PER_CREW = 20;
const pad = (n: number) => String(n).padStart(7, '0');

/**
 * Writes a fixture file (docs/fixtures.md) of `documents` documents over new crew members (20
 * each, no files), into a fresh temporary folder. Returns its path and a `dispose` that removes it.
 */
export function writeBulkDocumentsFixture(documents: number): { path: string; crew: number; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bulk-'));
  const crew = Math.ceil(documents / DOCS_PER_CREW);
  const data = {
    crew: Array.from({ length: crew }, (_, c) => ({ crew_unique_id: `bulk_crew_${pad(c)}`, name: `Bulk Crew ${c}` })),
    documents: Array.from({ length: documents }, (_, d) => ({
      document_id: `bulk_doc_${pad(d)}`,
      crew_unique_id: `bulk_crew_${pad(Math.floor(d / DOCS_PER_CREW))}`,
      type: 'certificate',
      category: 'training',
      title: `Basic safety training ${d}`,
      verification_status: 'verified',
      expiry_date: `20${27 + (d % 5)}-0${1 + (d % 9)}-15`,
      classification: { document_class: 'training', category_code: 'bst' },
    })),
  };
  const path = join(dir, 'bulk.json');
  writeFileSync(path, JSON.stringify(data));
  return { path, crew, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
