/*
 * Column conventions, the same on SQLite and Postgres so repositories never branch on dialect:
 * timestamps are ISO-8601 UTC text (`2026-11-22T01:58:26.000Z`), dates are `YYYY-MM-DD` text,
 * booleans are integers 0/1, JSON is text. Converters in the repositories turn rows into domain
 * objects (camelCase, real booleans, parsed JSON).
 */

export type Bool = 0 | 1;
