/** An ingest upsert of a valid STCW training document of `crewId`, with `data` over its fields (docs/ingest.md). */
export const documentChange = (id: string, crewId: string, version: number, data: Record<string, unknown> = {}) => ({
  entity: 'document',
  op: 'upsert',
  id,
  version,
  data: {
    crew_unique_id: crewId,
    type: 'certificate',
    category: 'stcw',
    title: 'Basic Safety Training',
    verification_status: 'verified',
    issue_date: '2025-01-01',
    expiry_date: '2030-01-01',
    classification: { document_class: 'training', category_code: 'basic_safety' },
    ...data,
  },
});
