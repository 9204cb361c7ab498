/**
 * Generates the demo data set: `fixtures/demo.json` and the small real files it references under
 * `fixtures/files/` (minimal PDFs, PNG and JPEG images). Deterministic: a seeded PRNG, no clock;
 * every date is relative to the fixed reference date below. Run:
 *
 *   node --import tsx scripts/make-demo-fixtures.ts [--out DIR] [--summary]
 *
 * After writing, the output is checked (superstruct `FixtureFile`, references, identifiers, file
 * paths); any failure is printed and the exit code is 1. `--summary` prints the interesting cases
 * (document states, consents, expected compliance per assignment on the reference date).
 */
import { mkdirSync, rmSync, writeFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { validate } from 'superstruct';
import { FixtureFile } from '../src/services/fixtures/schema.ts';
import { imoWithCheckDigit, isValidImo, isValidMmsi } from '../src/domain/identifiers.ts';
import { ROLES } from '../src/domain/catalogue.ts';

export const REFERENCE_DATE = '2026-11-22';
const SEED = 0x5eac0de;
const TAXONOMY = '2026.1';

// ---------------------------------------------------------------------------------------------
// Deterministic randomness and dates

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

class Rng {
  private readonly next: () => number;
  constructor(label: string) { this.next = mulberry32((fnv1a(label) ^ SEED) >>> 0); }
  float(): number { return this.next(); }
  int(lo: number, hi: number): number { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  chance(p: number): boolean { return this.next() < p; }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }
  digits(n: number): string { let s = ''; for (let i = 0; i < n; i++) s += String(this.int(0, 9)); return s; }
  letters(n: number): string { let s = ''; for (let i = 0; i < n; i++) s += String.fromCharCode(65 + this.int(0, 25)); return s; }
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    const out: T[] = [];
    while (out.length < n && copy.length > 0) out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]!);
    return out;
  }
}

const DAY = 86_400_000;
function dayNum(d: string): number { return Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / DAY; }
function fromDayNum(n: number): string { return new Date(n * DAY).toISOString().slice(0, 10); }
function addDays(d: string, n: number): string { return fromDayNum(dayNum(d) + n); }
function addYears(d: string, n: number): string {
  const y = +d.slice(0, 4) + n;
  const md = d.slice(5) === '02-29' ? '02-28' : d.slice(5);
  return `${String(y).padStart(4, '0')}-${md}`;
}
function minDate(a: string, b: string): string { return a < b ? a : b; }
function stamp(d: string, rng: Rng): string {
  return `${d}T${String(rng.int(6, 19)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}Z`;
}
const REF = REFERENCE_DATE;

// ---------------------------------------------------------------------------------------------
// Tiny real files: PDF 1.4, PNG, baseline JPEG

function makePdf(title: string, lines: readonly string[]): Buffer {
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
  const body = [
    'BT', '/F1 16 Tf', '56 780 Td', `(${esc(title)}) Tj`, '/F1 10 Tf',
    ...lines.flatMap((l) => ['0 -18 Td', `(${esc(l)}) Tj`]), 'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Title (${esc(title)}) /Producer (svc scripts/make-demo-fixtures.ts) /CreationDate (D:20261122000000Z) >>`,
  ];
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

type Rgb = readonly [number, number, number];
type Painter = (x: number, y: number) => Rgb;

function makePng(width: number, height: number, paint: Painter): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw[row + 1 + x * 3] = r; raw[row + 2 + x * 3] = g; raw[row + 3 + x * 3] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A baseline JPEG whose 8x8 blocks are each one flat colour (DC coefficients only), so no DCT is
 * needed: quantiser 8 makes the DC coefficient equal the level-shifted sample value.
 */
function makeJpeg(blocksX: number, blocksY: number, blockColour: (bx: number, by: number) => Rgb): Buffer {
  const bytes: number[] = [];
  const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
  const segment = (marker: number, payload: number[]) => bytes.push(0xff, marker, ...u16(payload.length + 2), ...payload);
  bytes.push(0xff, 0xd8); // SOI
  segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, ...u16(1), ...u16(1), 0, 0]); // APP0 JFIF
  segment(0xdb, [0x00, ...new Array<number>(64).fill(8)]); // DQT 0, all 8
  const w = blocksX * 8;
  const h = blocksY * 8;
  segment(0xc0, [8, ...u16(h), ...u16(w), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]); // SOF0
  // Standard DC luminance table (ITU T.81 K.3); a two-symbol AC table (EOB = 00).
  const dcBits = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
  const dcVals = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const acBits = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const acVals = [0x00, 0x01];
  segment(0xc4, [0x00, ...dcBits, ...dcVals, 0x10, ...acBits, ...acVals]);
  segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]); // SOS
  const codes = (bits: number[], vals: number[]) => {
    const table = new Map<number, { code: number; len: number }>();
    let code = 0;
    let k = 0;
    for (let len = 1; len <= 16; len++) {
      for (let i = 0; i < bits[len - 1]!; i++) table.set(vals[k++]!, { code: code++, len });
      code <<= 1;
    }
    return table;
  };
  const dc = codes(dcBits, dcVals);
  const ac = codes(acBits, acVals);
  let acc = 0;
  let nbits = 0;
  const put = (value: number, len: number) => {
    for (let i = len - 1; i >= 0; i--) {
      acc = (acc << 1) | ((value >> i) & 1);
      nbits++;
      if (nbits === 8) {
        bytes.push(acc);
        if (acc === 0xff) bytes.push(0x00);
        acc = 0;
        nbits = 0;
      }
    }
  };
  const prev = [0, 0, 0];
  for (let by = 0; by < blocksY; by++) {
    for (let bx = 0; bx < blocksX; bx++) {
      const [r, g, b] = blockColour(bx, by);
      const ycc = [
        0.299 * r + 0.587 * g + 0.114 * b,
        128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
        128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
      ].map((v) => Math.round(Math.min(255, Math.max(0, v))) - 128);
      for (let c = 0; c < 3; c++) {
        const diff = ycc[c]! - prev[c]!;
        prev[c] = ycc[c]!;
        const mag = Math.abs(diff);
        const cat = mag === 0 ? 0 : Math.floor(Math.log2(mag)) + 1;
        const hc = dc.get(cat)!;
        put(hc.code, hc.len);
        if (cat > 0) put(diff > 0 ? diff : diff + (1 << cat) - 1, cat);
        const eob = ac.get(0x00)!;
        put(eob.code, eob.len);
      }
    }
  }
  if (nbits > 0) put((1 << (8 - nbits)) - 1, 8 - nbits);
  bytes.push(0xff, 0xd9); // EOI
  return Buffer.from(bytes);
}

/** A small avatar: background, head and shoulders. */
function avatarPainter(bg: Rgb, skin: Rgb, shirt: Rgb, size: number): Painter {
  return (x, y) => {
    const cx = size / 2 - 0.5;
    const head = (x - cx) ** 2 + (y - size * 0.38) ** 2 <= (size * 0.2) ** 2;
    const body = y >= size * 0.68 && Math.abs(x - cx) <= size * 0.36 - (size - y) * 0.15;
    return head ? skin : body ? shirt : bg;
  };
}

interface GeneratedFile { path: string; bytes: Buffer }

function buildFiles(): GeneratedFile[] {
  const pdf = (name: string, title: string, what: string) => ({
    path: `files/${name}`,
    bytes: makePdf(title, [
      `Sample ${what} for the svc demo data set.`,
      'Not a real document: generated by scripts/make-demo-fixtures.ts.',
      `Reference date ${REF}.`,
    ]),
  });
  const files: GeneratedFile[] = [
    pdf('medical-fitness-certificate.pdf', 'Medical Fitness Certificate for Seafarers', 'medical fitness certificate (STCW I/9, MLC 2006)'),
    pdf('drug-alcohol-test.pdf', 'Drug and Alcohol Test Certificate', 'drug and alcohol test result'),
    pdf('basic-safety-training.pdf', 'Basic Safety Training (STCW A-VI/1)', 'STCW basic safety training certificate'),
    pdf('stcw-training-certificate.pdf', 'STCW Training Certificate', 'STCW training certificate (Chapter V / VI course)'),
    pdf('certificate-of-competency.pdf', 'Certificate of Competency', 'certificate of competency (STCW Chapter II / III)'),
    pdf('gmdss-goc.pdf', 'GMDSS General Operator\'s Certificate', 'GMDSS general operator\'s certificate (STCW IV/2)'),
    pdf('flag-endorsement.pdf', 'Endorsement Attesting Recognition of a Certificate', 'flag state endorsement (STCW I/10)'),
    pdf('certificate-of-proficiency.pdf', 'Certificate of Proficiency', 'rating certificate of proficiency (STCW II/4, II/5, III/4, III/5)'),
    pdf('training-record.pdf', 'Training Course Certificate', 'company training course certificate (ECDIS, BRM, ERM, ship\'s cook)'),
    pdf('seaman-book.pdf', 'Seaman\'s Book', 'seafarer\'s identity and record book'),
    pdf('sea-service-testimonial.pdf', 'Sea Service Testimonial', 'sea service testimonial'),
    { path: 'files/passport-scan.jpg', bytes: makeJpeg(4, 3, (bx, by) => (by === 1 && bx === 0 ? [196, 160, 130] : by === 0 ? [32, 64, 128] : [228, 232, 236])) },
    { path: 'files/visa-scan.png', bytes: makePng(24, 16, (x, y) => (y < 4 ? [20, 60, 140] : x < 8 && y > 6 ? [190, 150, 120] : [240, 240, 232])) },
    { path: 'files/photos/crew-photo-1.jpg', bytes: makeJpeg(4, 4, (bx, by) => (by >= 1 && by <= 2 && bx >= 1 && bx <= 2 ? [214, 170, 140] : by === 3 ? [28, 52, 96] : [160, 190, 215])) },
    { path: 'files/photos/crew-photo-2.jpg', bytes: makeJpeg(4, 4, (bx, by) => (by >= 1 && by <= 2 && bx >= 1 && bx <= 2 ? [150, 105, 75] : by === 3 ? [180, 40, 40] : [220, 220, 210])) },
    { path: 'files/photos/avatar-blue.png', bytes: makePng(32, 32, avatarPainter([70, 120, 190], [226, 185, 150], [20, 40, 80], 32)) },
    { path: 'files/photos/avatar-green.png', bytes: makePng(32, 32, avatarPainter([90, 160, 110], [170, 120, 90], [240, 240, 240], 32)) },
    { path: 'files/photos/avatar-orange.png', bytes: makePng(32, 32, avatarPainter([230, 140, 60], [120, 80, 55], [40, 40, 40], 32)) },
    { path: 'files/photos/avatar-grey.png', bytes: makePng(16, 16, () => [150, 150, 150]) },
  ];
  return files;
}

const PHOTOS = [
  'files/photos/crew-photo-1.jpg', 'files/photos/avatar-blue.png', 'files/photos/avatar-green.png',
  'files/photos/crew-photo-2.jpg', 'files/photos/avatar-orange.png', 'files/photos/avatar-grey.png',
];

// ---------------------------------------------------------------------------------------------
// Reference data: countries

interface Country {
  code: string;
  name: string;
  dial: string;
  nsn: (r: Rng) => string;
  languages: string[];
  /** "Name" (either), "Name|M", "Name|F". */
  first: string[];
  /** "Surname" or "Male|Female". */
  last: string[];
  familyFirst?: boolean;
  /** Complete names, for naming traditions without family names. */
  full?: string[];
  cities: Array<[city: string, region: string, postal: string]>;
  streets: string[];
  passport: (r: Rng) => string;
  passportAuthority: string;
  maritimeAdmin: string;
  training: string[];
  clinics: string[];
}

const COUNTRIES: Record<string, Country> = {
  PH: {
    code: 'PH', name: 'Philippines', dial: '63', nsn: (r) => `9${r.int(15, 99)}${r.digits(7)}`,
    languages: ['Filipino', 'English'],
    first: ['Juan|M', 'Jose|M', 'Mark Anthony|M', 'Rodel|M', 'Jerome|M', 'Ricardo|M', 'Arnel|M', 'Jonathan|M', 'Ramil|M', 'Maria|F', 'Cristina|F', 'Rowena|F', 'Noel|M', 'Edwin|M'],
    last: ['Dela Cruz', 'Santos', 'Reyes', 'Bautista', 'Mendoza', 'Villanueva', 'Aquino', 'Garcia', 'Castillo', 'Ramos', 'Manalo', 'Domingo', 'Navarro', 'Pascual'],
    cities: [['Manila', 'Metro Manila', '1000'], ['Iloilo City', 'Iloilo', '5000'], ['Cebu City', 'Cebu', '6000'], ['Davao City', 'Davao del Sur', '8000'], ['Batangas City', 'Batangas', '4200']],
    streets: ['Rizal Avenue', 'Mabini Street', 'Bonifacio Street', 'Quezon Boulevard', 'Luna Street'],
    passport: (r) => `P${r.digits(7)}${r.letters(1)}`,
    passportAuthority: 'Department of Foreign Affairs, Philippines',
    maritimeAdmin: 'Maritime Industry Authority (MARINA)',
    training: ['Manila Bay Maritime Training Center', 'Visayas Maritime Academy Training Unit', 'Pacific Seafarers Training Institute'],
    clinics: ['Harbour Medical Clinic, Manila', 'Seafarers Diagnostic Center, Cebu'],
  },
  IN: {
    code: 'IN', name: 'India', dial: '91', nsn: (r) => `${r.pick(['9', '8', '7'])}${r.digits(9)}`,
    languages: ['Hindi', 'English'],
    first: ['Rahul|M', 'Arjun|M', 'Vikram|M', 'Sandeep|M', 'Rohan|M', 'Anil|M', 'Deepak|M', 'Sunil|M', 'Priya|F', 'Kavita|F', 'Rajesh|M', 'Manoj|M'],
    last: ['Sharma', 'Nair', 'Singh', 'Iyer', 'Patel', 'Menon', 'Das', 'Kumar', 'Pillai', 'Rao', 'Fernandes', 'Gupta'],
    cities: [['Mumbai', 'Maharashtra', '400001'], ['Kochi', 'Kerala', '682001'], ['Chennai', 'Tamil Nadu', '600001'], ['Kolkata', 'West Bengal', '700001']],
    streets: ['Marine Drive', 'MG Road', 'Nehru Nagar', 'Gandhi Road', 'Station Road'],
    passport: (r) => `${r.letters(1)}${r.digits(7)}`,
    passportAuthority: 'Ministry of External Affairs, India',
    maritimeAdmin: 'Directorate General of Shipping, India',
    training: ['Western India Maritime Training Institute', 'Kochi Nautical Academy', 'Coromandel Marine Training Centre'],
    clinics: ['DG Approved Medical Centre, Mumbai', 'Seaport Health Clinic, Kochi'],
  },
  UA: {
    code: 'UA', name: 'Ukraine', dial: '380', nsn: (r) => `${r.pick(['50', '67', '63', '97'])}${r.digits(7)}`,
    languages: ['Ukrainian', 'English', 'Russian'],
    first: ['Oleksandr|M', 'Andrii|M', 'Serhii|M', 'Dmytro|M', 'Mykola|M', 'Ihor|M', 'Vitalii|M', 'Yuliia|F', 'Olena|F', 'Bohdan|M', 'Volodymyr|M'],
    last: ['Kovalenko', 'Shevchenko', 'Bondarenko', 'Tkachenko', 'Melnyk', 'Kravchenko', 'Oliinyk', 'Boiko', 'Savchenko', 'Rudenko'],
    cities: [['Odesa', 'Odesa Oblast', '65000'], ['Mykolaiv', 'Mykolaiv Oblast', '54000'], ['Izmail', 'Odesa Oblast', '68600'], ['Kherson', 'Kherson Oblast', '73000']],
    streets: ['Derybasivska Street', 'Frantsuzkyi Boulevard', 'Morska Street', 'Shevchenko Avenue'],
    passport: (r) => `F${r.letters(1)}${r.digits(6)}`,
    passportAuthority: 'State Migration Service of Ukraine',
    maritimeAdmin: 'Maritime Administration of Ukraine',
    training: ['Black Sea Maritime Training Centre', 'Odesa Crewing Academy'],
    clinics: ['Marine Medical Centre, Odesa', 'Port Polyclinic, Izmail'],
  },
  PL: {
    code: 'PL', name: 'Poland', dial: '48', nsn: (r) => `${r.pick(['5', '6', '7'])}${r.digits(8)}`,
    languages: ['Polish', 'English'],
    first: ['Piotr|M', 'Tomasz|M', 'Krzysztof|M', 'Marek|M', 'Paweł|M', 'Łukasz|M', 'Anna|F', 'Katarzyna|F', 'Michał|M', 'Grzegorz|M'],
    last: ['Nowak', 'Kowalski|Kowalska', 'Wiśniewski|Wiśniewska', 'Wójcik', 'Kamiński|Kamińska', 'Lewandowski|Lewandowska', 'Zieliński|Zielińska', 'Szymański|Szymańska'],
    cities: [['Gdynia', 'Pomorskie', '81-300'], ['Szczecin', 'Zachodniopomorskie', '70-001'], ['Gdańsk', 'Pomorskie', '80-001']],
    streets: ['ul. Świętojańska', 'ul. Portowa', 'ul. Morska', 'ul. Długa'],
    passport: (r) => `E${r.letters(1)}${r.digits(7)}`,
    passportAuthority: 'Voivode of Pomorskie, Poland',
    maritimeAdmin: 'Maritime Office in Gdynia (Urząd Morski w Gdyni)',
    training: ['Baltic Maritime Training Centre, Gdynia', 'Szczecin Maritime Academy Training Centre'],
    clinics: ['Maritime Medicine Centre, Gdynia', 'Port Medical Clinic, Szczecin'],
  },
  NO: {
    code: 'NO', name: 'Norway', dial: '47', nsn: (r) => `${r.pick(['4', '9'])}${r.digits(7)}`,
    languages: ['Norwegian', 'English'],
    first: ['Lars|M', 'Erik|M', 'Kristian|M', 'Magnus|M', 'Ole|M', 'Håkon|M', 'Sindre|M', 'Ingrid|F', 'Kari|F', 'Eirik|M', 'Torstein|M'],
    last: ['Hansen', 'Johansen', 'Olsen', 'Larsen', 'Andersen', 'Berg', 'Haugen', 'Solberg', 'Nilsen', 'Eide'],
    cities: [['Bergen', 'Vestland', '5003'], ['Ålesund', 'Møre og Romsdal', '6002'], ['Haugesund', 'Rogaland', '5501'], ['Stavanger', 'Rogaland', '4006']],
    streets: ['Strandgata', 'Kirkegata', 'Havnegata', 'Skansegata'],
    passport: (r) => `${r.letters(2)}${r.digits(7)}`,
    passportAuthority: 'Norwegian Police',
    maritimeAdmin: 'Norwegian Maritime Authority',
    training: ['Vestland Maritime Safety Centre', 'Rogaland Offshore Training'],
    clinics: ['Bergen Sjømannslege', 'Haugesund Maritime Health Centre'],
  },
  GR: {
    code: 'GR', name: 'Greece', dial: '30', nsn: (r) => `69${r.int(0, 9)}${r.digits(7)}`,
    languages: ['Greek', 'English'],
    first: ['Georgios|M', 'Dimitrios|M', 'Konstantinos|M', 'Ioannis|M', 'Nikolaos|M', 'Panagiotis|M', 'Christos|M', 'Eleni|F', 'Maria|F', 'Vasileios|M'],
    last: ['Papadopoulos|Papadopoulou', 'Georgiou', 'Pappas|Pappa', 'Vlachos|Vlachou', 'Nikolaidis|Nikolaidou', 'Karagiannis|Karagianni', 'Oikonomou', 'Makris|Makri', 'Lemos|Lemou'],
    cities: [['Piraeus', 'Attica', '185 31'], ['Chios', 'North Aegean', '821 00'], ['Andros', 'South Aegean', '845 00'], ['Thessaloniki', 'Central Macedonia', '546 21']],
    streets: ['Akti Miaouli', 'Odos Ermou', 'Leoforos Vasileos Georgiou', 'Odos Kolokotroni'],
    passport: (r) => `A${r.letters(1)}${r.digits(7)}`,
    passportAuthority: 'Hellenic Police, Passport Directorate',
    maritimeAdmin: 'Hellenic Ministry of Maritime Affairs and Insular Policy',
    training: ['Piraeus Marine Training Centre', 'Aegean Seafarers Academy'],
    clinics: ['Piraeus Seafarers Medical Centre', 'Chios Marine Health'],
  },
  ID: {
    code: 'ID', name: 'Indonesia', dial: '62', nsn: (r) => `8${r.int(11, 59)}${r.digits(r.int(7, 8))}`,
    languages: ['Indonesian', 'English'],
    first: ['Budi|M', 'Agus|M', 'Rizky|M', 'Hendra|M', 'Eko|M', 'Putu|M', 'Wahyu|M', 'Dewi|F', 'Fajar|M', 'Arif|M'],
    last: ['Santoso', 'Wijaya', 'Saputra', 'Hidayat', 'Pratama', 'Setiawan', 'Nugroho', 'Gunawan', 'Kurniawan'],
    cities: [['Jakarta', 'DKI Jakarta', '10110'], ['Surabaya', 'East Java', '60111'], ['Semarang', 'Central Java', '50111'], ['Makassar', 'South Sulawesi', '90111']],
    streets: ['Jalan Merdeka', 'Jalan Pelabuhan', 'Jalan Sudirman', 'Jalan Diponegoro'],
    passport: (r) => `${r.pick(['A', 'B', 'C', 'X'])}${r.digits(7)}`,
    passportAuthority: 'Directorate General of Immigration, Indonesia',
    maritimeAdmin: 'Directorate General of Sea Transportation, Indonesia',
    training: ['Tanjung Priok Maritime Training Centre', 'Surabaya Seafarers Polytechnic Training Unit'],
    clinics: ['Port Health Clinic, Tanjung Priok', 'Surabaya Seafarer Medical Centre'],
  },
  HR: {
    code: 'HR', name: 'Croatia', dial: '385', nsn: (r) => `9${r.pick(['1', '2', '5', '8', '9'])}${r.digits(7)}`,
    languages: ['Croatian', 'English', 'Italian'],
    first: ['Ivan|M', 'Marko|M', 'Ante|M', 'Josip|M', 'Luka|M', 'Tomislav|M', 'Mario|M', 'Ana|F', 'Petra|F'],
    last: ['Horvat', 'Kovačević', 'Babić', 'Marić', 'Jurić', 'Novak', 'Perić', 'Matić', 'Radić'],
    cities: [['Rijeka', 'Primorje-Gorski Kotar', '51000'], ['Split', 'Split-Dalmatia', '21000'], ['Zadar', 'Zadar County', '23000']],
    streets: ['Korzo', 'Riva', 'Ulica Ivana Gundulića', 'Obala kralja Petra Krešimira IV'],
    passport: (r) => r.digits(9),
    passportAuthority: 'Ministry of the Interior, Croatia',
    maritimeAdmin: 'Ministry of the Sea, Transport and Infrastructure, Croatia',
    training: ['Adriatic Maritime Training Centre, Rijeka', 'Split Nautical Training Centre'],
    clinics: ['Rijeka Maritime Medicine Polyclinic', 'Split Seafarers Health Centre'],
  },
  RO: {
    code: 'RO', name: 'Romania', dial: '40', nsn: (r) => `7${r.int(2, 9)}${r.digits(7)}`,
    languages: ['Romanian', 'English'],
    first: ['Andrei|M', 'Mihai|M', 'Ionuț|M', 'Alexandru|M', 'Cristian|M', 'Florin|M', 'Gabriel|M', 'Elena|F', 'Ioana|F'],
    last: ['Popescu', 'Ionescu', 'Constantin', 'Stan', 'Dumitru', 'Marin', 'Stoica', 'Munteanu'],
    cities: [['Constanța', 'Constanța', '900001'], ['Galați', 'Galați', '800001'], ['Mangalia', 'Constanța', '905500']],
    streets: ['Bulevardul Tomis', 'Strada Traian', 'Bulevardul Mamaia', 'Strada Portului'],
    passport: (r) => `0${r.digits(8)}`,
    passportAuthority: 'Directorate General of Passports, Romania',
    maritimeAdmin: 'Romanian Naval Authority',
    training: ['Constanța Maritime Training Centre', 'Danube Seafarers Training Institute'],
    clinics: ['Constanța Maritime Medical Clinic', 'Galați Port Medical Centre'],
  },
  CN: {
    code: 'CN', name: 'China', dial: '86', nsn: (r) => `1${r.pick(['3', '5', '8'])}${r.digits(9)}`,
    languages: ['Mandarin', 'English'],
    first: ['Wei|M', 'Jun|M', 'Lei|M', 'Hao|M', 'Ming|M', 'Jian|M', 'Yan|F', 'Xiaoling|F', 'Zhiqiang|M'],
    last: ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Zhao', 'Huang', 'Zhou'],
    familyFirst: true,
    cities: [['Shanghai', 'Shanghai', '200120'], ['Dalian', 'Liaoning', '116001'], ['Qingdao', 'Shandong', '266001']],
    streets: ['Binhai Road', 'Zhongshan Road', 'Haigang Road', 'Gangwan Street'],
    passport: (r) => `E${r.digits(8)}`,
    passportAuthority: 'National Immigration Administration, China',
    maritimeAdmin: 'Maritime Safety Administration of the P.R. China',
    training: ['Dalian Seafarers Training Centre', 'Shanghai Maritime Training Institute'],
    clinics: ['Dalian Port Hospital Seafarers Clinic', 'Shanghai International Travel Healthcare Center'],
  },
  MM: {
    code: 'MM', name: 'Myanmar', dial: '95', nsn: (r) => `9${r.digits(9)}`,
    languages: ['Burmese', 'English'],
    first: [], last: [],
    full: ['Aung Kyaw Moe|M', 'Zaw Min Htet|M', 'Kyaw Zin Oo|M', 'Thant Zin Aung|M', 'Htet Aung Lin|M', 'Myo Min Tun|M', 'Nay Lin Soe|M', 'Khin Thandar Win|F', 'Min Thu Kyaw|M'],
    cities: [['Yangon', 'Yangon Region', '11181'], ['Mandalay', 'Mandalay Region', '05021'], ['Mawlamyine', 'Mon State', '12011']],
    streets: ['Strand Road', 'Bogyoke Aung San Road', 'Pansodan Street', 'Kaba Aye Pagoda Road'],
    passport: (r) => `M${r.letters(1)}${r.digits(6)}`,
    passportAuthority: 'Ministry of Home Affairs, Myanmar',
    maritimeAdmin: 'Department of Marine Administration, Myanmar',
    training: ['Yangon Maritime Training Centre', 'Myanmar Mercantile Marine Training Unit'],
    clinics: ['Yangon Seafarers Medical Clinic', 'Thilawa Port Health Centre'],
  },
  LV: {
    code: 'LV', name: 'Latvia', dial: '371', nsn: (r) => `2${r.digits(7)}`,
    languages: ['Latvian', 'English', 'Russian'],
    first: ['Jānis|M', 'Andris|M', 'Māris|M', 'Edgars|M', 'Kristaps|M', 'Artūrs|M', 'Ilze|F'],
    last: ['Bērziņš|Bērziņa', 'Kalniņš|Kalniņa', 'Ozoliņš|Ozoliņa', 'Liepa', 'Krūmiņš|Krūmiņa', 'Zariņš|Zariņa'],
    cities: [['Riga', 'Riga', 'LV-1050'], ['Liepāja', 'Liepāja', 'LV-3401'], ['Ventspils', 'Ventspils', 'LV-3601']],
    streets: ['Brīvības iela', 'Krasta iela', 'Ostas iela', 'Tērbatas iela'],
    passport: (r) => `LV${r.digits(7)}`,
    passportAuthority: 'Office of Citizenship and Migration Affairs, Latvia',
    maritimeAdmin: 'Maritime Administration of Latvia',
    training: ['Riga Maritime Training Centre', 'Latvian Maritime Academy Training Centre'],
    clinics: ['Riga Port Medical Centre', 'Liepāja Seafarers Clinic'],
  },
  GB: {
    code: 'GB', name: 'United Kingdom', dial: '44', nsn: (r) => `7${r.int(400, 999)}${r.digits(6)}`,
    languages: ['English'],
    first: ['James|M', 'Thomas|M', 'Oliver|M', 'Daniel|M', 'William|M', 'Callum|M', 'Sarah|F', 'Emma|F', 'Rhys|M'],
    last: ['Smith', 'Jones', 'Taylor', 'Brown', 'Wilson', 'Evans', 'Roberts', 'MacLeod', 'O\'Brien'],
    cities: [['Southampton', 'Hampshire', 'SO14 2AQ'], ['Liverpool', 'Merseyside', 'L3 4AQ'], ['Aberdeen', 'Aberdeenshire', 'AB11 5NP'], ['Plymouth', 'Devon', 'PL1 2AA']],
    streets: ['Harbour Parade', 'Dock Street', 'Marine Terrace', 'Quayside Road'],
    passport: (r) => r.digits(9),
    passportAuthority: 'HM Passport Office',
    maritimeAdmin: 'Maritime and Coastguard Agency (UK)',
    training: ['Solent Maritime Safety Training', 'North East Offshore Training Centre'],
    clinics: ['Southampton Port Medical Practice', 'Aberdeen Offshore Medicals'],
  },
  TR: {
    code: 'TR', name: 'Türkiye', dial: '90', nsn: (r) => `5${r.int(30, 59)}${r.digits(7)}`,
    languages: ['Turkish', 'English'],
    first: ['Mehmet|M', 'Ahmet|M', 'Mustafa|M', 'Emre|M', 'Burak|M', 'Murat|M', 'Kemal|M', 'Ayşe|F', 'Zeynep|F'],
    last: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Aydın', 'Öztürk', 'Arslan'],
    cities: [['İstanbul', 'İstanbul', '34000'], ['İzmir', 'İzmir', '35000'], ['Mersin', 'Mersin', '33000']],
    streets: ['Rıhtım Caddesi', 'Liman Sokak', 'Atatürk Bulvarı', 'Kordon Boyu'],
    passport: (r) => `U${r.digits(8)}`,
    passportAuthority: 'General Directorate of Population and Citizenship Affairs, Türkiye',
    maritimeAdmin: 'Directorate General of Maritime Affairs, Türkiye',
    training: ['Tuzla Maritime Training Centre', 'Aegean Coast Seafarers Academy'],
    clinics: ['Tuzla Seafarers Health Centre', 'İzmir Port Medical Clinic'],
  },
  GE: {
    code: 'GE', name: 'Georgia', dial: '995', nsn: (r) => `5${r.digits(8)}`,
    languages: ['Georgian', 'English', 'Russian'],
    first: ['Giorgi|M', 'Levan|M', 'Davit|M', 'Irakli|M', 'Zurab|M', 'Nika|M', 'Nino|F'],
    last: ['Beridze', 'Kapanadze', 'Gelashvili', 'Maisuradze', 'Tsiklauri', 'Abashidze', 'Bolkvadze'],
    cities: [['Batumi', 'Adjara', '6000'], ['Poti', 'Samegrelo-Zemo Svaneti', '4400'], ['Tbilisi', 'Tbilisi', '0108']],
    streets: ['Rustaveli Avenue', 'Gogebashvili Street', 'Chavchavadze Street', 'Port Street'],
    passport: (r) => `${r.digits(2)}${r.letters(2)}${r.digits(5)}`,
    passportAuthority: 'Public Service Development Agency, Georgia',
    maritimeAdmin: 'Maritime Transport Agency of Georgia',
    training: ['Batumi Maritime Training Centre', 'Black Sea Seafarers Academy, Poti'],
    clinics: ['Batumi Seafarers Medical Centre', 'Poti Port Clinic'],
  },
  SG: {
    code: 'SG', name: 'Singapore', dial: '65', nsn: (r) => `${r.pick(['8', '9'])}${r.digits(7)}`,
    languages: ['English', 'Mandarin', 'Malay'],
    first: ['Wei Jie|M', 'Kelvin|M', 'Muhammad|M', 'Daniel|M', 'Hui Min|F', 'Rajan|M'],
    last: ['Tan', 'Lim', 'Ng', 'Teo', 'Goh', 'Rahman'],
    cities: [['Singapore', 'Central Region', '018989'], ['Singapore', 'West Region', '609601']],
    streets: ['Keppel Road', 'Pasir Panjang Road', 'Jurong Port Road', 'Tanjong Pagar Road'],
    passport: (r) => `K${r.digits(7)}${r.letters(1)}`,
    passportAuthority: 'Immigration & Checkpoints Authority, Singapore',
    maritimeAdmin: 'Maritime and Port Authority of Singapore',
    training: ['Singapore Maritime Academy Training Centre', 'Jurong Marine Safety Training'],
    clinics: ['Keppel Seafarers Medical Clinic', 'Jurong Port Medical Centre'],
  },
};

/** Administrations of the vessels' flags (flag endorsements). */
const FLAG_ADMIN: Record<string, string> = {
  MT: 'Transport Malta, Merchant Shipping Directorate',
  NO: 'Norwegian Maritime Authority',
  SG: 'Maritime and Port Authority of Singapore',
  PA: 'Panama Maritime Authority, Directorate General of Seafarers',
  GR: 'Hellenic Ministry of Maritime Affairs and Insular Policy',
  LR: 'Liberian International Ship & Corporate Registry',
  MH: 'Republic of the Marshall Islands Maritime Administrator',
  HK: 'Marine Department, Hong Kong SAR',
  CY: 'Shipping Deputy Ministry, Cyprus',
};

// ---------------------------------------------------------------------------------------------
// Employers, vessels, partners

const EMPLOYERS = [
  { employer_id: 'emp_northsea', name: 'North Sea Shipmanagement AS' },
  { employer_id: 'emp_meridian', name: 'Meridian Maritime Pte. Ltd.' },
  { employer_id: 'emp_aegean', name: 'Aegean Bulk & Tankers S.A.' },
];

const MID: Record<string, string[]> = {
  MT: ['215', '229', '248', '249', '256'], NO: ['257', '258', '259'], SG: ['563', '564', '565', '566'],
  PA: ['351', '352', '353', '354', '355', '356', '357', '370', '371', '372'], GR: ['237', '239', '240', '241'],
  LR: ['636'], MH: ['538'], HK: ['477'],
};

interface VesselSpec {
  id: string; employer: string; name: string; imo6: string | null; flag: string; type: string;
  gt: number; kw: number; area?: 'near_coastal'; test?: boolean;
}

const VESSEL_SPECS: VesselSpec[] = [
  { id: 'ves_nordic_star', employer: 'emp_northsea', name: 'Nordic Star', imo6: '948317', flag: 'MT', type: 'bulk_carrier', gt: 43_012, kw: 9_480 },
  { id: 'ves_fjord_spirit', employer: 'emp_northsea', name: 'Fjord Spirit', imo6: '936452', flag: 'NO', type: 'oil_tanker', gt: 62_775, kw: 13_560 },
  { id: 'ves_skagen_supplier', employer: 'emp_northsea', name: 'Skagen Supplier', imo6: '970381', flag: 'NO', type: 'offshore_supply', gt: 3_650, kw: 7_060 },
  { id: 'ves_kvitsoy_trader', employer: 'emp_northsea', name: 'Kvitsoy Trader', imo6: '921904', flag: 'NO', type: 'general_cargo', gt: 468, kw: 720, area: 'near_coastal' },
  { id: 'ves_northsea_trial', employer: 'emp_northsea', name: 'Northsea Trial (test)', imo6: '979120', flag: 'MT', type: 'bulk_carrier', gt: 36_340, kw: 8_200, test: true },
  { id: 'ves_meridian_pearl', employer: 'emp_meridian', name: 'Meridian Pearl', imo6: '951208', flag: 'SG', type: 'container', gt: 54_214, kw: 36_560 },
  { id: 'ves_lion_city_chem', employer: 'emp_meridian', name: 'Lion City Chemist', imo6: '944573', flag: 'SG', type: 'chemical_tanker', gt: 11_757, kw: 5_920 },
  { id: 'ves_straits_trader', employer: 'emp_meridian', name: 'Straits Trader', imo6: '917346', flag: 'PA', type: 'general_cargo', gt: 2_856, kw: 2_380 },
  { id: 'ves_meridian_trial', employer: 'emp_meridian', name: 'Meridian Trial (test)', imo6: '968831', flag: 'HK', type: 'container', gt: 27_960, kw: 21_770, test: true },
  { id: 'ves_aegean_glory', employer: 'emp_aegean', name: 'Aegean Glory', imo6: '942660', flag: 'GR', type: 'bulk_carrier', gt: 40_170, kw: 9_960 },
  { id: 'ves_aegean_dawn', employer: 'emp_aegean', name: 'Aegean Dawn', imo6: '958924', flag: 'LR', type: 'oil_tanker', gt: 81_380, kw: 18_660 },
  { id: 'ves_aegean_trial', employer: 'emp_aegean', name: 'Aegean Trial (test)', imo6: '973315', flag: 'MH', type: 'oil_tanker', gt: 29_730, kw: 9_170, test: true },
];

interface VesselOut {
  vessel_id: string; employer_id: string; vessel_name: string; imo: string | null; mmsi: string | null;
  flag_state: string; vessel_type: string; gross_tonnage: number; propulsion_kw: number;
  trading_area: 'unlimited' | 'near_coastal'; is_test: boolean;
}

function buildVessels(): VesselOut[] {
  return VESSEL_SPECS.map((v) => {
    const r = new Rng(`vessel:${v.id}`);
    return {
      vessel_id: v.id,
      employer_id: v.employer,
      vessel_name: v.name,
      imo: v.imo6 ? imoWithCheckDigit(v.imo6) : null,
      mmsi: `${r.pick(MID[v.flag]!)}${r.digits(6)}`,
      flag_state: v.flag,
      vessel_type: v.type,
      gross_tonnage: v.gt,
      propulsion_kw: v.kw,
      trading_area: v.area ?? 'unlimited',
      is_test: v.test ?? false,
    };
  });
}

interface PartnerOut {
  partner_id: string; name: string; kind: 'customer' | 'external'; employer_id?: string;
  tier?: 'management' | 'recruiter' | 'vessel' | 'basic'; scope_overrides?: string[] | null;
  upgraded?: boolean; contract_scopes?: string[]; contract_vessel_ids?: string[]; rate_limit?: number | null;
}

const PARTNERS: PartnerOut[] = [
  { partner_id: 'ptn_northsea_mgmt', name: 'North Sea Shipmanagement: Fleet Personnel', kind: 'customer', employer_id: 'emp_northsea', tier: 'management', scope_overrides: null, upgraded: false, rate_limit: null },
  { partner_id: 'ptn_northsea_legacy', name: 'North Sea Shipmanagement: Legacy Crew Portal', kind: 'customer', employer_id: 'emp_northsea', tier: 'management', scope_overrides: ['vessels:fleet:read', 'crew:profile:read', 'crew:documents:read'], upgraded: false, rate_limit: null },
  { partner_id: 'ptn_meridian_recruit', name: 'Meridian Crew Recruitment', kind: 'customer', employer_id: 'emp_meridian', tier: 'recruiter', scope_overrides: null, upgraded: false, rate_limit: null },
  { partner_id: 'ptn_meridian_basic', name: 'Meridian Maritime: Operations Dashboard', kind: 'customer', employer_id: 'emp_meridian', tier: 'basic', scope_overrides: null, upgraded: false, rate_limit: null },
  { partner_id: 'ptn_aegean_vessel', name: 'Aegean Bulk & Tankers: Vessel Account', kind: 'customer', employer_id: 'emp_aegean', tier: 'vessel', scope_overrides: null, upgraded: false, rate_limit: null },
  { partner_id: 'ptn_aegean_ops_upgraded', name: 'Aegean Bulk & Tankers: Operations (upgraded overrides)', kind: 'customer', employer_id: 'emp_aegean', tier: 'recruiter', scope_overrides: ['vessels:fleet:read', 'crew:status:read', 'crew:profile:read', 'crew:compliance:read'], upgraded: true, rate_limit: null },
  { partner_id: 'ptn_seacert_audit', name: 'SeaCert Vetting Services', kind: 'external', contract_scopes: ['vessels:fleet:read', 'crew:status:read', 'crew:documents:read', 'crew:documents:download', 'crew:compliance:read'], contract_vessel_ids: ['ves_nordic_star', 'ves_lion_city_chem', 'ves_aegean_dawn', 'ves_aegean_trial'], rate_limit: null },
  { partner_id: 'ptn_bluewater_hr', name: 'Bluewater HR Analytics', kind: 'external', contract_scopes: ['vessels:fleet:read', 'crew:profile:read', 'crew:profile:full:read'], contract_vessel_ids: ['ves_meridian_pearl'], rate_limit: null },
  { partner_id: 'ptn_harbor_empty', name: 'Harbor Insights (no vessels attached)', kind: 'external', contract_scopes: ['vessels:fleet:read', 'crew:status:read'], contract_vessel_ids: [], rate_limit: null },
];

function partnerFleet(p: PartnerOut, vessels: readonly VesselOut[]): string[] {
  if (p.kind === 'external') return [...(p.contract_vessel_ids ?? [])];
  return vessels.filter((v) => v.employer_id === p.employer_id).map((v) => v.vessel_id);
}

// ---------------------------------------------------------------------------------------------
// Roles and roster

const OFFICERS = ['master', 'chief_officer', 'second_officer', 'third_officer', 'chief_engineer', 'second_engineer', 'third_engineer', 'eto'];
const DECK_OFFICERS = ['master', 'chief_officer', 'second_officer', 'third_officer'];
const ENGINEERS = ['chief_engineer', 'second_engineer', 'third_engineer', 'eto'];
const TANKERS = ['oil_tanker', 'chemical_tanker', 'oil_chemical_tanker'];
const OIL_TANKERS = ['oil_tanker', 'oil_chemical_tanker'];

const POSITION: Record<string, string> = {
  master: 'Master', chief_officer: 'Chief Officer', second_officer: '2nd Officer', third_officer: '3rd Officer',
  chief_engineer: 'Chief Engineer', second_engineer: '2nd Engineer', third_engineer: '3rd Engineer',
  eto: 'Electro-Technical Officer', bosun: 'Bosun', able_seafarer_deck: 'Able Seafarer Deck',
  ordinary_seafarer: 'Ordinary Seafarer', oiler: 'Oiler', motorman: 'Motorman', cook: 'Chief Cook',
  deck_cadet: 'Deck Cadet', engine_cadet: 'Engine Cadet',
};

const AGE: Record<string, [number, number]> = {
  master: [44, 61], chief_officer: [34, 50], second_officer: [27, 40], third_officer: [23, 32],
  chief_engineer: [44, 62], second_engineer: [32, 48], third_engineer: [24, 35], eto: [28, 50],
  bosun: [38, 58], able_seafarer_deck: [24, 50], ordinary_seafarer: [19, 27], oiler: [25, 50],
  motorman: [22, 45], cook: [28, 55], deck_cadet: [19, 23], engine_cadet: [19, 23],
};

const SKILLS: Record<string, string[]> = {
  deck_mgmt: ['Bridge team management', 'Port state control inspections', 'Cargo planning and stability', 'Vetting inspections (SIRE 2.0)', 'Crisis management', 'ISM / ISPS compliance'],
  deck_ops: ['Navigational watchkeeping', 'ECDIS (JRC, Furuno)', 'Passage planning', 'Mooring operations', 'GMDSS radio watch', 'Cargo watch'],
  eng_mgmt: ['MAN B&W two-stroke engines', 'Wärtsilä auxiliary engines', 'Planned maintenance systems', 'Fuel and lube oil management', 'Dry-docking supervision', 'Ballast water treatment systems'],
  eng_ops: ['Engine room watchkeeping', 'Purifier overhaul', 'Boiler operation', 'Fuel bunkering', 'Pump maintenance', 'Fresh water generator'],
  eto: ['High-voltage switchboards', 'PLC troubleshooting', 'Automation and alarm systems', 'Navigation electronics', 'Reefer container maintenance'],
  deck_rating: ['Mooring and anchoring', 'Deck maintenance and painting', 'Helmsman', 'Rigging and lifting gear', 'Enclosed space entry', 'Gangway watch'],
  eng_rating: ['Engine room maintenance', 'Welding and cutting', 'Purifier cleaning', 'Bunkering assistance', 'Lathe work'],
  cook: ['Menu planning', 'Galley hygiene (HACCP)', 'Provisions management', 'International cuisine', 'Baking'],
  cadet: ['Watchkeeping under supervision', 'Chart corrections', 'Safety equipment maintenance'],
};
function skillSet(role: string): string {
  if (['master', 'chief_officer'].includes(role)) return 'deck_mgmt';
  if (['second_officer', 'third_officer'].includes(role)) return 'deck_ops';
  if (['chief_engineer', 'second_engineer'].includes(role)) return 'eng_mgmt';
  if (role === 'third_engineer') return 'eng_ops';
  if (role === 'eto') return 'eto';
  if (['bosun', 'able_seafarer_deck', 'ordinary_seafarer'].includes(role)) return 'deck_rating';
  if (['oiler', 'motorman'].includes(role)) return 'eng_rating';
  if (role === 'cook') return 'cook';
  return 'cadet';
}

type Consent = 'all' | 'no_status' | 'no_profile' | 'no_documents' | 'no_compliance' | 'none' | 'status_only';
type AssignmentStatus = 'invited' | 'active' | 'on_leave' | 'signed_off';

interface Slot {
  role: string;
  status?: AssignmentStatus;
  nat?: string;
  /** Where the crew member lives when not in their country of nationality. */
  res?: string;
  faults?: string[];
  consent?: Consent;
  /** Per-partner consent replacing `consent` for that partner ('none' removes the record). */
  consentFor?: Record<string, Consent>;
  /** Further assignments on other vessels. */
  also?: Array<{ vessel: string; role?: string; status: AssignmentStatus; coverDocs?: boolean }>;
  /** The documents also satisfy the further assignments (tanker certificates, endorsements). */
  bst?: 'combined' | 'modules' | 'refresher';
  note?: string;
}

interface VesselRoster { vessel: string | null; slots: Slot[]; pool: { officers: string[]; ratings: string[] } }

/**
 * The roster: who is on which vessel and which document situation they are in. Faults, as
 * `kind:key`, act on the documents of one requirement key:
 *   exp, soon30, soon90, noexp (no expiry recorded), unverified, verifpending, review (pending),
 *   missing, rejectedonly, placeholder, processingonly, legacyonly, withdrawnonly (the only copy is
 *   in that state), super / super2 (older editions superseded), rejected, dup, placeholder+,
 *   processing, legacy, withdrawn (an extra copy in that state besides the valid one).
 * Other faults: cap:<capacity> (restricted CoC), noendorse, wrongendorse, flaggedextra.
 */
const ROSTER: VesselRoster[] = [
  {
    vessel: 'ves_nordic_star', pool: { officers: ['NO', 'PL', 'HR', 'UA', 'LV', 'GB'], ratings: ['PH', 'ID', 'PH'] },
    slots: [
      { role: 'master', nat: 'NO', faults: ['super2:coc'], note: 'CoC chain of three editions; NO CoC on MT vessel with MT endorsement' },
      { role: 'chief_officer', nat: 'HR', faults: ['soon30:medical_fitness'] },
      { role: 'second_officer', nat: 'PL', faults: ['exp:gmdss_goc'], consentFor: { ptn_seacert_audit: 'none' } },
      { role: 'third_officer', nat: 'UA', faults: ['noendorse'] },
      { role: 'chief_engineer', nat: 'LV', faults: ['review:erm', 'dup:medical_fitness'] },
      { role: 'second_engineer', nat: 'PL', also: [{ vessel: 'ves_fjord_spirit', status: 'on_leave' }], note: 'active here, on leave on the tanker (no tanker certificates)' },
      { role: 'third_engineer', nat: 'GB', faults: ['soon90:bst'], bst: 'combined', consent: 'no_status' },
      { role: 'eto', nat: 'HR', faults: ['unverified:coc'] },
      { role: 'bosun', nat: 'PH', faults: ['rejected:cop_rating', 'super:medical_fitness'] },
      { role: 'able_seafarer_deck', nat: 'PH', faults: ['exp:drug_alcohol_test'], consent: 'no_compliance' },
      { role: 'able_seafarer_deck', nat: 'ID', status: 'invited', consent: 'no_profile' },
      { role: 'ordinary_seafarer', nat: 'PH', faults: ['placeholder:medical_fitness'], consent: 'no_documents' },
      { role: 'oiler', nat: 'ID', faults: ['processingonly:cop_rating'] },
      { role: 'motorman', nat: 'PH', status: 'on_leave', consent: 'none' },
      { role: 'cook', nat: 'PH', faults: ['legacy:ships_cook'] },
      { role: 'deck_cadet', nat: 'NO', note: 'role outside the catalogue: no_role' },
    ],
  },
  {
    vessel: 'ves_fjord_spirit', pool: { officers: ['NO', 'PL', 'UA', 'GE', 'HR', 'RO'], ratings: ['PH', 'PH', 'RO'] },
    slots: [
      { role: 'master', nat: 'NO', also: [{ vessel: 'ves_aegean_dawn', status: 'signed_off' }], note: 'signed off from Aegean Dawn earlier' },
      { role: 'chief_officer', nat: 'PL', faults: ['exp:tanker_advanced_oil'] },
      { role: 'second_officer', nat: 'UA', faults: ['soon90:brm', 'super:bst', 'unverified:ecdis'], bst: 'combined' },
      { role: 'third_officer', nat: 'GE', faults: ['verifpending:dsd'] },
      { role: 'chief_engineer', nat: 'NO', faults: ['missing:tanker_advanced_oil'] },
      { role: 'second_engineer', nat: 'RO', faults: ['rejected:medical_fitness'], consent: 'no_status' },
      { role: 'third_engineer', nat: 'HR', faults: ['noexp:erm'] },
      { role: 'eto', nat: 'UA', consent: 'no_documents' },
      { role: 'bosun', nat: 'PH', faults: ['soon30:pscrb'] },
      { role: 'able_seafarer_deck', nat: 'PH', faults: ['withdrawnonly:tanker_basic'] },
      { role: 'able_seafarer_deck', nat: 'RO', status: 'invited' },
      { role: 'ordinary_seafarer', nat: 'PH', faults: ['exp:bst_pst'], bst: 'modules' },
      { role: 'oiler', nat: 'PH', faults: ['rejectedonly:drug_alcohol_test'] },
      { role: 'motorman', nat: 'RO', faults: ['dup:bst'], bst: 'combined' },
      { role: 'cook', nat: 'PH', faults: ['soon30:drug_alcohol_test'] },
    ],
  },
  {
    vessel: 'ves_skagen_supplier', pool: { officers: ['NO', 'PL'], ratings: ['PL', 'NO'] },
    slots: [
      { role: 'master', nat: 'NO', faults: ['cap:ii2_3000'], note: 'II/2 para 3-4 CoC (gt_max 3000) on a 3650 GT vessel: CoC missing' },
      { role: 'chief_engineer', nat: 'NO', faults: ['legacy:coc'] },
      { role: 'second_engineer', nat: 'NO', faults: ['cap:iii3_3000'], note: 'III/3 CoC (kw_max 3000) on a 7060 kW vessel: CoC missing' },
      { role: 'able_seafarer_deck', nat: 'PL', status: 'on_leave', consent: 'none' },
    ],
  },
  {
    vessel: 'ves_kvitsoy_trader', pool: { officers: ['NO'], ratings: ['NO', 'PL'] },
    slots: [
      { role: 'master', nat: 'NO', faults: ['cap:ii3_nc500'], note: 'II/3 CoC (gt_max 500, near-coastal) on a 468 GT near-coastal vessel: met' },
      { role: 'chief_engineer', nat: 'NO', faults: ['cap:iii3_3000'], note: 'III/3 CoC (kw_max 3000) on a 720 kW vessel: met' },
      { role: 'able_seafarer_deck', nat: 'PL', faults: ['exp:bst'], bst: 'combined', consent: 'status_only' },
    ],
  },
  {
    vessel: 'ves_northsea_trial', pool: { officers: ['NO', 'GB'], ratings: ['PH'] },
    slots: [
      { role: 'master', nat: 'GB' },
      { role: 'chief_engineer', nat: 'NO', faults: ['soon30:medical_fitness'] },
      { role: 'able_seafarer_deck', nat: 'PH', faults: ['exp:pscrb'] },
    ],
  },
  {
    vessel: 'ves_meridian_pearl', pool: { officers: ['IN', 'CN', 'MM'], ratings: ['PH', 'MM', 'IN'] },
    slots: [
      { role: 'master', nat: 'IN', faults: ['placeholder+:passport'] },
      { role: 'chief_officer', nat: 'IN', faults: ['noendorse'] },
      { role: 'chief_engineer', nat: 'CN', faults: ['soon90:medical_fitness'] },
      { role: 'second_engineer', nat: 'MM', faults: ['legacyonly:erm'] },
      { role: 'bosun', nat: 'PH', also: [{ vessel: 'ves_aegean_glory', status: 'on_leave', coverDocs: true }], note: 'on two employers\' vessels' },
      { role: 'able_seafarer_deck', nat: 'MM', faults: ['review:bst'], bst: 'combined' },
      { role: 'oiler', nat: 'IN', faults: ['review:cop_rating'], consent: 'no_status' },
      { role: 'cook', nat: 'PH', res: 'SG', faults: ['soon90:drug_alcohol_test'] },
      { role: 'engine_cadet', nat: 'IN', note: 'role outside the catalogue: no_role' },
    ],
  },
  {
    vessel: 'ves_lion_city_chem', pool: { officers: ['IN', 'MM', 'CN'], ratings: ['ID', 'MM'] },
    slots: [
      { role: 'master', nat: 'MM', faults: ['dup:medical_fitness'] },
      { role: 'chief_officer', nat: 'IN', faults: ['exp:tanker_basic'] },
      { role: 'second_officer', nat: 'CN', faults: ['soon30:coc'] },
      { role: 'chief_engineer', nat: 'IN', faults: ['processing:medical_fitness'] },
      { role: 'second_engineer', nat: 'MM', faults: ['withdrawnonly:medical_fitness'] },
      { role: 'able_seafarer_deck', nat: 'ID', consent: 'no_documents' },
      { role: 'motorman', nat: 'ID', faults: ['soon90:tanker_basic'] },
      { role: 'cook', nat: 'MM', consent: 'no_profile' },
    ],
  },
  {
    vessel: 'ves_straits_trader', pool: { officers: ['PH', 'ID'], ratings: ['PH', 'ID', 'MM'] },
    slots: [
      { role: 'master', nat: 'PH', faults: ['cap:ii2_3000'], note: 'II/2 para 3-4 CoC (gt_max 3000) on a 2856 GT vessel: met' },
      { role: 'second_officer', nat: 'ID', faults: ['cap:ii3_nc500'], note: 'II/3 CoC (gt_max 500, near-coastal) on an unlimited 2856 GT vessel: CoC missing' },
      { role: 'chief_engineer', nat: 'PH', faults: ['cap:iii3_3000'], note: 'III/3 CoC (kw_max 3000) on a 2380 kW vessel: met' },
      { role: 'able_seafarer_deck', nat: 'ID', also: [{ vessel: 'ves_lion_city_chem', status: 'invited' }], note: 'active here, invited to the chemical tanker (no tanker certificate)' },
      { role: 'ordinary_seafarer', nat: 'MM', faults: ['soon30:medical_fitness'] },
    ],
  },
  {
    vessel: 'ves_meridian_trial', pool: { officers: ['SG', 'IN'], ratings: ['PH'] },
    slots: [
      { role: 'master', nat: 'SG', faults: ['noexp:brm'], note: 'SG CoC on HK vessel, HK endorsement' },
      { role: 'oiler', nat: 'PH', faults: ['missing:cop_rating'] },
      { role: 'cook', nat: 'PH' },
    ],
  },
  {
    vessel: 'ves_aegean_glory', pool: { officers: ['GR', 'UA', 'RO', 'GE'], ratings: ['PH', 'RO', 'GE'] },
    slots: [
      { role: 'master', nat: 'GR', faults: ['super:gmdss_goc', 'processing:drug_alcohol_test'] },
      { role: 'chief_officer', nat: 'UA', faults: ['wrongendorse'], note: 'UA CoC, endorsement issued by MT instead of GR' },
      { role: 'second_officer', nat: 'GR', faults: ['exp:medical_fitness'], consent: 'no_profile' },
      { role: 'chief_engineer', nat: 'RO', faults: ['soon90:coc'] },
      { role: 'second_engineer', nat: 'GE', faults: ['placeholder+:aff', 'legacy:mfa'] },
      { role: 'bosun', nat: 'PH', faults: ['missing:dsd'] },
      { role: 'able_seafarer_deck', nat: 'PH', faults: ['withdrawn:pscrb'] },
      { role: 'ordinary_seafarer', nat: 'RO', status: 'invited', faults: ['unverified:medical_fitness'] },
      { role: 'oiler', nat: 'GE', faults: ['soon30:cop_rating'] },
      { role: 'cook', nat: 'PH', faults: ['noexp:ships_cook'], consent: 'no_compliance' },
    ],
  },
  {
    vessel: 'ves_aegean_dawn', pool: { officers: ['GR', 'UA', 'GE', 'IN'], ratings: ['PH', 'IN', 'GE'] },
    slots: [
      { role: 'master', nat: 'GR', faults: ['soon30:flag_endorsement'] },
      { role: 'chief_officer', nat: 'UA', faults: ['exp:coc', 'processing:coc'], note: 'CoC expired, renewal still processing' },
      { role: 'second_officer', nat: 'GE', bst: 'refresher', faults: ['withdrawn:ecdis'] },
      { role: 'chief_engineer', nat: 'GR', faults: ['review:tanker_advanced_oil'] },
      { role: 'second_engineer', nat: 'UA', faults: ['dup:coc', 'super:tanker_basic'] },
      { role: 'eto', nat: 'IN', faults: ['exp:erm'] },
      { role: 'bosun', nat: 'PH', faults: ['rejected:pscrb'], consent: 'no_compliance' },
      { role: 'able_seafarer_deck', nat: 'PH', faults: ['missing:tanker_basic'] },
      { role: 'motorman', nat: 'GE', faults: ['flaggedextra'] },
      { role: 'cook', nat: 'IN', faults: ['placeholder+:ships_cook'], consent: 'none' },
    ],
  },
  {
    vessel: 'ves_aegean_trial', pool: { officers: ['GR', 'UA'], ratings: ['PH'] },
    slots: [
      { role: 'master', nat: 'GR' },
      { role: 'chief_officer', nat: 'UA', faults: ['soon90:tanker_basic'] },
    ],
  },
  {
    vessel: 'ves_nordic_star', pool: { officers: ['PL'], ratings: ['PH'] },
    slots: [
      { role: 'able_seafarer_deck', nat: 'PH', status: 'signed_off', note: 'signed off: on no fleet' },
    ],
  },
  {
    vessel: 'ves_meridian_pearl', pool: { officers: ['IN'], ratings: ['IN'] },
    slots: [
      { role: 'cook', nat: 'IN', status: 'signed_off', faults: ['exp:medical_fitness'], note: 'signed off: on no fleet' },
    ],
  },
  {
    vessel: null, pool: { officers: ['PH'], ratings: ['PH'] },
    slots: [
      { role: 'able_seafarer_deck', nat: 'TR', note: 'no assignment; consents to ptn_northsea_mgmt anyway' },
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Requirements (docs/compliance-rules.md), for generating certificate sets and predicting outcomes

function requirementKeys(role: string, vesselType: string | null): string[] {
  if (!(ROLES as readonly string[]).includes(role)) return [];
  const keys = ['medical_fitness', 'drug_alcohol_test', 'bst', 'security_awareness'];
  if (['second_officer', 'third_officer', 'bosun', 'able_seafarer_deck'].includes(role)) keys.push('dsd');
  if (OFFICERS.includes(role) || ['bosun', 'able_seafarer_deck'].includes(role)) keys.push('pscrb');
  if (OFFICERS.includes(role)) keys.push('aff', 'mfa');
  if (['master', 'chief_officer'].includes(role)) keys.push('medical_care');
  if (vesselType && TANKERS.includes(vesselType)) keys.push('tanker_basic');
  if (vesselType && OIL_TANKERS.includes(vesselType) && ['master', 'chief_officer', 'chief_engineer', 'second_engineer'].includes(role)) keys.push('tanker_advanced_oil');
  if (OFFICERS.includes(role)) keys.push('coc', 'flag_endorsement');
  if (DECK_OFFICERS.includes(role)) keys.push('gmdss_goc', 'ecdis', 'brm');
  if (['bosun', 'able_seafarer_deck', 'ordinary_seafarer', 'oiler', 'motorman'].includes(role)) keys.push('cop_rating');
  if (ENGINEERS.includes(role)) keys.push('erm');
  if (role === 'cook') keys.push('ships_cook');
  return keys;
}

const COP_CODE: Record<string, string> = {
  bosun: 'cop_ii_5', able_seafarer_deck: 'cop_ii_5', ordinary_seafarer: 'cop_ii_4', oiler: 'cop_iii_4', motorman: 'cop_iii_5',
};

interface CapacityOut {
  stcw_regulation: string | null; role: string; level: string | null; gt_max: number | null; kw_max: number | null;
  power_unrestricted: boolean; area: string; vessel_types: string[];
}
const cap = (reg: string, role: string, level: string, gt: number | null, kw: number | null, unrestricted: boolean, area = 'unlimited'): CapacityOut =>
  ({ stcw_regulation: reg, role, level, gt_max: gt, kw_max: kw, power_unrestricted: unrestricted, area, vessel_types: [] });

function cocFor(role: string, variant: string | null): { title: string; reg: string; level: string; caps: CapacityOut[] } {
  if (variant === 'ii2_3000') return { title: 'Certificate of Competency: Master, ships of less than 3000 GT (STCW II/2 para 3-4)', reg: 'II/2', level: 'management', caps: [cap('II/2', 'master', 'management', 3000, null, false)] };
  if (variant === 'ii3_nc500') {
    const master = role === 'master';
    return {
      title: master ? 'Certificate of Competency: Master, ships of less than 500 GT engaged on near-coastal voyages (STCW II/3)'
        : 'Certificate of Competency: Officer in Charge of a Navigational Watch, ships of less than 500 GT, near-coastal (STCW II/3)',
      reg: 'II/3', level: master ? 'management' : 'operational',
      caps: [cap('II/3', master ? 'master' : role, master ? 'management' : 'operational', 500, null, false, 'near_coastal')],
    };
  }
  if (variant === 'iii3_3000') {
    const chief = role === 'chief_engineer';
    return {
      title: `Certificate of Competency: ${chief ? 'Chief Engineer Officer' : 'Second Engineer Officer'}, ships of less than 3000 kW (STCW III/3)`,
      reg: 'III/3', level: 'management', caps: [cap('III/3', chief ? 'chief_engineer' : 'second_engineer', 'management', null, 3000, false)],
    };
  }
  switch (role) {
    case 'master': return { title: 'Certificate of Competency: Master, unlimited (STCW II/2)', reg: 'II/2', level: 'management', caps: [cap('II/2', 'master', 'management', null, null, false)] };
    case 'chief_officer': return { title: 'Certificate of Competency: Chief Mate, unlimited (STCW II/2)', reg: 'II/2', level: 'management', caps: [cap('II/2', 'chief_officer', 'management', null, null, false)] };
    case 'second_officer':
    case 'third_officer': return { title: 'Certificate of Competency: Officer in Charge of a Navigational Watch (STCW II/1)', reg: 'II/1', level: 'operational', caps: [cap('II/1', role, 'operational', null, null, false)] };
    case 'chief_engineer': return { title: 'Certificate of Competency: Chief Engineer Officer, unlimited (STCW III/2)', reg: 'III/2', level: 'management', caps: [cap('III/2', 'chief_engineer', 'management', null, null, true)] };
    case 'second_engineer': return { title: 'Certificate of Competency: Second Engineer Officer, unlimited (STCW III/2)', reg: 'III/2', level: 'management', caps: [cap('III/2', 'second_engineer', 'management', null, null, true)] };
    case 'third_engineer': return { title: 'Certificate of Competency: Officer in Charge of an Engineering Watch (STCW III/1)', reg: 'III/1', level: 'operational', caps: [cap('III/1', 'third_engineer', 'operational', null, null, true)] };
    case 'eto': return { title: 'Certificate of Competency: Electro-Technical Officer (STCW III/6)', reg: 'III/6', level: 'operational', caps: [cap('III/6', 'eto', 'operational', null, null, true)] };
    default: throw new Error(`no CoC for ${role}`);
  }
}

// Document templates by category code (docs/fixtures.md vocabulary).
interface Template {
  code: string; docClass: string; type: string; category: string; title: string; catalogueName: string;
  reg: string | null; codes: string[]; level: string | null; validity: number | null; refresher?: boolean;
  file: string; issuer: 'training' | 'clinic' | 'admin' | 'company' | 'passport' | 'flag'; prefix: string;
}
const T = (t: Template) => t;
const TEMPLATES: Record<string, Template> = {
  medical_fitness: T({ code: 'medical_fitness', docClass: 'medical', type: 'medical_certificate', category: 'medical', title: 'Medical Fitness Certificate for Seafarers', catalogueName: 'Medical fitness certificate (STCW I/9, MLC A1.2)', reg: 'I/9', codes: [], level: null, validity: 2, file: 'files/medical-fitness-certificate.pdf', issuer: 'clinic', prefix: 'MFC' }),
  drug_alcohol_test: T({ code: 'drug_alcohol_test', docClass: 'medical', type: 'medical_certificate', category: 'medical', title: 'Drug and Alcohol Test Certificate', catalogueName: 'Drug and alcohol test', reg: null, codes: [], level: null, validity: 1, file: 'files/drug-alcohol-test.pdf', issuer: 'clinic', prefix: 'DAT' }),
  bst: T({ code: 'bst', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Basic Safety Training (STCW A-VI/1)', catalogueName: 'Basic safety training', reg: 'VI/1', codes: ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'], level: 'basic', validity: 5, file: 'files/basic-safety-training.pdf', issuer: 'training', prefix: 'BST' }),
  bst_pst: T({ code: 'bst', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Personal Survival Techniques (STCW A-VI/1-1)', catalogueName: 'Basic safety training: personal survival techniques', reg: 'VI/1', codes: ['A-VI/1-1'], level: 'basic', validity: 5, file: 'files/basic-safety-training.pdf', issuer: 'training', prefix: 'PST' }),
  bst_fpff: T({ code: 'bst', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Fire Prevention and Fire Fighting (STCW A-VI/1-2)', catalogueName: 'Basic safety training: fire prevention and fire fighting', reg: 'VI/1', codes: ['A-VI/1-2'], level: 'basic', validity: 5, file: 'files/basic-safety-training.pdf', issuer: 'training', prefix: 'FPFF' }),
  bst_efa: T({ code: 'bst', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Elementary First Aid (STCW A-VI/1-3)', catalogueName: 'Basic safety training: elementary first aid', reg: 'VI/1', codes: ['A-VI/1-3'], level: 'basic', validity: null, file: 'files/basic-safety-training.pdf', issuer: 'training', prefix: 'EFA' }),
  bst_pssr: T({ code: 'bst', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Personal Safety and Social Responsibilities (STCW A-VI/1-4)', catalogueName: 'Basic safety training: personal safety and social responsibilities', reg: 'VI/1', codes: ['A-VI/1-4'], level: 'basic', validity: null, file: 'files/basic-safety-training.pdf', issuer: 'training', prefix: 'PSSR' }),
  bst_refresher: T({ code: 'bst', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Basic Safety Training Refresher: PST and FPFF (STCW A-VI/1)', catalogueName: 'Basic safety training (refresher)', reg: 'VI/1', codes: ['A-VI/1-1', 'A-VI/1-2'], level: 'basic', validity: 5, refresher: true, file: 'files/basic-safety-training.pdf', issuer: 'training', prefix: 'BSTR' }),
  security_awareness: T({ code: 'security_awareness', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Security Awareness Training (STCW A-VI/6-1)', catalogueName: 'Security awareness', reg: 'VI/6', codes: ['A-VI/6-1'], level: 'basic', validity: null, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'SAT' }),
  dsd: T({ code: 'dsd', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Designated Security Duties (STCW A-VI/6-2)', catalogueName: 'Designated security duties', reg: 'VI/6', codes: ['A-VI/6-2'], level: 'basic', validity: null, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'DSD' }),
  sso: T({ code: 'sso', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Ship Security Officer (STCW A-VI/5)', catalogueName: 'Ship security officer', reg: 'VI/5', codes: ['A-VI/5'], level: 'advanced', validity: null, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'SSO' }),
  pscrb: T({ code: 'pscrb', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Proficiency in Survival Craft and Rescue Boats (STCW A-VI/2-1)', catalogueName: 'Survival craft and rescue boats', reg: 'VI/2', codes: ['A-VI/2-1'], level: 'advanced', validity: 5, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'PSCRB' }),
  aff: T({ code: 'aff', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Advanced Fire Fighting (STCW A-VI/3)', catalogueName: 'Advanced fire fighting', reg: 'VI/3', codes: ['A-VI/3'], level: 'advanced', validity: 5, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'AFF' }),
  mfa: T({ code: 'mfa', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Medical First Aid (STCW A-VI/4-1)', catalogueName: 'Medical first aid', reg: 'VI/4', codes: ['A-VI/4-1'], level: 'advanced', validity: null, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'MFA' }),
  medical_care: T({ code: 'medical_care', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Medical Care on Board Ship (STCW A-VI/4-2)', catalogueName: 'Medical care', reg: 'VI/4', codes: ['A-VI/4-2'], level: 'advanced', validity: null, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'MC' }),
  tanker_basic: T({ code: 'tanker_basic', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Basic Training for Oil and Chemical Tanker Cargo Operations (STCW A-V/1-1-1)', catalogueName: 'Basic oil and chemical tanker cargo operations', reg: 'V/1-1', codes: ['A-V/1-1-1'], level: 'basic', validity: 5, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'BOCT' }),
  tanker_advanced_oil: T({ code: 'tanker_advanced_oil', docClass: 'training', type: 'training_certificate', category: 'stcw', title: 'Advanced Training for Oil Tanker Cargo Operations (STCW A-V/1-1-2)', catalogueName: 'Advanced oil tanker cargo operations', reg: 'V/1-1', codes: ['A-V/1-1-2'], level: 'advanced', validity: 5, file: 'files/stcw-training-certificate.pdf', issuer: 'training', prefix: 'AOT' }),
  coc: T({ code: 'coc', docClass: 'coc', type: 'certificate_of_competency', category: 'competency', title: '', catalogueName: 'Certificate of competency', reg: null, codes: [], level: null, validity: 5, file: 'files/certificate-of-competency.pdf', issuer: 'admin', prefix: 'COC' }),
  gmdss_goc: T({ code: 'gmdss_goc', docClass: 'coc', type: 'certificate_of_competency', category: 'competency', title: 'GMDSS General Operator\'s Certificate (STCW IV/2)', catalogueName: 'GMDSS general operator', reg: 'IV/2', codes: [], level: 'operational', validity: 5, file: 'files/gmdss-goc.pdf', issuer: 'admin', prefix: 'GOC' }),
  flag_endorsement: T({ code: 'flag_endorsement', docClass: 'endorsement', type: 'endorsement', category: 'flag_state', title: 'Endorsement Attesting Recognition of a Certificate (STCW I/10)', catalogueName: 'Flag state endorsement', reg: 'I/10', codes: [], level: null, validity: 5, file: 'files/flag-endorsement.pdf', issuer: 'flag', prefix: 'END' }),
  cop_ii_5: T({ code: 'cop_ii_5', docClass: 'cop', type: 'certificate_of_proficiency', category: 'proficiency', title: 'Certificate of Proficiency: Able Seafarer Deck (STCW II/5)', catalogueName: 'Able seafarer deck', reg: 'II/5', codes: [], level: 'support', validity: null, file: 'files/certificate-of-proficiency.pdf', issuer: 'admin', prefix: 'COP' }),
  cop_ii_4: T({ code: 'cop_ii_4', docClass: 'cop', type: 'certificate_of_proficiency', category: 'proficiency', title: 'Certificate of Proficiency: Rating Forming Part of a Navigational Watch (STCW II/4)', catalogueName: 'Rating forming part of a navigational watch', reg: 'II/4', codes: [], level: 'support', validity: null, file: 'files/certificate-of-proficiency.pdf', issuer: 'admin', prefix: 'COP' }),
  cop_iii_4: T({ code: 'cop_iii_4', docClass: 'cop', type: 'certificate_of_proficiency', category: 'proficiency', title: 'Certificate of Proficiency: Rating Forming Part of an Engineering Watch (STCW III/4)', catalogueName: 'Rating forming part of an engineering watch', reg: 'III/4', codes: [], level: 'support', validity: null, file: 'files/certificate-of-proficiency.pdf', issuer: 'admin', prefix: 'COP' }),
  cop_iii_5: T({ code: 'cop_iii_5', docClass: 'cop', type: 'certificate_of_proficiency', category: 'proficiency', title: 'Certificate of Proficiency: Able Seafarer Engine (STCW III/5)', catalogueName: 'Able seafarer engine', reg: 'III/5', codes: [], level: 'support', validity: null, file: 'files/certificate-of-proficiency.pdf', issuer: 'admin', prefix: 'COP' }),
  ecdis: T({ code: 'ecdis', docClass: 'training', type: 'training_certificate', category: 'qualification', title: 'ECDIS Generic Training (IMO Model Course 1.27)', catalogueName: 'ECDIS generic training', reg: 'II/1', codes: [], level: 'operational', validity: null, file: 'files/training-record.pdf', issuer: 'training', prefix: 'ECDIS' }),
  brm: T({ code: 'brm', docClass: 'training', type: 'training_certificate', category: 'qualification', title: 'Bridge Resource Management', catalogueName: 'Bridge resource management', reg: null, codes: [], level: 'management', validity: 5, file: 'files/training-record.pdf', issuer: 'training', prefix: 'BRM' }),
  erm: T({ code: 'erm', docClass: 'training', type: 'training_certificate', category: 'qualification', title: 'Engine Room Resource Management', catalogueName: 'Engine resource management', reg: null, codes: [], level: 'management', validity: 5, file: 'files/training-record.pdf', issuer: 'training', prefix: 'ERM' }),
  ships_cook: T({ code: 'ships_cook', docClass: 'training', type: 'certificate', category: 'qualification', title: 'Ship\'s Cook Certificate (MLC 2006, Regulation 3.2)', catalogueName: 'Ship\'s cook', reg: null, codes: [], level: null, validity: null, file: 'files/training-record.pdf', issuer: 'admin', prefix: 'SCC' }),
  passport: T({ code: 'passport', docClass: 'identity', type: 'passport', category: 'identity', title: 'Passport', catalogueName: 'Passport', reg: null, codes: [], level: null, validity: 10, file: 'files/passport-scan.jpg', issuer: 'passport', prefix: '' }),
  seaman_book: T({ code: 'seaman_book', docClass: 'identity', type: 'seaman_book', category: 'identity', title: 'Seaman\'s Book (Seafarer\'s Identity and Record Book)', catalogueName: 'Seaman\'s book', reg: null, codes: [], level: null, validity: 10, file: 'files/seaman-book.pdf', issuer: 'admin', prefix: 'SB' }),
  visa: T({ code: 'visa', docClass: 'travel', type: 'visa', category: 'travel', title: 'Visa', catalogueName: 'Visa', reg: null, codes: [], level: null, validity: 5, file: 'files/visa-scan.png', issuer: 'company', prefix: '' }),
  other: T({ code: 'other', docClass: 'other', type: 'other', category: 'other', title: 'Sea Service Testimonial', catalogueName: 'Other document', reg: null, codes: [], level: null, validity: null, file: 'files/sea-service-testimonial.pdf', issuer: 'company', prefix: 'SST' }),
};

// ---------------------------------------------------------------------------------------------
// Output shapes

interface ClassificationOut {
  taxonomy_version: string; document_class: string; category_code: string; catalogue_title: { id: string; name: string };
  stcw_regulation: string | null; stcw_codes: string[]; level: string | null; is_refresher: boolean;
  flag_state: string | null; coc_capacities: CapacityOut[]; sources: string[];
}
type ProcessingState = 'processed' | 'processing' | 'rejected' | 'duplicate' | 'placeholder' | 'legacy';
interface DocOut {
  document_id: string; crew_unique_id: string; type: string; category: string; title: string; issuer: string | null;
  verification_status: 'unverified' | 'pending' | 'verified'; review_status: 'pending' | 'approved' | 'flagged';
  issue_date: string | null; expiry_date: string | null; no_expiry: boolean; document_number: string | null;
  processing_state: ProcessingState; is_current: boolean; is_live: boolean; superseded_by: string | null;
  classification: ClassificationOut; file: string | null; processed_at: string | null; updated_at: string;
}
interface CrewOut {
  crew_unique_id: string; name: string; rank: string | null; email: string | null; phone: string | null;
  country_code: string | null; nationality: string | null; languages: string[]; skills: string[];
  years_experience: number | null; bio: string | null; date_of_birth: string | null;
  address: { line1: string | null; line2: string | null; city: string | null; region: string | null; postal_code: string | null; country_code: string } | null;
  passport: { number: string; issuing_country: string; expiry_date: string } | null;
  visas: Array<{ type: string; country_code: string; number: string; expiry_date: string }>;
  employment_history: Array<{ employer_name: string; vessel_name: string | null; role: string; start_date: string; end_date: string | null; source: 'self_reported' | 'employer_verified' }>;
  photo: string | null; verification_status: 'unverified' | 'pending' | 'verified';
  background_check_status: 'not_started' | 'pending' | 'clear' | 'review' | 'adverse' | 'expired';
  profile_updated_at: string;
}
interface AssignmentOut {
  assignment_id: string; crew_unique_id: string; vessel_id: string; role: string; position_name: string | null;
  status: AssignmentStatus; as_of: string;
}
interface ConsentOut { crew_unique_id: string; partner_id: string; categories: string[] }

// ---------------------------------------------------------------------------------------------
// Crew and documents

const PREVIOUS_EMPLOYERS = [
  'Baltic Reefer Management', 'Pacific Basin Crewing Services', 'Island Offshore Services', 'Stella Maris Shipmanagement',
  'Caravel Tankers Ltd.', 'Orient Star Container Lines', 'Westfjord Coastal Shipping', 'Adriatic Bulk Carriers',
  'Coral Sea Ship Management', 'Hanseatic Crew Services',
];
const PREVIOUS_VESSELS = [
  'Baltic Frost', 'Pacific Venture', 'Island Vanguard', 'Stella Nova', 'Caravel Pride', 'Orient Harmony', 'Westfjord',
  'Adriatic Sun', 'Coral Princess', 'Hanse Trader', 'Ocean Fortune', 'Golden Bay', 'Cape Horizon', 'Polar Wind',
];
const JUNIOR: Record<string, string> = {
  master: 'chief_officer', chief_officer: 'second_officer', second_officer: 'third_officer', third_officer: 'deck_cadet',
  chief_engineer: 'second_engineer', second_engineer: 'third_engineer', third_engineer: 'engine_cadet', eto: 'electrician',
  bosun: 'able_seafarer_deck', able_seafarer_deck: 'ordinary_seafarer', ordinary_seafarer: 'deck_cadet',
  oiler: 'wiper', motorman: 'wiper', cook: 'messman', deck_cadet: 'deck_cadet', engine_cadet: 'engine_cadet',
};
const VERIFICATION_CYCLE: CrewOut['verification_status'][] = ['verified', 'verified', 'pending', 'verified', 'verified', 'unverified', 'verified'];
const BACKGROUND_CYCLE: CrewOut['background_check_status'][] = [
  'clear', 'clear', 'pending', 'clear', 'not_started', 'clear', 'review', 'clear', 'clear', 'expired', 'clear', 'adverse', 'clear', 'pending', 'clear',
];

interface CrewPlan {
  id: string; num: string; slot: Slot; vessel: VesselOut | null; country: Country; residence: Country;
  assignments: Array<{ vessel: VesselOut; role: string; status: AssignmentStatus; coverDocs: boolean }>;
}

interface Built {
  crew: CrewOut[]; assignments: AssignmentOut[]; consents: ConsentOut[]; documents: DocOut[];
  plans: CrewPlan[];
}

function buildPeople(vessels: readonly VesselOut[]): Built {
  const vById = new Map(vessels.map((v) => [v.vessel_id, v]));
  const employerName = new Map(EMPLOYERS.map((e) => [e.employer_id, e.name]));
  const plans: CrewPlan[] = [];
  let n = 0;
  for (const group of ROSTER) {
    for (const slot of group.slots) {
      n++;
      const num = String(n).padStart(4, '0');
      const r = new Rng(`nat:${num}`);
      const officer = OFFICERS.includes(slot.role);
      const nat = slot.nat ?? r.pick(officer ? group.pool.officers : group.pool.ratings);
      const vessel = group.vessel ? vById.get(group.vessel)! : null;
      const assignments = vessel ? [{ vessel, role: slot.role, status: slot.status ?? 'active' as AssignmentStatus, coverDocs: true }] : [];
      for (const a of slot.also ?? []) assignments.push({ vessel: vById.get(a.vessel)!, role: a.role ?? slot.role, status: a.status, coverDocs: a.coverDocs ?? false });
      plans.push({ id: `crew_${num}`, num, slot, vessel, country: COUNTRIES[nat]!, residence: COUNTRIES[slot.res ?? nat]!, assignments });
    }
  }

  const emails = new Set<string>();
  const usedNames = new Set<string>();
  const crew: CrewOut[] = [];
  const assignmentsOut: AssignmentOut[] = [];
  const documents: DocOut[] = [];

  for (const [i, p] of plans.entries()) {
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
    const [amin, amax] = AGE[role] ?? [25, 45];
    const age = r.int(amin, amax);
    const dob = addDays(addYears(REF, -age), -r.int(0, 364));
    const years = Math.max(0, Math.min(age - 18 - r.int(0, 3), 45));
    // Email (unique, some mixed case)
    const ascii = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/Ł/g, 'L').replace(/ı/g, 'i').replace(/[^A-Za-z]/g, '');
    const domain = r.pick(['example.com', 'example.net', 'example.org', 'seafarers.example', 'crewmail.example']);
    const g = ascii(given);
    const f = ascii(family);
    const suffix = emails.has(`${g}.${f}@${domain}`.toLowerCase()) ? p.num.slice(2) : '';
    const lowerEmail = `${g}.${f}${suffix}@${domain}`.toLowerCase();
    emails.add(lowerEmail);
    // Every sixth address is stored in mixed case (the lookup is case-insensitive).
    const email = i % 6 === 2 ? `${g}.${f}${suffix}@${domain.charAt(0).toUpperCase()}${domain.slice(1)}` : lowerEmail;
    // Contact, address
    const res = p.residence;
    const phone = `+${res.dial}${res.nsn(r)}`;
    const [city, region, postal] = r.pick(res.cities);
    const noStreet = i % 8 === 5;
    const address = {
      line1: noStreet ? null : (res.code === 'PL' || res.code === 'GR' || res.code === 'CN' || res.code === 'SG' || res.code === 'MM' || res.code === 'IN' || res.code === 'GB' || res.code === 'PH' || res.code === 'ID'
        ? `${r.int(1, 240)} ${r.pick(res.streets)}` : `${r.pick(res.streets)} ${r.int(1, 120)}`),
      line2: !noStreet && r.chance(0.2) ? r.pick(['Apartment 4B', 'Flat 12', 'Block C, Unit 7', '2nd floor']) : null,
      city,
      region,
      postal_code: postal,
      country_code: res.code,
    };
    // Passport, visas
    const passportIssue = addDays(REF, -r.int(200, 3300));
    let passportExpiry = addYears(passportIssue, 10);
    if (i % 17 === 9) passportExpiry = addDays(REF, r.int(5, 28)); // renewal due soon
    const passport = { number: c.passport(r), issuing_country: c.code, expiry_date: passportExpiry };
    const visas: CrewOut['visas'] = [];
    if (r.chance(0.45)) {
      const exp = i % 11 === 4 ? addDays(REF, -r.int(20, 200)) : addDays(REF, r.int(60, 1500));
      visas.push({ type: 'C1/D crew visa', country_code: 'US', number: `${r.digits(8)}`, expiry_date: exp });
    }
    if (r.chance(0.3)) visas.push({ type: 'Schengen C (seafarer)', country_code: r.pick(['NL', 'DE', 'NO', 'GR']), number: `${r.letters(3)}${r.digits(6)}`, expiry_date: addDays(REF, r.int(30, 900)) });
    if (r.chance(0.15)) visas.push({ type: 'Maritime Crew Visa', country_code: 'AU', number: `MCV${r.digits(7)}`, expiry_date: addDays(REF, r.int(90, 1000)) });
    // Assignments
    for (const a of p.assignments) {
      const daysAgo = a.status === 'invited' ? r.int(2, 20) : a.status === 'active' ? r.int(15, 190) : a.status === 'on_leave' ? r.int(30, 140) : r.int(200, 420);
      assignmentsOut.push({
        assignment_id: `asg_${p.id}_${a.vessel.vessel_id}`,
        crew_unique_id: p.id,
        vessel_id: a.vessel.vessel_id,
        role: a.role,
        position_name: POSITION[a.role] ?? null,
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
        employer_name: r.pick(PREVIOUS_EMPLOYERS),
        vessel_name: r.chance(0.85) ? r.pick(PREVIOUS_VESSELS) : null,
        role: k === 0 ? role : JUNIOR[role] ?? role,
        start_date: start,
        end_date: end,
        source: r.chance(0.4) ? 'employer_verified' : 'self_reported',
      });
      end = addDays(start, -r.int(30, 120));
    }
    const current = p.assignments.find((a) => a.status !== 'invited' && a.status !== 'signed_off') ?? p.assignments.find((a) => a.status === 'signed_off');
    if (current) {
      const start = assignmentsOut.find((a) => a.crew_unique_id === p.id && a.vessel_id === current.vessel.vessel_id)!.as_of.slice(0, 10);
      history.push({
        employer_name: employerName.get(current.vessel.employer_id)!,
        vessel_name: current.vessel.vessel_name,
        role: current.role,
        start_date: start,
        end_date: current.status === 'signed_off' ? addDays(start, r.int(120, 180)) : null,
        source: current.status === 'signed_off' || r.chance(0.7) ? 'employer_verified' : 'self_reported',
      });
    }
    const skills = r.sample(SKILLS[skillSet(role)]!, r.int(2, 4));
    const langs = [...c.languages];
    if (r.chance(0.15)) langs.push(r.pick(['Spanish', 'Tagalog', 'German', 'Greek', 'Russian'].filter((l) => !langs.includes(l))));
    const position = POSITION[role] ?? role;
    const vesselWord = p.vessel ? p.vessel.vessel_type.replace(/_/g, ' ') : 'merchant';
    const bio = i % 13 === 7 ? null : `${position} from ${city}, ${c.name}, with ${years} year${years === 1 ? '' : 's'} at sea, mostly on ${vesselWord} vessels. ${r.pick([
      'Focused on safe, by-the-book operations.', 'Enjoys mentoring cadets and junior crew.', 'Looking for long-term contracts with a stable rotation.',
      'Interested in further training and promotion.', 'Experienced with multinational crews.', 'Known for careful maintenance records.',
    ])}`;
    crew.push({
      crew_unique_id: p.id,
      name,
      rank: POSITION[role] ?? null,
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
      verification_status: VERIFICATION_CYCLE[i % VERIFICATION_CYCLE.length]!,
      background_check_status: BACKGROUND_CYCLE[i % BACKGROUND_CYCLE.length]!,
      profile_updated_at: stamp(addDays(REF, -r.int(1, 240)), r),
    });

    documents.push(...buildDocuments(p, crew[crew.length - 1]!, i));
  }

  return { crew, assignments: assignmentsOut, consents: buildConsents(plans, vessels), documents, plans };
}

// Fault parsing
function faultsOf(slot: Slot): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const f of slot.faults ?? []) {
    const [kind, key = ''] = f.split(':');
    if (!m.has(key)) m.set(key, new Set());
    m.get(key)!.add(kind!);
  }
  return m;
}

function buildDocuments(p: CrewPlan, person: CrewOut, index: number): DocOut[] {
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

  // Requirement keys to cover: primary vessel, plus further assignments marked coverDocs.
  const covered = p.assignments.filter((a) => a.coverDocs);
  const keys = new Set<string>();
  const targets = covered.length > 0 ? covered : [{ vessel: null as VesselOut | null, role }];
  for (const a of targets) for (const k of requirementKeys(role, a.vessel?.vessel_type ?? null)) keys.add(k);
  if (!(ROLES as readonly string[]).includes(role)) for (const k of ['medical_fitness', 'drug_alcohol_test', 'bst', 'security_awareness']) keys.add(k);
  const flags = new Set(covered.map((a) => a.vessel.flag_state));

  const issuerOf = (t: Template, flag?: string): string | null => {
    switch (t.issuer) {
      case 'training': return r.pick(nat.training);
      case 'clinic': return r.pick(nat.clinics);
      case 'admin': return nat.maritimeAdmin;
      case 'passport': return nat.passportAuthority;
      case 'flag': return FLAG_ADMIN[flag ?? ''] ?? null;
      case 'company': return null;
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

  interface Opts {
    idSuffix: string; template: Template; title?: string; issue: string | null; expiry: string | null; noExpiry: boolean;
    verification?: DocOut['verification_status']; review?: DocOut['review_status']; state?: ProcessingState;
    isCurrent?: boolean; isLive?: boolean; supersededBy?: string | null; flag?: string | null; caps?: CapacityOut[];
    reg?: string | null; level?: string | null; number?: string | null; issuer?: string | null; file?: string | null;
    sources?: string[];
  }
  const make = (o: Opts): DocOut => {
    const id = `doc_${p.num}_${o.idSuffix}`;
    if (usedIds.has(id)) throw new Error(`duplicate document id ${id}`);
    usedIds.add(id);
    const t = o.template;
    const state = o.state ?? 'processed';
    const processed = state === 'processing' || state === 'placeholder' ? null : processedAt(o.issue);
    const updated = processed ?? stamp(addDays(REF, -r.int(1, 6)), r);
    const sources = o.sources ?? (state === 'legacy' ? ['legacy_import']
      : state === 'placeholder' ? ['crew_declaration']
        : t.docClass === 'coc' || t.docClass === 'endorsement' ? ['document_scan', 'issuer_registry']
          : r.chance(0.15) ? ['document_scan', 'manual_entry'] : ['document_scan']);
    const doc: DocOut = {
      document_id: id,
      crew_unique_id: p.id,
      type: t.type,
      category: t.category,
      title: o.title ?? t.title,
      issuer: o.issuer !== undefined ? o.issuer : (index % 23 === 11 && r.chance(0.5)) ? null : issuerOf(t, o.flag ?? undefined),
      verification_status: o.verification ?? (state === 'placeholder' || state === 'processing' || state === 'rejected' ? 'unverified' : 'verified'),
      review_status: o.review ?? (state === 'rejected' ? 'flagged' : state === 'processing' || state === 'placeholder' ? 'pending' : 'approved'),
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
    const onlyState: ProcessingState | undefined = has('rejectedonly', key) ? 'rejected' : has('placeholder', key) ? 'placeholder'
      : has('processingonly', key) ? 'processing' : has('legacyonly', key) ? 'legacy' : undefined;
    const placeholder = onlyState === 'placeholder';
    const main = make({
      idSuffix: suffix, template: t, ...d,
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
          ...extra, idSuffix: `${suffix}_${issue.slice(0, 4)}`, template: t, issue,
          expiry: t.validity === null ? null : addDays(addYears(issue, validity), r.int(0, 20)),
          noExpiry: t.validity === null, isCurrent: false, supersededBy: next.document_id,
        });
        next = old;
      }
    }
    if (has('dup', key)) {
      make({ ...extra, idSuffix: `${suffix}_dup`, template: t, issue: main.issue_date, expiry: main.expiry_date, noExpiry: main.no_expiry, number: main.document_number, issuer: main.issuer, state: 'duplicate' });
    }
    if (has('rejected', key)) {
      make({ ...extra, idSuffix: `${suffix}_rejected`, template: t, issue: null, expiry: null, noExpiry: false, number: null, state: 'rejected', file: 'files/visa-scan.png' });
    }
    if (has('placeholder+', key)) {
      make({ ...extra, idSuffix: `${suffix}_placeholder`, template: t, title: `${extra.title ?? t.title} (placeholder)`, issue: null, expiry: null, noExpiry: false, number: null, verification: 'unverified', review: 'pending', state: 'placeholder' });
    }
    if (has('processing', key)) {
      const issue = addDays(REF, -r.int(1, 6));
      make({ ...extra, idSuffix: `${suffix}_renewal`, template: t, issue, expiry: t.validity === null ? null : addYears(issue, validity), noExpiry: t.validity === null, state: 'processing' });
    }
    if (has('legacy', key)) {
      const issue = addYears(main.issue_date ?? addDays(REF, -400), -validity);
      make({ ...extra, idSuffix: `${suffix}_legacy`, template: t, issue, expiry: t.validity === null ? null : addYears(issue, validity), noExpiry: t.validity === null, state: 'legacy', review: 'approved' });
    }
    if (has('withdrawn', key)) {
      make({ ...extra, idSuffix: `${suffix}_withdrawn`, template: t, issue: main.issue_date, expiry: main.expiry_date, noExpiry: main.no_expiry, isLive: false });
    }
    return main;
  };

  // Medical
  for (const key of ['medical_fitness', 'drug_alcohol_test']) if (keys.has(key)) certificate(key, TEMPLATES[key]!);

  // Basic safety training
  if (keys.has('bst')) {
    const variant = slot.bst
      ?? ([...faults.keys()].some((k) => k.startsWith('bst_')) ? 'modules' : faults.has('bst') ? 'combined'
        : index % 7 === 3 ? 'refresher' : r.chance(0.4) ? 'modules' : 'combined');
    if (variant === 'combined') certificate('bst', TEMPLATES.bst!);
    else if (variant === 'modules') for (const m of ['bst_pst', 'bst_fpff', 'bst_efa', 'bst_pssr']) certificate(m, TEMPLATES[m]!);
    else {
      certificate('bst_efa', TEMPLATES.bst_efa!);
      certificate('bst_pssr', TEMPLATES.bst_pssr!);
      const refresher = certificate('bst_refresher', TEMPLATES.bst_refresher!)!;
      // The original PST and FPFF certificates, replaced by the refresher.
      for (const m of ['bst_pst', 'bst_fpff']) {
        const issue = addYears(refresher.issue_date!, -5);
        make({ idSuffix: `${m}_${issue.slice(0, 4)}`, template: TEMPLATES[m]!, issue, expiry: addYears(issue, 5), noExpiry: false, isCurrent: false, supersededBy: refresher.document_id });
      }
    }
  }

  // Security: DSD for those who need it, SSO for master and chief officer, awareness otherwise.
  if (keys.has('security_awareness')) {
    if (keys.has('dsd') && !has('missing', 'dsd')) certificate('dsd', TEMPLATES.dsd!);
    else if (['master', 'chief_officer'].includes(role)) certificate('sso', TEMPLATES.sso!);
    else certificate('security_awareness', TEMPLATES.security_awareness!);
  }
  for (const key of ['pscrb', 'aff', 'mfa', 'medical_care', 'tanker_basic', 'tanker_advanced_oil']) if (keys.has(key)) certificate(key, TEMPLATES[key]!);

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
          idSuffix: `flag_endorsement_${endorsementFlag.toLowerCase()}`, template: t,
          title: `Endorsement Attesting Recognition of a Certificate (STCW I/10): ${endorsementFlag}`,
          issue, expiry, noExpiry: false,
          flag: endorsementFlag, issuer: FLAG_ADMIN[endorsementFlag] ?? null, level: coc.level,
        });
      }
    }
  }
  for (const key of ['gmdss_goc', 'ecdis', 'brm', 'erm', 'ships_cook']) {
    if (keys.has(key)) certificate(key, TEMPLATES[key]!, key === 'gmdss_goc' ? { flag: nat.code } : {});
  }
  if (keys.has('cop_rating')) {
    const code = COP_CODE[role]!;
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
      title: `Passport (${nat.name})`, issue: addYears(pp.expiry_date, -10), expiry: pp.expiry_date, noExpiry: false,
      number: pp.number, issuer: nat.passportAuthority, flag: null,
      review: index % 19 === 6 ? 'flagged' : undefined,
      verification: index % 10 === 7 ? 'pending' : undefined,
    });
  }
  if (index % 4 !== 1) {
    const noRecord = index % 12 === 6;
    const issue = addDays(REF, -r.int(300, 3000));
    make({
      idSuffix: 'seaman_book', template: TEMPLATES.seaman_book!, issue, expiry: noRecord ? null : addYears(issue, 10), noExpiry: false,
      review: index % 15 === 8 ? 'flagged' : undefined,
      verification: index % 14 === 3 ? 'unverified' : undefined,
    });
  }
  for (const [k, v] of person.visas.entries()) {
    if (index % 3 === 0) break;
    make({
      idSuffix: `visa_${v.country_code.toLowerCase()}${k > 0 ? `_${k}` : ''}`, template: TEMPLATES.visa!, title: `Visa: ${v.type} (${v.country_code})`,
      issue: addYears(v.expiry_date, -(v.country_code === 'US' ? 5 : 3)), expiry: v.expiry_date, noExpiry: false, number: v.number,
      issuer: v.country_code === 'US' ? 'U.S. Department of State' : v.country_code === 'AU' ? 'Australian Department of Home Affairs' : `Consulate of ${v.country_code}`,
      review: index % 16 === 10 ? 'flagged' : undefined,
    });
  }
  if (index % 4 === 2) {
    const issue = addDays(REF, -r.int(100, 1500));
    make({ idSuffix: 'sea_service', template: TEMPLATES.other!, issue, expiry: null, noExpiry: true, issuer: r.pick(PREVIOUS_EMPLOYERS), flag: null });
  }
  return out;
}

function consentCategories(c: Consent): string[] | null {
  switch (c) {
    case 'all': return ['status', 'profile', 'documents', 'compliance'];
    case 'no_status': return ['profile', 'documents', 'compliance'];
    case 'no_profile': return ['status', 'documents', 'compliance'];
    case 'no_documents': return ['status', 'profile', 'compliance'];
    case 'no_compliance': return ['status', 'profile', 'documents'];
    case 'status_only': return ['status'];
    case 'none': return null;
  }
}

function buildConsents(plans: readonly CrewPlan[], vessels: readonly VesselOut[]): ConsentOut[] {
  const fleets = new Map(PARTNERS.map((p) => [p.partner_id, new Set(partnerFleet(p, vessels))]));
  const out: ConsentOut[] = [];
  for (const plan of plans) {
    const partners = PARTNERS.filter((p) => plan.assignments.some((a) => fleets.get(p.partner_id)!.has(a.vessel.vessel_id))).map((p) => p.partner_id);
    if (plan.assignments.length === 0) partners.push('ptn_northsea_mgmt');
    for (const pid of partners) {
      const cats = consentCategories(plan.slot.consentFor?.[pid] ?? plan.slot.consent ?? 'all');
      if (cats) out.push({ crew_unique_id: plan.id, partner_id: pid, categories: cats });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Expected compliance (mirror of docs/compliance-rules.md, docs/decisions.md §6, for the summary)

type Status = 'met' | 'expiring' | 'expired' | 'missing' | 'pending';
const SEVERITY: Record<Status, number> = { met: 0, expiring: 1, pending: 2, expired: 3, missing: 4 };

function listable(d: DocOut): boolean { return d.processing_state === 'processed' && d.is_current && d.is_live; }

function assess(cands: readonly DocOut[], capExpiry: string | null = null): Status {
  if (cands.length === 0) return 'missing';
  const valid = cands.filter((d) => d.verification_status === 'verified' && d.review_status === 'approved' && (d.no_expiry || d.expiry_date !== null));
  if (valid.length === 0) return 'pending';
  const expiryOf = (d: DocOut) => {
    let e = d.no_expiry ? null : d.expiry_date;
    if (capExpiry && (e === null || e > capExpiry)) e = capExpiry;
    return e;
  };
  const expiries = valid.map(expiryOf);
  if (expiries.includes(null)) return 'met';
  const best = (expiries as string[]).reduce((a, b) => (a > b ? a : b));
  if (best < REF) return 'expired';
  return best <= addDays(REF, 90) ? 'expiring' : 'met';
}

function covers(c: CapacityOut, role: string, v: VesselOut): boolean {
  const rank: Record<string, [string, number]> = {
    master: ['deck', 3], chief_officer: ['deck', 2], second_officer: ['deck', 1], third_officer: ['deck', 1],
    chief_engineer: ['engine', 3], second_engineer: ['engine', 2], third_engineer: ['engine', 1],
  };
  const held = rank[c.role];
  const want = rank[role];
  const roleOk = c.role === role || (!!held && !!want && held[0] === want[0] && held[1] >= want[1]);
  return roleOk && (c.gt_max === null || c.gt_max >= v.gross_tonnage)
    && (c.kw_max === null || c.power_unrestricted || c.kw_max >= v.propulsion_kw)
    && (c.vessel_types.length === 0 || c.vessel_types.includes(v.vessel_type))
    && (c.area === 'unlimited' || (c.area === 'near_coastal' && v.trading_area === 'near_coastal'));
}

export function expectedCompliance(role: string, v: VesselOut, docs: readonly DocOut[]): { overall: string; rows: Record<string, Status> } {
  if (!(ROLES as readonly string[]).includes(role)) return { overall: 'no_role', rows: {} };
  const live = docs.filter(listable);
  const byCode = (codes: string[]) => live.filter((d) => codes.includes(d.classification.category_code));
  const rows: Record<string, Status> = {};
  let cocBest: DocOut | null = null;
  for (const key of requirementKeys(role, v.vessel_type)) {
    if (key === 'bst') {
      let worst: Status = 'met';
      for (const code of ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4']) {
        const s = assess(live.filter((d) => d.classification.stcw_codes.includes(code)));
        if (SEVERITY[s] > SEVERITY[worst]) worst = s;
      }
      rows[key] = worst;
    } else if (key === 'security_awareness') rows[key] = assess(byCode(['security_awareness', 'dsd', 'sso']));
    else if (key === 'coc') {
      const held = byCode(['coc']).filter((d) => d.classification.coc_capacities.some((c) => covers(c, role, v)));
      rows[key] = assess(held);
      const valid = held.filter((d) => d.verification_status === 'verified' && d.review_status === 'approved');
      const pool = valid.length > 0 ? valid : held;
      cocBest = [...pool].sort((a, b) => (b.expiry_date ?? '').localeCompare(a.expiry_date ?? ''))[0] ?? null;
    } else if (key === 'flag_endorsement') {
      if (!cocBest || !cocBest.classification.flag_state || cocBest.classification.flag_state === v.flag_state) continue;
      rows[key] = assess(byCode(['flag_endorsement']).filter((d) => d.classification.flag_state === v.flag_state), cocBest.no_expiry ? null : cocBest.expiry_date);
    } else if (key === 'cop_rating') rows[key] = assess(byCode([COP_CODE[role]!]));
    else rows[key] = assess(byCode([key]));
  }
  const statuses = Object.values(rows);
  const overall = statuses.some((s) => s === 'expired' || s === 'missing') ? 'non_compliant'
    : statuses.some((s) => s === 'expiring' || s === 'pending') ? 'at_risk' : 'compliant';
  return { overall, rows };
}

// ---------------------------------------------------------------------------------------------
// Checks

function check(data: Record<string, any>, outDir: string): string[] {
  const errors: string[] = [];
  const [err] = validate(data, FixtureFile);
  if (err) for (const f of err.failures()) errors.push(`schema: ${f.path.join('.')}: ${f.message}`);

  const ids = (arr: any[], key: string, what: string) => {
    const s = new Set<string>();
    for (const x of arr) {
      if (s.has(x[key])) errors.push(`duplicate ${what} id ${x[key]}`);
      s.add(x[key]);
    }
    return s;
  };
  const employers = ids(data.employers, 'employer_id', 'employer');
  const vessels = ids(data.vessels, 'vessel_id', 'vessel');
  const partners = ids(data.partners, 'partner_id', 'partner');
  const crew = ids(data.crew, 'crew_unique_id', 'crew');
  ids(data.documents, 'document_id', 'document');
  ids(data.assignments, 'assignment_id', 'assignment');
  for (const v of data.vessels) {
    if (!employers.has(v.employer_id)) errors.push(`vessel ${v.vessel_id}: unknown employer ${v.employer_id}`);
    if (v.imo !== null && !isValidImo(v.imo)) errors.push(`vessel ${v.vessel_id}: invalid IMO ${v.imo}`);
    if (v.mmsi !== null && !isValidMmsi(v.mmsi)) errors.push(`vessel ${v.vessel_id}: invalid MMSI ${v.mmsi}`);
  }
  const imos = data.vessels.map((v: any) => v.imo).filter(Boolean);
  if (new Set(imos).size !== imos.length) errors.push('duplicate IMO numbers');
  for (const p of data.partners) {
    if (p.kind === 'customer') {
      if (!p.employer_id || !employers.has(p.employer_id)) errors.push(`partner ${p.partner_id}: unknown employer ${p.employer_id}`);
      if (!p.tier) errors.push(`partner ${p.partner_id}: customer without tier`);
    } else {
      if (!p.contract_scopes) errors.push(`partner ${p.partner_id}: external without contract_scopes`);
      for (const v of p.contract_vessel_ids ?? []) if (!vessels.has(v)) errors.push(`partner ${p.partner_id}: unknown contract vessel ${v}`);
    }
  }
  const pairs = new Set<string>();
  for (const a of data.assignments) {
    if (!crew.has(a.crew_unique_id)) errors.push(`assignment ${a.assignment_id}: unknown crew`);
    if (!vessels.has(a.vessel_id)) errors.push(`assignment ${a.assignment_id}: unknown vessel`);
    const k = `${a.crew_unique_id}|${a.vessel_id}`;
    if (pairs.has(k)) errors.push(`more than one assignment for ${k}`);
    pairs.add(k);
  }
  const consentPairs = new Set<string>();
  for (const c of data.consents) {
    if (!crew.has(c.crew_unique_id)) errors.push(`consent: unknown crew ${c.crew_unique_id}`);
    if (!partners.has(c.partner_id)) errors.push(`consent: unknown partner ${c.partner_id}`);
    const k = `${c.crew_unique_id}|${c.partner_id}`;
    if (consentPairs.has(k)) errors.push(`duplicate consent ${k}`);
    consentPairs.add(k);
  }
  const docOwner = new Map<string, string>(data.documents.map((d: any) => [d.document_id, d.crew_unique_id]));
  for (const d of data.documents) {
    if (!crew.has(d.crew_unique_id)) errors.push(`document ${d.document_id}: unknown crew`);
    if (d.superseded_by) {
      if (docOwner.get(d.superseded_by) !== d.crew_unique_id) errors.push(`document ${d.document_id}: superseded_by ${d.superseded_by} is not a document of the same crew`);
      if (d.is_current) errors.push(`document ${d.document_id}: superseded but is_current`);
    }
    if (d.no_expiry && d.expiry_date !== null) errors.push(`document ${d.document_id}: no_expiry with an expiry date`);
    if (d.issue_date && d.expiry_date && d.issue_date > d.expiry_date) errors.push(`document ${d.document_id}: issued after expiry`);
    if (d.issue_date && d.issue_date > REF) errors.push(`document ${d.document_id}: issued after the reference date`);
    if (d.file && !existsSync(join(outDir, d.file))) errors.push(`document ${d.document_id}: missing file ${d.file}`);
  }
  const emails = new Set<string>();
  for (const c of data.crew) {
    if (c.photo && !existsSync(join(outDir, c.photo))) errors.push(`crew ${c.crew_unique_id}: missing photo ${c.photo}`);
    if (c.email) {
      const e = c.email.trim().toLowerCase();
      if (emails.has(e)) errors.push(`crew ${c.crew_unique_id}: duplicate email ${c.email}`);
      emails.add(e);
    }
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Summary of the interesting cases

function summary(data: Record<string, any>, built: Built): string {
  const lines: string[] = [];
  const docs: DocOut[] = data.documents;
  const vessels: VesselOut[] = data.vessels;
  const vById = new Map(vessels.map((v) => [v.vessel_id, v]));
  const docsOf = new Map<string, DocOut[]>();
  for (const d of docs) {
    if (!docsOf.has(d.crew_unique_id)) docsOf.set(d.crew_unique_id, []);
    docsOf.get(d.crew_unique_id)!.push(d);
  }
  const list = (xs: string[], max = 12) => `${xs.slice(0, max).join(', ')}${xs.length > max ? `, … (${xs.length} in all)` : ` (${xs.length})`}`;
  lines.push(`counts: employers ${data.employers.length}, partners ${data.partners.length}, vessels ${data.vessels.length}, crew ${data.crew.length}, assignments ${data.assignments.length}, consents ${data.consents.length}, documents ${docs.length}`);

  lines.push('', 'partners:');
  for (const p of data.partners as PartnerOut[]) {
    const fleet = partnerFleet(p, vessels);
    const live = fleet.filter((v) => !vById.get(v)!.is_test);
    const test = fleet.filter((v) => vById.get(v)!.is_test);
    lines.push(`  ${p.partner_id}: ${p.kind}${p.tier ? ` tier=${p.tier}` : ''}${p.scope_overrides ? ` scope_overrides=[${p.scope_overrides.join(', ')}] upgraded=${p.upgraded}` : ''}${p.contract_scopes ? ` contract_scopes=[${p.contract_scopes.join(', ')}]` : ''}; live vessels [${live.join(', ')}]; test vessels [${test.join(', ')}]`);
  }

  const isListed = (d: DocOut) => listable(d);
  const cases: Array<[string, (d: DocOut) => boolean]> = [
    ['listable, valid > 90 days', (d) => isListed(d) && !d.no_expiry && !!d.expiry_date && d.expiry_date > addDays(REF, 90) && d.verification_status === 'verified' && d.review_status === 'approved'],
    ['listable, expired', (d) => isListed(d) && !!d.expiry_date && d.expiry_date < REF],
    ['listable, expiring within 30 days', (d) => isListed(d) && !!d.expiry_date && d.expiry_date >= REF && d.expiry_date <= addDays(REF, 30)],
    ['listable, expiring in 31-90 days', (d) => isListed(d) && !!d.expiry_date && d.expiry_date > addDays(REF, 30) && d.expiry_date <= addDays(REF, 90)],
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
    ['BST single certificate with all 4 codes', (d) => d.classification.category_code === 'bst' && d.classification.stcw_codes.length === 4],
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
  for (const a of data.assignments as AssignmentOut[]) {
    const v = vById.get(a.vessel_id)!;
    const res = expectedCompliance(a.role, v, docsOf.get(a.crew_unique_id) ?? []);
    if (a.status !== 'signed_off') tally[`${v.is_test ? 'test' : 'live'} ${res.overall}`] = (tally[`${v.is_test ? 'test' : 'live'} ${res.overall}`] ?? 0) + 1;
    const bad = Object.entries(res.rows).filter(([, s]) => s !== 'met').map(([k, s]) => `${k}=${s}`);
    const plan = built.plans.find((p) => p.id === a.crew_unique_id)!;
    lines.push(`  ${a.crew_unique_id} ${a.vessel_id} ${a.role} ${a.status}: ${res.overall}${bad.length ? ` [${bad.join(', ')}]` : ''}${plan.slot.note ? `; ${plan.slot.note}` : ''}`);
  }
  lines.push(`  tally (excluding signed_off): ${JSON.stringify(tally)}`);

  lines.push('', 'consent variants (crew: partner -> categories):');
  const consents = data.consents as ConsentOut[];
  for (const p of built.plans) {
    const mine = consents.filter((c) => c.crew_unique_id === p.id);
    const partnersSeeing = PARTNERS.filter((x) => p.assignments.some((a) => partnerFleet(x, vessels).includes(a.vessel.vessel_id))).map((x) => x.partner_id);
    const full = mine.length === partnersSeeing.length && mine.every((c) => c.categories.length === 4);
    if (full && p.assignments.length > 0) continue;
    const missing = partnersSeeing.filter((x) => !mine.some((c) => c.partner_id === x));
    lines.push(`  ${p.id}: ${mine.map((c) => `${c.partner_id} -> [${c.categories.join(',')}]`).join('; ') || '(no records)'}${missing.length ? `; no record for ${missing.join(', ')}` : ''}`);
  }

  lines.push('', 'crew on more than one vessel:');
  for (const p of built.plans.filter((x) => x.assignments.length > 1)) {
    lines.push(`  ${p.id}: ${p.assignments.map((a) => `${a.vessel.vessel_id} (${a.role}, ${a.status})`).join(' + ')}`);
  }
  lines.push('', 'crew without a fleet entry: ' + built.plans.filter((p) => p.assignments.every((a) => a.status === 'signed_off')).map((p) => p.id).join(', '));
  const crew = data.crew as CrewOut[];
  lines.push('', `mixed-case emails: ${list(crew.filter((c) => c.email && c.email !== c.email.toLowerCase()).map((c) => `${c.crew_unique_id}=${c.email}`), 6)}`);
  lines.push(`crew without email: ${crew.filter((c) => !c.email).map((c) => c.crew_unique_id).join(', ')}`);
  lines.push(`crew without photo: ${list(crew.filter((c) => !c.photo).map((c) => c.crew_unique_id), 40)}`);
  lines.push(`crew with JPEG photo: ${list(crew.filter((c) => c.photo?.endsWith('.jpg')).map((c) => c.crew_unique_id), 40)}`);
  lines.push(`address line1 null: ${list(crew.filter((c) => c.address && c.address.line1 === null).map((c) => c.crew_unique_id), 40)}`);
  for (const s of ['not_started', 'pending', 'clear', 'review', 'adverse', 'expired']) {
    lines.push(`background_check_status ${s}: ${list(crew.filter((c) => c.background_check_status === s).map((c) => c.crew_unique_id), 30)}`);
  }
  for (const s of ['unverified', 'pending', 'verified']) {
    lines.push(`verification_status ${s}: ${list(crew.filter((c) => c.verification_status === s).map((c) => c.crew_unique_id), 30)}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

function dirSize(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    const s = statSync(p);
    total += s.isDirectory() ? dirSize(p) : s.size;
  }
  return total;
}

function main(): void {
  const args = process.argv.slice(2);
  const here = dirname(fileURLToPath(import.meta.url));
  const outIdx = args.indexOf('--out');
  const outDir = resolve(outIdx >= 0 && args[outIdx + 1] ? args[outIdx + 1]! : join(here, '..', 'fixtures'));

  const vessels = buildVessels();
  const built = buildPeople(vessels);
  const data = {
    $comment: `Generated by scripts/make-demo-fixtures.ts (deterministic; reference date ${REF}). Do not edit by hand: change the script and run \`node --import tsx scripts/make-demo-fixtures.ts\`.`,
    employers: EMPLOYERS,
    partners: PARTNERS,
    vessels,
    crew: built.crew,
    assignments: built.assignments,
    consents: built.consents,
    documents: built.documents,
  };

  rmSync(join(outDir, 'files'), { recursive: true, force: true });
  for (const f of buildFiles()) {
    const path = join(outDir, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.bytes);
  }
  mkdirSync(outDir, { recursive: true });
  const json = `${JSON.stringify(data, null, 2)}\n`;
  writeFileSync(join(outDir, 'demo.json'), json);

  const errors = check(JSON.parse(json), outDir);
  const fileBytes = dirSize(join(outDir, 'files'));
  console.log(`wrote ${join(outDir, 'demo.json')} (${json.length} bytes) and ${join(outDir, 'files')} (${fileBytes} bytes)`);
  if (args.includes('--summary')) console.log(summary(data, built));
  if (errors.length > 0) {
    for (const e of errors) console.error(`FAIL ${e}`);
    process.exitCode = 1;
  } else {
    console.log('check: schema, references, identifiers and files OK');
  }
}

main();
