import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ROLES } from '../../src/domain/catalogue.ts';
import { ALL_SCOPES, FULL_TIER_SCOPES } from '../../src/domain/scopes.ts';
import { BACKGROUND_CHECK_STATUSES, EVENT_TYPES, REVIEW_STATUSES, VERIFICATION_STATUSES } from '../../src/domain/vocabulary.ts';

/*
 * The contract, decisions and rules pages are what the repository promises; these checks fail when
 * a vocabulary or the shipped catalogue changes and the page that states it does not.
 */

const page = (name: string) => readFileSync(`docs/${name}`, 'utf8');

/** The rows of the first table after `heading`, as arrays of trimmed cells. */
function tableAfter(text: string, heading: string): string[][] {
  const from = text.indexOf(heading);
  assert.ok(from >= 0, `heading ${heading}`);
  const lines = text.slice(from).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** Names in backticks within one cell: "`a`, `b`" → ['a', 'b']. */
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('docs agree with the code', () => {
  it('docs/compliance-rules.md tables the catalogue of data/requirements.json: keys, groups, order', () => {
    const { requirements } = JSON.parse(readFileSync('data/requirements.json', 'utf8')) as {
      requirements: Array<{ key: string; group: string }>;
    };
    const rows = tableAfter(page('compliance-rules.md'), '## The catalogue');
    assert.deepEqual(
      rows.map((r) => [ticked(r[0]!)[0], r[1]]),
      requirements.map((r) => [r.key, r.group]),
    );
  });

  it('docs/compliance-rules.md names every role', () => {
    const rows = tableAfter(page('compliance-rules.md'), '## Roles');
    assert.deepEqual(
      rows.flatMap((r) => ticked(r[1]!)),
      [...ROLES],
    );
  });

  it('docs/contract.md lists every scope and every event type', () => {
    const contract = page('contract.md');
    assert.deepEqual(
      tableAfter(contract, '### Scopes').flatMap((r) => ticked(r[0]!)),
      [...ALL_SCOPES],
    );
    assert.deepEqual(
      tableAfter(contract, '### Catalogue (v1) and payloads').map((r) => ticked(r[0]!)[0]),
      [...EVENT_TYPES],
    );
  });

  it("docs/decisions.md states the vocabularies and the full tiers' scopes the code uses", () => {
    const decisions = page('decisions.md');
    const section = (from: string, to: string) => decisions.slice(decisions.indexOf(from), decisions.indexOf(to));
    const sentence = (from: string) => decisions.slice(decisions.indexOf(from)).split('.\n')[0]!;
    assert.deepEqual(ticked(sentence('**`background_check_status`** is one of')).slice(1), [...BACKGROUND_CHECK_STATUSES]);
    const documents = section('## 5. Documents and files', '## 6. Compliance');
    for (const v of [...VERIFICATION_STATUSES, ...REVIEW_STATUSES]) assert.ok(documents.includes(`\`${v}\``), v);
    const tiers = section('- a customer partner on tier `management`', '- a customer partner on tier `basic`');
    assert.deepEqual(
      ticked(tiers).filter((s) => s.includes(':')),
      [...FULL_TIER_SCOPES],
    );
  });
});
