import { AppError } from '../domain/app-error.ts';

/**
 * `svc db migrate` on a Postgres database that does not exist: creates it through the server's
 * `postgres` database with the same role, or says which command creates it when the role may not.
 * Returns the database's name. pg is loaded here, on this path only.
 */
export async function createPostgresDatabase(url: string, shown: string): Promise<string> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query(`create database ${client.escapeIdentifier(name)}`);
    return name;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '42P04') return name; // created meanwhile by someone else: fine
    const role = decodeURIComponent(target.username) || 'the connecting role';
    const host = `-h ${target.hostname}${target.port ? ` -p ${target.port}` : ''}`;
    const how = `create it with \`createdb ${host} -U <a role that may> -O ${role} ${name}\` (or \`CREATE DATABASE ${name} OWNER ${role}\`), then run svc db migrate again`;
    const why = code === '42501' ? `role ${role} may not create databases` : `it could not be created: ${(err as Error).message}`;
    throw new AppError('store_unavailable', `database "${name}" does not exist at ${shown} and ${why}; ${how}`, { cause: err });
  } finally {
    await client.end().catch(() => {});
  }
}
