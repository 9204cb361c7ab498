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
