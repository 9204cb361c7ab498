import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import type { ChangeResult } from '../../src/domain/ingest-change.ts';
import type { Incoming } from '../../src/services/ingest/apply-changes.ts';
import { folderFiles } from '../../src/services/ingest/file-source.ts';
import { ingestStream } from '../../src/services/ingest/ingest-stream.ts';
import { describeEachStore } from '../support/stores.ts';

/** The JSON lines of the code blocks of docs/ingest.md's "The change format", in order. */
function documentedChanges(): Incoming[] {
  const page = readFileSync('docs/ingest.md', 'utf8');
  const section = page.slice(page.indexOf('## The change format'), page.indexOf('\n## ', page.indexOf('## The change format') + 1));
  const lines = [...section.matchAll(/^```json\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1]!.split('\n').filter((l) => l.trim() !== ''));
  return lines.map((text, i) => ({ origin: `docs/ingest.md example ${i + 1}`, text }));
}

async function* stream(items: Incoming[]) {
  yield* items;
}

describeEachStore("docs/ingest.md: the change format's examples", ({ store }) => {
  it('are applied in order on a migrated store, each repeat of a version stale, none held or rejected', async () => {
    const changes = documentedChanges();
    assert.ok(changes.length >= 12, `only ${changes.length} example changes found`);
    const entities = new Set(changes.map((c) => (JSON.parse(c.text) as { entity: string }).entity));
    assert.deepEqual([...entities].sort(), ['assignment', 'consent', 'crew', 'document', 'employer', 'partner', 'requirement', 'vessel']);
    // Expected independently of the code: a change is stale when its entity, id and version came before.
    const seen = new Set<string>();
    const expected = changes.map((c) => {
      const { entity, id, version } = JSON.parse(c.text) as { entity: string; id: unknown; version: number };
      const key = JSON.stringify([entity, id, version]);
      const outcome = seen.has(key) ? 'stale' : 'applied';
      seen.add(key);
      return outcome;
    });
    const results: ChangeResult[] = [];
    await ingestStream(
      store().db,
      stream(changes),
      {
        clock: () => new Date('2026-11-22T10:00:00.000Z'),
        holdMs: 3_600_000,
        files: folderFiles('fixtures/files'),
      },
      { onResults: (r) => results.push(...r) },
    );
    assert.deepEqual(
      results.map((r) => r.outcome),
      expected,
      JSON.stringify(
        results.filter((r) => r.outcome !== 'applied'),
        null,
        1,
      ),
    );
  });
});
