import pg from 'pg';

/** Where Postgres tests create their throwaway databases. */
export const PG_ADMIN_URL = process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs one statement on the admin database (creating and dropping test databases and roles); returns its rows. */
export async function adminQuery(text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the admin URL's server. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates a test database, empty or a copy of `template`. Its commits do not wait for the WAL to
 * reach the disk (synchronous_commit off): a commit is as atomic, and as visible to every other
 * session, as before; only a crash of the Postgres server itself, which no test causes, could lose
 * the last ones. Each commit waited about 1 ms for the disk otherwise (pgbench on a 2-core test
 * machine: 0.99 ms a single-row insert against 0.05 ms), in a suite that commits a great deal.
 */
export async function createTestDatabase(name: string, template?: string): Promise<void> {
  await adminQuery(`create database ${name}${template === undefined ? '' : ` template ${template}`}`);
  await adminQuery(`alter database ${name} set synchronous_commit = off`);
}
