/**
 * Which documents a crew member holds: every requirement of their role on the vessels their
 * documents cover (data/requirements.json), issued through the document maker with the slot's
 * faults, then identity and travel documents that no requirement matches.
 */
import { ROLES } from '../../src/domain/catalogue.ts';
import { documentMaker } from './document-maker.ts';
import { addDays, addYears, minDate, REF } from './random.ts';
import { cocFor, copCode, FLAG_ADMIN, PEOPLE, requirementKeys, TEMPLATES } from './tables.ts';
import type { CrewOut, CrewPlan, DocOut, VesselOut } from './types.ts';

export function buildDocuments(p: CrewPlan, person: CrewOut, index: number): DocOut[] {
  const { r, slot, role, faults, has, global, capVariant, nat, out, make, datesFor, certificate } = documentMaker(p, index);

  // Requirement keys to cover: primary vessel, plus further assignments marked coverDocs.
  const covered = p.assignments.filter((a) => a.coverDocs);
  const keys = new Set<string>();
  const targets = covered.length > 0 ? covered : [{ vessel: null as VesselOut | null, role }];
  for (const a of targets) for (const k of requirementKeys(role, a.vessel?.vessel_type ?? null)) keys.add(k);
  // A role outside the catalogue still holds the certificates every seafarer has.
  if (!(ROLES as readonly string[]).includes(role))
    for (const k of ['medical_fitness', 'drug_alcohol_test', 'bst', 'security_awareness']) keys.add(k);
  const flags = new Set(covered.map((a) => a.vessel.flag_state));

  // Medical
  for (const key of ['medical_fitness', 'drug_alcohol_test']) if (keys.has(key)) certificate(key, TEMPLATES[key]!);

  // Basic safety training
  if (keys.has('bst')) {
    const variant =
      slot.bst ??
      ([...faults.keys()].some((k) => k.startsWith('bst_'))
        ? 'modules'
        : faults.has('bst')
          ? 'combined'
          : index % 7 === 3
            ? 'refresher'
            : r.chance(0.4)
              ? 'modules'
              : 'combined');
    if (variant === 'combined') certificate('bst', TEMPLATES.bst!);
    else if (variant === 'modules') for (const m of ['bst_pst', 'bst_fpff', 'bst_efa', 'bst_pssr']) certificate(m, TEMPLATES[m]!);
    else {
      certificate('bst_efa', TEMPLATES.bst_efa!);
      certificate('bst_pssr', TEMPLATES.bst_pssr!);
      const refresher = certificate('bst_refresher', TEMPLATES.bst_refresher!)!;
      // The original PST and FPFF certificates, replaced by the refresher.
      for (const m of ['bst_pst', 'bst_fpff']) {
        const issue = addYears(refresher.issue_date!, -5);
        make({
          idSuffix: `${m}_${issue.slice(0, 4)}`,
          template: TEMPLATES[m]!,
          issue,
          expiry: addYears(issue, 5),
          noExpiry: false,
          isCurrent: false,
          supersededBy: refresher.document_id,
        });
      }
    }
  }

  // Security: DSD for those who need it, SSO for master and chief officer, awareness otherwise.
  if (keys.has('security_awareness')) {
    if (keys.has('dsd') && !has('missing', 'dsd')) certificate('dsd', TEMPLATES.dsd!);
    else if (['master', 'chief_officer'].includes(role)) certificate('sso', TEMPLATES.sso!);
    else certificate('security_awareness', TEMPLATES.security_awareness!);
  }
  for (const key of ['pscrb', 'aff', 'mfa', 'medical_care', 'tanker_basic', 'tanker_advanced_oil'])
    if (keys.has(key)) certificate(key, TEMPLATES[key]!);

  // Certificate of competency, GMDSS, flag endorsements
  if (keys.has('coc')) {
    const coc = cocFor(role, capVariant);
    const main = certificate('coc', TEMPLATES.coc!, { title: coc.title, reg: coc.reg, level: coc.level, caps: coc.caps, flag: nat.code });
    if (main && main.expiry_date && !has('noendorse', '')) {
      for (const flag of [...flags].sort()) {
        if (flag === nat.code) continue;
        const endorsementFlag = global.has('wrongendorse') ? (flag === 'MT' ? 'CY' : 'MT') : flag;
        const t = TEMPLATES.flag_endorsement!;
        const d = datesFor('flag_endorsement', t);
        const expiry = minDate(d.expiry ?? main.expiry_date, main.expiry_date);
        const cocIssue = main.issue_date!;
        let issue = addDays(REF, -r.int(20, 900));
        if (issue < cocIssue) issue = cocIssue;
        if (issue < addYears(expiry, -5)) issue = addYears(expiry, -5);
        if (issue >= expiry) issue = cocIssue;
        make({
          idSuffix: `flag_endorsement_${endorsementFlag.toLowerCase()}`,
          template: t,
          title: `Endorsement Attesting Recognition of a Certificate (STCW I/10): ${endorsementFlag}`,
          issue,
          expiry,
          noExpiry: false,
          flag: endorsementFlag,
          issuer: FLAG_ADMIN[endorsementFlag] ?? null,
          level: coc.level,
        });
      }
    }
  }
  for (const key of ['gmdss_goc', 'ecdis', 'brm', 'erm', 'ships_cook']) {
    if (keys.has(key)) certificate(key, TEMPLATES[key]!, key === 'gmdss_goc' ? { flag: nat.code } : {});
  }
  if (keys.has('cop_rating')) {
    const code = copCode(role);
    certificate('cop_rating', TEMPLATES[code]!, { flag: nat.code }, code);
  }

  // A certificate the role does not need, under review as flagged.
  if (global.has('flaggedextra')) {
    const d = datesFor('aff_extra', TEMPLATES.aff!);
    make({ idSuffix: 'aff', template: TEMPLATES.aff!, ...d, review: 'flagged' });
  }

  // Identity and travel documents (nothing in the catalogue matches them).
  if (person.passport && index % 9 !== 4) {
    const pp = person.passport;
    certificate('passport', TEMPLATES.passport!, {
      title: `Passport (${nat.name})`,
      issue: addYears(pp.expiry_date, -10),
      expiry: pp.expiry_date,
      noExpiry: false,
      number: pp.number,
      issuer: nat.passportAuthority,
      flag: null,
      review: index % 19 === 6 ? 'flagged' : undefined,
      verification: index % 10 === 7 ? 'pending' : undefined,
    });
  }
  if (index % 4 !== 1) {
    const noRecord = index % 12 === 6;
    const issue = addDays(REF, -r.int(300, 3000));
    make({
      idSuffix: 'seaman_book',
      template: TEMPLATES.seaman_book!,
      issue,
      expiry: noRecord ? null : addYears(issue, 10),
      noExpiry: false,
      review: index % 15 === 8 ? 'flagged' : undefined,
      verification: index % 14 === 3 ? 'unverified' : undefined,
    });
  }
  for (const [k, v] of person.visas.entries()) {
    if (index % 3 === 0) break;
    make({
      idSuffix: `visa_${v.country_code.toLowerCase()}${k > 0 ? `_${k}` : ''}`,
      template: TEMPLATES.visa!,
      title: `Visa: ${v.type} (${v.country_code})`,
      issue: addYears(v.expiry_date, -(v.country_code === 'US' ? 5 : 3)),
      expiry: v.expiry_date,
      noExpiry: false,
      number: v.number,
      issuer:
        v.country_code === 'US'
          ? 'U.S. Department of State'
          : v.country_code === 'AU'
            ? 'Australian Department of Home Affairs'
            : `Consulate of ${v.country_code}`,
      review: index % 16 === 10 ? 'flagged' : undefined,
    });
  }
  if (index % 4 === 2) {
    const issue = addDays(REF, -r.int(100, 1500));
    make({
      idSuffix: 'sea_service',
      template: TEMPLATES.other!,
      issue,
      expiry: null,
      noExpiry: true,
      issuer: r.pick(PEOPLE.previous_employers),
      flag: null,
    });
  }
  return out;
  return out;
}
