import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PG_ADMIN_URL, postgresRuns } from '../support/stores.ts';

/**
 * The parts of pg's internals src/store/dialects/pg-prepared.ts relies on, checked on the
 * installed pg so that an upgrade that changes them fails here, by name, rather than as slow or
 * failing queries. pg also records names it sent a Parse for and has no answer to yet
 * (`connection.submittedNamedStatements`) and skips Parse for those too; pg-prepared.ts neither
 * reads nor writes that record: a name it closed is never used again on its connection.
 */
const { version } = createRequire(import.meta.url)('pg/package.json') as { version: string };

interface Internals {
  connection: NodeJS.EventEmitter & { parsedStatements: Record<string, string>; parse(message: { name?: string }): void };
  getTransactionStatus(): string | null;
}

describe(`the pg internals prepared statements rely on (pg ${version})`, { skip: !postgresRuns() && 'Postgres does not answer' }, () => {
  let client: pg.Client;
  let internals: Internals;
  /** Names pg sent a Parse message for, in order. */
  const parses: string[] = [];
  before(async () => {
    client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    internals = client as unknown as Internals;
    const parse = internals.connection.parse.bind(internals.connection);
    internals.connection.parse = (message) => {
      parses.push(message.name ?? '');
      parse(message);
    };
  });
  after(() => client.end());

  it('records a name in connection.parsedStatements, with its text, once Postgres parsed it, and not before', async () => {
    const text = 'select $1::int + 1 as n';
    assert.deepEqual((await client.query({ name: 'guard_parsed', text, values: [1] })).rows, [{ n: 2 }]);
    assert.equal(internals.connection.parsedStatements.guard_parsed, text);
    await assert.rejects(client.query({ name: 'guard_refused', text: 'select no_such_column_here', values: [] }), { code: '42703' });
    assert.equal(internals.connection.parsedStatements.guard_refused, undefined, 'refused when parsed: not recorded');
    await assert.rejects(client.query({ name: 'guard_failed', text: 'select 1 / $1::int', values: [0] }), { code: '22012' });
    assert.equal(internals.connection.parsedStatements.guard_failed, 'select 1 / $1::int', 'parsed, then failed running: recorded');
  });

  it('skips Parse for a name it recorded, and sends it again once the name is deleted from the record', async () => {
    const run = (v: number) => client.query<{ n: number }>({ name: 'guard_skip', text: 'select $1::int * 2 as n', values: [v] });
    parses.length = 0;
    assert.deepEqual((await run(1)).rows, [{ n: 2 }]);
    assert.deepEqual((await run(2)).rows, [{ n: 4 }]);
    assert.deepEqual(parses, ['guard_skip'], 'one Parse for two runs');
    delete internals.connection.parsedStatements.guard_skip;
    await client.query('deallocate guard_skip');
    assert.deepEqual((await run(3)).rows, [{ n: 6 }]);
    assert.deepEqual(parses, ['guard_skip', 'guard_skip'], 'parsed again after being forgotten');
  });

  it("reports the transaction's status with getTransactionStatus: I idle, T in a transaction, E failed", async () => {
    assert.equal(internals.getTransactionStatus(), 'I');
    await client.query('begin');
    assert.equal(internals.getTransactionStatus(), 'T');
    await assert.rejects(client.query('select 1 / 0'), { code: '22012' });
    // pg rejects at the error message; the status comes with the ReadyForQuery behind it, which a
    // busy machine may deliver in a later read: until then the status still says T.
    if (internals.getTransactionStatus() === 'T') await once(internals.connection, 'readyForQuery');
    assert.equal(internals.getTransactionStatus(), 'E');
    await client.query('rollback');
    assert.equal(internals.getTransactionStatus(), 'I');
  });
});
