import { Readable } from 'node:stream';
import { AppError } from '../../domain/app-error.ts';
import { MAX_CHANGES, type ChangesType } from '../../domain/ingest-requests.ts';
import type { Incoming } from '../../services/ingest/apply-changes.ts';
import { ndjsonChanges } from '../../services/ingest/ndjson.ts';
import { issues, throwValidation } from './issues.ts';
import { locateJsonError, MAX_JSON_DEPTH } from './json-error.ts';

function tooMany(): AppError {
  return new AppError('payload_too_large', `a request carries at most ${MAX_CHANGES} changes; send more in several requests`);
}

function jsonArray(text: string): Incoming[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const at = locateJsonError(text);
    throwValidation([issues.jsonInvalid(at?.pos ?? 0, at?.msg ?? (err as Error).message)]);
  }
  // JSON.parse does not recurse, re-serialising an element does: nesting is bounded first.
  const deep = text.length > 2 * MAX_JSON_DEPTH ? locateJsonError(text) : null;
  if (deep) throwValidation([issues.jsonInvalid(deep.pos, deep.msg)]);
  if (!Array.isArray(value)) throwValidation([issues.listType(['body'], value)]);
  if (value.length > MAX_CHANGES) throw tooMany();
  return value.map((change, index) => ({ origin: `request:${index + 1}`, text: JSON.stringify(change) }));
}

async function ndjson(body: Buffer): Promise<Incoming[]> {
  const out: Incoming[] = [];
  for await (const change of ndjsonChanges(Readable.from([body]), 'request')) {
    out.push(change);
    if (out.length > MAX_CHANGES) throw tooMany();
  }
  return out;
}

/**
 * The changes of a request body, each with its origin: `request:<line>` for NDJSON (blank lines
 * skipped, as `svc ingest` reads a file), `request:<position>` (from 1) for a JSON array. A line
 * or element that is not a valid change is reported in the answer, not here; a JSON body that does
 * not parse or is not an array is a 422 for the whole body, more than MAX_CHANGES changes a 413.
 */
export function changesOf(body: Buffer, type: ChangesType): Promise<Incoming[]> {
  return type === 'application/json' ? Promise.resolve(jsonArray(body.toString('utf8'))) : ndjson(body);
}
