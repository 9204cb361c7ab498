/** `--summary`: the interesting cases of the demo data set, for whoever writes tests or docs against it. */
import type { CrewDocument } from '../../src/domain/document.ts';
import { isListable } from '../../src/domain/document.ts';
import { expectedCompliance, loadedDocument, loadedVessel } from './expected-compliance.ts';
import { partnerFleet } from './fleet.ts';
import type { DemoData } from './generate.ts';
import { addDays, REF } from './random.ts';
import { PARTNERS } from './tables.ts';
import type { Built, DocOut } from './types.ts';

export function summary(data: DemoData, built: Built): string {
  const lines: string[] = [];
  const docs = data.documents;
  const vessels = data.vessels;
  const loaded = new Map(docs.map((d) => [d.document_id, loadedDocument(d)]));
  const vById = new Map(vessels.map((v) => [v.vessel_id, v]));
  const docsOf = new Map<string, CrewDocument[]>();
  for (const d of docs) {
    if (!docsOf.has(d.crew_unique_id)) docsOf.set(d.crew_unique_id, []);
    docsOf.get(d.crew_unique_id)!.push(loaded.get(d.document_id)!);
  }
  const list = (xs: string[], max = 12) =>
    `${xs.slice(0, max).join(', ')}${xs.length > max ? `, … (${xs.length} in all)` : ` (${xs.length})`}`;
  lines.push(
    `counts: employers ${data.employers.length}, partners ${data.partners.length}, vessels ${data.vessels.length}, crew ${data.crew.length}, assignments ${data.assignments.length}, consents ${data.consents.length}, documents ${docs.length}`,
  );

  lines.push('', 'partners:');
  for (const p of data.partners) {
    const fleet = partnerFleet(p, vessels);
    const live = fleet.filter((v) => !vById.get(v)!.is_test);
    const test = fleet.filter((v) => vById.get(v)!.is_test);
    lines.push(
      `  ${p.partner_id}: ${p.kind}${p.tier ? ` tier=${p.tier}` : ''}${p.scope_overrides ? ` scope_overrides=[${p.scope_overrides.join(', ')}] upgraded=${p.upgraded}` : ''}${p.contract_scopes ? ` contract_scopes=[${p.contract_scopes.join(', ')}]` : ''}; live vessels [${live.join(', ')}]; test vessels [${test.join(', ')}]`,
    );
  }

  const isListed = (d: DocOut) => isListable(loaded.get(d.document_id)!);
  const cases: Array<[string, (d: DocOut) => boolean]> = [
    [
      'listable, valid > 90 days',
      (d) =>
        isListed(d) &&
        !d.no_expiry &&
        !!d.expiry_date &&
        d.expiry_date > addDays(REF, 90) &&
        d.verification_status === 'verified' &&
        d.review_status === 'approved',
    ],
    ['listable, expired', (d) => isListed(d) && !!d.expiry_date && d.expiry_date < REF],
    [
      'listable, expiring within 30 days',
      (d) => isListed(d) && !!d.expiry_date && d.expiry_date >= REF && d.expiry_date <= addDays(REF, 30),
    ],
    [
      'listable, expiring in 31-90 days',
      (d) => isListed(d) && !!d.expiry_date && d.expiry_date > addDays(REF, 30) && d.expiry_date <= addDays(REF, 90),
    ],
    ['listable, no_expiry true', (d) => isListed(d) && d.no_expiry],
    ['listable, expiry not recorded (no_expiry false, expiry_date null)', (d) => isListed(d) && !d.no_expiry && d.expiry_date === null],
    ['superseded (is_current false)', (d) => !d.is_current],
    ['rejected', (d) => d.processing_state === 'rejected'],
    ['duplicate', (d) => d.processing_state === 'duplicate'],
    ['placeholder', (d) => d.processing_state === 'placeholder'],
    ['processing', (d) => d.processing_state === 'processing'],
    ['legacy', (d) => d.processing_state === 'legacy'],
    ['withdrawn (is_live false)', (d) => !d.is_live],
    ['listable, verification unverified', (d) => isListed(d) && d.verification_status === 'unverified'],
    ['listable, verification pending', (d) => isListed(d) && d.verification_status === 'pending'],
    ['listable, review pending', (d) => isListed(d) && d.review_status === 'pending'],
    ['listable, review flagged', (d) => isListed(d) && d.review_status === 'flagged'],
    ['listable, medical class', (d) => isListed(d) && d.classification.document_class === 'medical'],
    ['issuer null', (d) => d.issuer === null],
    [
      'BST single certificate with all 4 codes',
      (d) => d.classification.category_code === 'bst' && d.classification.stcw_codes.length === 4,
    ],
    ['BST refresher', (d) => d.classification.is_refresher],
    ['restricted CoC capacity', (d) => d.classification.coc_capacities.some((c) => c.gt_max !== null || c.kw_max !== null)],
    ['flag endorsement', (d) => d.classification.category_code === 'flag_endorsement'],
  ];
  lines.push('', 'document cases (document ids):');
  for (const [label, pred] of cases) lines.push(`  ${label}: ${list(docs.filter(pred).map((d) => d.document_id))}`);
  lines.push('  superseded chains:');
  for (const d of docs.filter((x) => !x.is_current)) lines.push(`    ${d.document_id} -> ${d.superseded_by}`);

  lines.push('', 'expected compliance on the reference date, per assignment (crew vessel role status: overall [non-met rows]; note):');
  const tally: Record<string, number> = {};
  for (const a of data.assignments) {
    const v = vById.get(a.vessel_id)!;
    const res = expectedCompliance(a.role, loadedVessel(v), docsOf.get(a.crew_unique_id) ?? []);
    if (a.status !== 'signed_off')
      tally[`${v.is_test ? 'test' : 'live'} ${res.overall}`] = (tally[`${v.is_test ? 'test' : 'live'} ${res.overall}`] ?? 0) + 1;
    const bad = Object.entries(res.rows)
      .filter(([, s]) => s !== 'met')
      .map(([k, s]) => `${k}=${s}`);
    const plan = built.plans.find((p) => p.id === a.crew_unique_id)!;
    lines.push(
      `  ${a.crew_unique_id} ${a.vessel_id} ${a.role} ${a.status}: ${res.overall}${bad.length ? ` [${bad.join(', ')}]` : ''}${plan.slot.note ? `; ${plan.slot.note}` : ''}`,
    );
  }
  lines.push(`  tally (excluding signed_off): ${JSON.stringify(tally)}`);

  lines.push('', 'consent variants (crew: partner -> categories):');
  const consents = data.consents;
  for (const p of built.plans) {
    const mine = consents.filter((c) => c.crew_unique_id === p.id);
    const partnersSeeing = PARTNERS.filter((x) => p.assignments.some((a) => partnerFleet(x, vessels).includes(a.vessel.vessel_id))).map(
      (x) => x.partner_id,
    );
    const full = mine.length === partnersSeeing.length && mine.every((c) => c.categories.length === 4);
    if (full && p.assignments.length > 0) continue;
    const missing = partnersSeeing.filter((x) => !mine.some((c) => c.partner_id === x));
    lines.push(
      `  ${p.id}: ${mine.map((c) => `${c.partner_id} -> [${c.categories.join(',')}]`).join('; ') || '(no records)'}${missing.length ? `; no record for ${missing.join(', ')}` : ''}`,
    );
  }

  lines.push('', 'crew on more than one vessel:');
  for (const p of built.plans.filter((x) => x.assignments.length > 1)) {
    lines.push(`  ${p.id}: ${p.assignments.map((a) => `${a.vessel.vessel_id} (${a.role}, ${a.status})`).join(' + ')}`);
  }
  lines.push(
    '',
    'crew without a fleet entry: ' +
      built.plans
        .filter((p) => p.assignments.every((a) => a.status === 'signed_off'))
        .map((p) => p.id)
        .join(', '),
  );
  const crew = data.crew;
  lines.push(
    '',
    `mixed-case emails: ${list(
      crew.filter((c) => c.email && c.email !== c.email.toLowerCase()).map((c) => `${c.crew_unique_id}=${c.email}`),
      6,
    )}`,
  );
  lines.push(
    `crew without email: ${crew
      .filter((c) => !c.email)
      .map((c) => c.crew_unique_id)
      .join(', ')}`,
  );
  lines.push(
    `crew without photo: ${list(
      crew.filter((c) => !c.photo).map((c) => c.crew_unique_id),
      40,
    )}`,
  );
  lines.push(
    `crew with JPEG photo: ${list(
      crew.filter((c) => c.photo?.endsWith('.jpg')).map((c) => c.crew_unique_id),
      40,
    )}`,
  );
  lines.push(
    `address line1 null: ${list(
      crew.filter((c) => c.address && c.address.line1 === null).map((c) => c.crew_unique_id),
      40,
    )}`,
  );
  for (const s of ['not_started', 'pending', 'clear', 'review', 'adverse', 'expired']) {
    lines.push(
      `background_check_status ${s}: ${list(
        crew.filter((c) => c.background_check_status === s).map((c) => c.crew_unique_id),
        30,
      )}`,
    );
  }
  for (const s of ['unverified', 'pending', 'verified']) {
    lines.push(
      `verification_status ${s}: ${list(
        crew.filter((c) => c.verification_status === s).map((c) => c.crew_unique_id),
        30,
      )}`,
    );
  }
  return lines.join('\n');
}
