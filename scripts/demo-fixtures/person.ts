/** One crew member's profile and assignments, drawn from their own random stream. */
import { PHOTOS } from './files.ts';
import { addDays, addYears, drawPattern, REF, Rng, stamp } from './random.ts';
import { EMPLOYERS, PEOPLE, skillSet } from './tables.ts';
import type { AssignmentOut, CrewOut, CrewPlan } from './types.ts';

/** Names and e-mail addresses already given, so each is unique across the data set. */
export interface Taken {
  names: Set<string>;
  emails: Set<string>;
}

export function buildPerson(p: CrewPlan, i: number, taken: Taken): { person: CrewOut; assignments: AssignmentOut[] } {
  const { names: usedNames, emails } = taken;
  const assignments: AssignmentOut[] = [];
  const r = new Rng(`crew:${p.id}`);
  const role = p.slot.role;
  const c = p.country;
  // Name (unique across the data set)
  let name = '';
  let given = '';
  let family = '';
  for (let attempt = 0; attempt < 100 && (name === '' || usedNames.has(name)); attempt++) {
    if (c.full) {
      name = r.pick(c.full).split('|')[0]!;
      const parts = name.split(' ');
      given = parts.slice(0, -1).join(' ');
      family = parts[parts.length - 1]!;
    } else {
      const [g, sex] = r.pick(c.first).split('|') as [string, string | undefined];
      const surnames = r.pick(c.last).split('|');
      const surname = sex === 'F' && surnames[1] ? surnames[1] : surnames[0]!;
      given = g;
      family = surname;
      name = c.familyFirst ? `${surname} ${g}` : `${g} ${surname}`;
    }
  }
  if (usedNames.has(name)) throw new Error(`no unused name left for ${c.code}`);
  usedNames.add(name);
  // Age, experience
  const [amin, amax] = PEOPLE.ages[role] ?? [25, 45];
  const age = r.int(amin, amax);
  const dob = addDays(addYears(REF, -age), -r.int(0, 364));
  const years = Math.max(0, Math.min(age - 18 - r.int(0, 3), 45));
  // Email (unique, some mixed case)
  const ascii = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/ł/g, 'l')
      .replace(/Ł/g, 'L')
      .replace(/ı/g, 'i')
      .replace(/[^A-Za-z]/g, '');
  const domain = r.pick(PEOPLE.email_domains);
  const g = ascii(given);
  const f = ascii(family);
  const suffix = emails.has(`${g}.${f}@${domain}`.toLowerCase()) ? p.num.slice(2) : '';
  const lowerEmail = `${g}.${f}${suffix}@${domain}`.toLowerCase();
  emails.add(lowerEmail);
  // Every sixth address is stored in mixed case (the lookup is case-insensitive).
  const email = i % 6 === 2 ? `${g}.${f}${suffix}@${domain.charAt(0).toUpperCase()}${domain.slice(1)}` : lowerEmail;
  // Contact, address
  const res = p.residence;
  const phone = `+${res.dial}${drawPattern(res.phone_pattern, r)}`;
  const [city, region, postal] = r.pick(res.cities);
  const noStreet = i % 8 === 5;
  const address = {
    line1: noStreet ? null : res.house_number_first ? `${r.int(1, 240)} ${r.pick(res.streets)}` : `${r.pick(res.streets)} ${r.int(1, 120)}`,
    line2: !noStreet && r.chance(0.2) ? r.pick(PEOPLE.address_line2) : null,
    city,
    region,
    postal_code: postal,
    country_code: res.code,
  };
  // Passport, visas
  const passportIssue = addDays(REF, -r.int(200, 3300));
  let passportExpiry = addYears(passportIssue, 10);
  if (i % 17 === 9) passportExpiry = addDays(REF, r.int(5, 28)); // renewal due soon
  const passport = { number: drawPattern(c.passport_pattern, r), issuing_country: c.code, expiry_date: passportExpiry };
  const visas: CrewOut['visas'] = [];
  if (r.chance(0.45)) {
    const exp = i % 11 === 4 ? addDays(REF, -r.int(20, 200)) : addDays(REF, r.int(60, 1500));
    visas.push({ type: 'C1/D crew visa', country_code: 'US', number: `${r.digits(8)}`, expiry_date: exp });
  }
  if (r.chance(0.3))
    visas.push({
      type: 'Schengen C (seafarer)',
      country_code: r.pick(PEOPLE.schengen_countries),
      number: `${r.letters(3)}${r.digits(6)}`,
      expiry_date: addDays(REF, r.int(30, 900)),
    });
  if (r.chance(0.15))
    visas.push({ type: 'Maritime Crew Visa', country_code: 'AU', number: `MCV${r.digits(7)}`, expiry_date: addDays(REF, r.int(90, 1000)) });
  // Assignments
  for (const a of p.assignments) {
    const daysAgo =
      a.status === 'invited'
        ? r.int(2, 20)
        : a.status === 'active'
          ? r.int(15, 190)
          : a.status === 'on_leave'
            ? r.int(30, 140)
            : r.int(200, 420);
    assignments.push({
      assignment_id: `asg_${p.id}_${a.vessel.vessel_id}`,
      crew_unique_id: p.id,
      vessel_id: a.vessel.vessel_id,
      role: a.role,
      position_name: PEOPLE.positions[a.role] ?? null,
      status: a.status,
      as_of: stamp(addDays(REF, -daysAgo), r),
    });
  }
  // Employment history: earlier contracts (some verified), then the current employer.
  const history: CrewOut['employment_history'] = [];
  let end = addDays(REF, -r.int(150, 420));
  const earlier = years < 2 ? 0 : r.int(1, 3);
  for (let k = 0; k < earlier; k++) {
    const start = addDays(end, -r.int(150, 300));
    history.unshift({
      employer_name: r.pick(PEOPLE.previous_employers),
      vessel_name: r.chance(0.85) ? r.pick(PEOPLE.previous_vessels) : null,
      role: k === 0 ? role : (PEOPLE.junior_roles[role] ?? role),
      start_date: start,
      end_date: end,
      source: r.chance(0.4) ? 'employer_verified' : 'self_reported',
    });
    end = addDays(start, -r.int(30, 120));
  }
  const current =
    p.assignments.find((a) => a.status !== 'invited' && a.status !== 'signed_off') ?? p.assignments.find((a) => a.status === 'signed_off');
  if (current) {
    const start = assignments.find((a) => a.crew_unique_id === p.id && a.vessel_id === current.vessel.vessel_id)!.as_of.slice(0, 10);
    history.push({
      employer_name: EMPLOYERS.find((e) => e.employer_id === current.vessel.employer_id)!.name,
      vessel_name: current.vessel.vessel_name,
      role: current.role,
      start_date: start,
      end_date: current.status === 'signed_off' ? addDays(start, r.int(120, 180)) : null,
      source: current.status === 'signed_off' || r.chance(0.7) ? 'employer_verified' : 'self_reported',
    });
  }
  const skills = r.sample(PEOPLE.skills[skillSet(role)]!, r.int(2, 4));
  const langs = [...c.languages];
  if (r.chance(0.15)) langs.push(r.pick(PEOPLE.extra_languages.filter((l) => !langs.includes(l))));
  const position = PEOPLE.positions[role] ?? role;
  const vesselWord = p.vessel ? p.vessel.vessel_type.replace(/_/g, ' ') : 'merchant';
  const bio =
    i % 13 === 7
      ? null
      : `${position} from ${city}, ${c.name}, with ${years} year${years === 1 ? '' : 's'} at sea, mostly on ${vesselWord} vessels. ${r.pick(PEOPLE.bio_closings)}`;
  const person: CrewOut = {
    crew_unique_id: p.id,
    name,
    rank: PEOPLE.positions[role] ?? null,
    email: i % 29 === 28 ? null : email,
    phone,
    country_code: res.code,
    nationality: c.code,
    languages: langs,
    skills,
    years_experience: years,
    bio,
    date_of_birth: dob,
    address,
    passport,
    visas,
    employment_history: history,
    photo: i % 5 === 3 || i % 7 === 6 ? null : PHOTOS[i % PHOTOS.length]!,
    verification_status: PEOPLE.verification_cycle[i % PEOPLE.verification_cycle.length]!,
    background_check_status: PEOPLE.background_cycle[i % PEOPLE.background_cycle.length]!,
    profile_updated_at: stamp(addDays(REF, -r.int(1, 240)), r),
  };
  return { person, assignments };
}
