import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { adminQuery, PG_ADMIN_URL } from '../support/stores.ts';

const admin = adminQuery;

async function pgAnswers(): Promise<boolean> {
  try {
    await admin('select 1');
    return true;
  } catch {
    if (process.env.CI === 'true') throw new Error(`Postgres is required under CI but does not answer at ${PG_ADMIN_URL}`);
    return false;
  }
}

const suffix = randomBytes(5).toString('hex');
const made = `svc_test_created_${suffix}`;
const role = `svc_test_nocreate_${suffix}`;
const urlOf = (db: string, user?: string) => {
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${db}`;
  if (user) u.username = user;
  return u.toString();
};

describe('svc db migrate on a Postgres database that does not exist', async () => {
  const skip = (await pgAnswers()) ? false : `Postgres does not answer at ${PG_ADMIN_URL}`;
  before(async () => {
    if (!skip) await admin(`create role ${role} login nocreatedb`);
  });
  after(async () => {
    if (skip) return;
    await admin(`drop database if exists ${made} with (force)`);
    await admin(`drop role if exists ${role}`);
  });

  it('creates it when the role may, then migrates (exit 0); a second run finds it', { skip }, async () => {
    const res = await cliChild(['--db', urlOf(made), 'db', 'migrate', '--no-catalogue']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, new RegExp(`created database "${made}"`));
    assert.match(res.stdout, /migration\(s\) applied/);
    const again = await cliChild(['--db', urlOf(made), 'db', 'migrate', '--no-catalogue']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already up to date/);
  });

  it('says which command creates it when the role may not (exit 69), and creates nothing', { skip }, async () => {
    const missing = `svc_test_never_${suffix}`;
    const res = await cliChild(['--db', urlOf(missing, role), 'db', 'migrate']);
    assert.equal(res.code, 69, res.stderr);
    assert.match(
      res.stderr,
      new RegExp(
        `database "${missing}" does not exist .* role ${role} may not create databases; create it with \`createdb .* -O ${role} ${missing}\``,
      ),
    );
    assert.equal(res.stderr.trim().split('\n').length, 1, 'one line');
  });
});
