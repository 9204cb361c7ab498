/**
 * Issuing the documents of one crew member: `make` writes one document, `certificate` the current
 * edition of a requirement key plus the extra copies (superseded, duplicate, rejected, …) that the
 * slot's faults ask for. Every draw comes from the crew member's own document stream, in order.
 */
import { addDays, addYears, REF, Rng, stamp, minDate } from './random.ts';
import { FLAG_ADMIN } from './tables.ts';
import type { CapacityOut, CrewPlan, DocOut, ProcessingState, Slot, Template } from './types.ts';

const TAXONOMY = '2026.1';

/** A slot's faults `kind:key` as key → kinds; faults without a key sit under ''. */
export function faultsOf(slot: Slot): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const f of slot.faults ?? []) {
    const [kind, key = ''] = f.split(':');
    if (!m.has(key)) m.set(key, new Set());
    m.get(key)!.add(kind!);
  }
  return m;
}

export interface Opts {
  idSuffix: string;
  template: Template;
  title?: string;
  issue: string | null;
  expiry: string | null;
  noExpiry: boolean;
  verification?: DocOut['verification_status'];
  review?: DocOut['review_status'];
  state?: ProcessingState;
  isCurrent?: boolean;
  isLive?: boolean;
  supersededBy?: string | null;
  flag?: string | null;
  caps?: CapacityOut[];
  reg?: string | null;
  level?: string | null;
  number?: string | null;
  issuer?: string | null;
  file?: string | null;
  sources?: string[];
}

export type DocumentMaker = ReturnType<typeof documentMaker>;

export function documentMaker(p: CrewPlan, index: number) {
  const r = new Rng(`docs:${p.id}`);
  const slot = p.slot;
  const role = slot.role;
  const faults = faultsOf(slot);
  const has = (kind: string, key: string) => faults.get(key)?.has(kind) ?? false;
  const global = faults.get('') ?? new Set<string>();
  const capVariant = [...faults.entries()].find(([, kinds]) => kinds.has('cap'))?.[0] ?? null;
  const nat = p.country;
  const out: DocOut[] = [];
  const usedIds = new Set<string>();

  const issuerOf = (t: Template, flag?: string): string | null => {
    switch (t.issuer) {
      case 'training':
        return r.pick(nat.training);
      case 'clinic':
        return r.pick(nat.clinics);
      case 'admin':
        return nat.maritimeAdmin;
      case 'passport':
        return nat.passportAuthority;
      case 'flag':
        return FLAG_ADMIN[flag ?? ''] ?? null;
      case 'company':
        return null;
    }
  };

  const docNumber = (t: Template, issue: string | null): string => {
    const y = (issue ?? REF).slice(2, 4);
    return `${nat.code}-${t.prefix}-${y}-${r.digits(6)}`;
  };

  const processedAt = (issue: string | null): string => {
    const base = issue && issue > addDays(REF, -700) ? issue : addDays(REF, -r.int(30, 700));
    const d = minDate(addDays(base, r.int(1, 40)), addDays(REF, -1));
    return stamp(d, r);
  };

  const make = (o: Opts): DocOut => {
    const id = `doc_${p.num}_${o.idSuffix}`;
    if (usedIds.has(id)) throw new Error(`duplicate document id ${id}`);
    usedIds.add(id);
    const t = o.template;
    const state = o.state ?? 'processed';
    const processed = state === 'processing' || state === 'placeholder' ? null : processedAt(o.issue);
    const updated = processed ?? stamp(addDays(REF, -r.int(1, 6)), r);
    const sources =
      o.sources ??
      (state === 'legacy'
        ? ['legacy_import']
        : state === 'placeholder'
          ? ['crew_declaration']
          : t.docClass === 'coc' || t.docClass === 'endorsement'
            ? ['document_scan', 'issuer_registry']
            : r.chance(0.15)
              ? ['document_scan', 'manual_entry']
              : ['document_scan']);
    const doc: DocOut = {
      document_id: id,
      crew_unique_id: p.id,
      type: t.type,
      category: t.category,
      title: o.title ?? t.title,
      issuer: o.issuer !== undefined ? o.issuer : index % 23 === 11 && r.chance(0.5) ? null : issuerOf(t, o.flag ?? undefined),
      verification_status:
        o.verification ?? (state === 'placeholder' || state === 'processing' || state === 'rejected' ? 'unverified' : 'verified'),
      review_status:
        o.review ?? (state === 'rejected' ? 'flagged' : state === 'processing' || state === 'placeholder' ? 'pending' : 'approved'),
      issue_date: o.issue,
      expiry_date: o.noExpiry ? null : o.expiry,
      no_expiry: o.noExpiry,
      document_number: o.number !== undefined ? o.number : state === 'placeholder' ? null : docNumber(t, o.issue),
      processing_state: state,
      is_current: o.isCurrent ?? true,
      is_live: o.isLive ?? true,
      superseded_by: o.supersededBy ?? null,
      classification: {
        taxonomy_version: TAXONOMY,
        document_class: t.docClass,
        category_code: t.code,
        catalogue_title: { id: `cat_${t.code}${t.refresher ? '_refresher' : ''}`, name: t.catalogueName },
        stcw_regulation: o.reg !== undefined ? o.reg : t.reg,
        stcw_codes: [...t.codes],
        level: o.level !== undefined ? o.level : t.level,
        is_refresher: t.refresher ?? false,
        flag_state: o.flag ?? null,
        coc_capacities: o.caps ?? [],
        sources,
      },
      file: o.file !== undefined ? o.file : state === 'placeholder' ? null : t.file,
      processed_at: processed,
      updated_at: updated,
    };
    out.push(doc);
    return doc;
  };

  /** Dates of a current edition for a fault key. */
  const datesFor = (key: string, t: Template): { issue: string; expiry: string | null; noExpiry: boolean } => {
    const validity = t.validity ?? 5;
    const span = (exp: string) => ({ issue: addYears(exp, -validity), expiry: exp, noExpiry: false });
    if (has('exp', key)) return span(addDays(REF, -r.int(12, 320)));
    if (has('soon30', key)) return span(addDays(REF, r.int(4, 27)));
    if (has('soon90', key)) return span(addDays(REF, r.int(40, 84)));
    if (has('noexp', key)) return { issue: addDays(REF, -r.int(100, 900)), expiry: null, noExpiry: false };
    if (t.validity === null) return { issue: addDays(REF, -r.int(200, 4000)), expiry: null, noExpiry: true };
    const maxAhead = Math.max(130, t.validity * 365 - 25);
    return span(addDays(REF, r.int(125, maxAhead)));
  };

  /** The current edition of one requirement key, plus the extra copies its faults ask for. */
  const certificate = (key: string, t: Template, extra: Partial<Opts> = {}, suffix = key): DocOut | null => {
    if (has('missing', key)) return null;
    const d = datesFor(key, t);
    const onlyState: ProcessingState | undefined = has('rejectedonly', key)
      ? 'rejected'
      : has('placeholder', key)
        ? 'placeholder'
        : has('processingonly', key)
          ? 'processing'
          : has('legacyonly', key)
            ? 'legacy'
            : undefined;
    const placeholder = onlyState === 'placeholder';
    const main = make({
      idSuffix: suffix,
      template: t,
      ...d,
      ...(placeholder ? { issue: null, expiry: null, noExpiry: false, title: `${extra.title ?? t.title} (placeholder)` } : {}),
      verification: has('unverified', key) ? 'unverified' : has('verifpending', key) ? 'pending' : undefined,
      review: has('review', key) ? 'pending' : undefined,
      state: onlyState,
      isLive: has('withdrawnonly', key) ? false : undefined,
      ...extra,
      ...(placeholder ? { title: `${extra.title ?? t.title} (placeholder)` } : {}),
    });
    const validity = t.validity ?? 5;
    if (has('super', key) || has('super2', key)) {
      // Older editions, each replaced by the next one.
      const editions = has('super2', key) ? 2 : 1;
      let next = main;
      for (let e = 1; e <= editions; e++) {
        const issue = addYears(main.issue_date ?? addDays(REF, -400), -validity * e);
        const old = make({
          ...extra,
          idSuffix: `${suffix}_${issue.slice(0, 4)}`,
          template: t,
          issue,
          expiry: t.validity === null ? null : addDays(addYears(issue, validity), r.int(0, 20)),
          noExpiry: t.validity === null,
          isCurrent: false,
          supersededBy: next.document_id,
        });
        next = old;
      }
    }
    if (has('dup', key)) {
      make({
        ...extra,
        idSuffix: `${suffix}_dup`,
        template: t,
        issue: main.issue_date,
        expiry: main.expiry_date,
        noExpiry: main.no_expiry,
        number: main.document_number,
        issuer: main.issuer,
        state: 'duplicate',
      });
    }
    if (has('rejected', key)) {
      make({
        ...extra,
        idSuffix: `${suffix}_rejected`,
        template: t,
        issue: null,
        expiry: null,
        noExpiry: false,
        number: null,
        state: 'rejected',
        file: 'files/visa-scan.png',
      });
    }
    if (has('placeholder+', key)) {
      make({
        ...extra,
        idSuffix: `${suffix}_placeholder`,
        template: t,
        title: `${extra.title ?? t.title} (placeholder)`,
        issue: null,
        expiry: null,
        noExpiry: false,
        number: null,
        verification: 'unverified',
        review: 'pending',
        state: 'placeholder',
      });
    }
    if (has('processing', key)) {
      const issue = addDays(REF, -r.int(1, 6));
      make({
        ...extra,
        idSuffix: `${suffix}_renewal`,
        template: t,
        issue,
        expiry: t.validity === null ? null : addYears(issue, validity),
        noExpiry: t.validity === null,
        state: 'processing',
      });
    }
    if (has('legacy', key)) {
      const issue = addYears(main.issue_date ?? addDays(REF, -400), -validity);
      make({
        ...extra,
        idSuffix: `${suffix}_legacy`,
        template: t,
        issue,
        expiry: t.validity === null ? null : addYears(issue, validity),
        noExpiry: t.validity === null,
        state: 'legacy',
        review: 'approved',
      });
    }
    if (has('withdrawn', key)) {
      make({
        ...extra,
        idSuffix: `${suffix}_withdrawn`,
        template: t,
        issue: main.issue_date,
        expiry: main.expiry_date,
        noExpiry: main.no_expiry,
        isLive: false,
      });
    }
    return main;
  };
  return { r, slot, role, faults, has, global, capVariant, nat, out, make, datesFor, certificate };
}
