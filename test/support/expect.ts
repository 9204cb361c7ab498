import assert from 'node:assert/strict';
import type { TestResponse } from './http.ts';

/** Asserts an error response of docs/decisions.md §1: status, `detail.code`, and any extra fields given. */
export function expectError(res: TestResponse, status: number, code: string, extra: Record<string, unknown> = {}): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.json)}`);
  assert.equal(res.json?.detail?.code, code);
  assert.equal(typeof res.json.detail.message, 'string');
  for (const [k, v] of Object.entries(extra)) assert.deepEqual(res.json.detail[k], v, `detail.${k}`);
}

/** Asserts a 422 whose detail is exactly these issues, in order. */
export function expectIssues(res: TestResponse, issues: unknown[]): void {
  assert.equal(res.status, 422, `expected 422, got ${res.status} ${JSON.stringify(res.json)}`);
  assert.deepEqual(res.json, { detail: issues });
  for (const i of res.json.detail as Record<string, unknown>[]) {
    const order = ['type', 'loc', 'msg', 'input', 'ctx'].filter((k) => k in i);
    assert.deepEqual(Object.keys(i), order, 'issue keys in the order type, loc, msg, input, ctx');
  }
}
