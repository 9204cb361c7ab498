/**
 * The worked example of docs/compliance.md: crew_bo, master of ves_bo (GB), holds every document
 * a master needs on a bulk carrier, valid until 2029, except basic safety training, which expires
 * on 2027-03-31. With the 90-day window: compliant on 2026-11-22, at risk from 2026-12-31 (the
 * expiry enters the window), non-compliant from 2027-04-01.
 */
export function bstExampleFixture(): Record<string, unknown> {
  const doc = (code: string, documentClass: string, expiry: string, extra: Record<string, unknown> = {}) => ({
    document_id: `doc_bo_${code}`,
    crew_unique_id: 'crew_bo',
    type: 'certificate',
    category: documentClass,
    title: code,
    verification_status: 'verified',
    expiry_date: expiry,
    classification: { document_class: documentClass, category_code: code, ...extra },
  });
  const training = ['security_awareness', 'pscrb', 'aff', 'mfa', 'medical_care', 'ecdis', 'brm'];
  return {
    employers: [{ employer_id: 'emp_bo', name: 'Bo Shipping' }],
    partners: [{ partner_id: 'ptn_bo', name: 'Bo Management', kind: 'customer', employer_id: 'emp_bo', tier: 'management' }],
    vessels: [
      {
        vessel_id: 'ves_bo',
        employer_id: 'emp_bo',
        vessel_name: 'MV Bo',
        imo: null,
        mmsi: null,
        flag_state: 'GB',
        vessel_type: 'bulk_carrier',
        gross_tonnage: 30000,
        propulsion_kw: 9000,
      },
    ],
    crew: [{ crew_unique_id: 'crew_bo', name: 'Bo Larsen' }],
    assignments: [
      {
        crew_unique_id: 'crew_bo',
        vessel_id: 'ves_bo',
        role: 'master',
        position_name: 'Master',
        status: 'active',
        as_of: '2026-10-01T00:00:00Z',
      },
    ],
    consents: [{ crew_unique_id: 'crew_bo', partner_id: 'ptn_bo', categories: ['compliance'] }],
    documents: [
      doc('medical_fitness', 'medical', '2029-01-01'),
      doc('drug_alcohol_test', 'medical', '2029-01-01'),
      doc('bst', 'training', '2027-03-31', { stcw_codes: ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'] }),
      ...training.map((code) => doc(code, 'training', '2029-01-01')),
      doc('coc', 'coc', '2029-01-01', {
        flag_state: 'GB',
        coc_capacities: [
          {
            stcw_regulation: null,
            role: 'master',
            level: null,
            gt_max: null,
            kw_max: null,
            power_unrestricted: false,
            area: 'unlimited',
            vessel_types: [],
          },
        ],
      }),
      doc('gmdss_goc', 'coc', '2029-01-01'),
    ],
  };
}
