import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { nodeListener } from '../../src/http/server.ts';
import { checkAgainstOpenApi } from './openapi-check.ts';

export interface TestResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else undefined. */
  json: any;
  bytes: Buffer;
}

export interface RequestOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as is (set Content-Type yourself). */
  body?: unknown;
  /** Skip the OpenAPI check (only for responses the document cannot describe, e.g. a test-only route). */
  unchecked?: boolean;
}

/** A Koa app listening on 127.0.0.1 with a random port; every response is checked against the OpenAPI document. */
export interface TestApi {
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  get(path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export async function startTestApi(app: Koa<any>): Promise<TestApi> {
  const server: Server = createServer(nodeListener(app.callback()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
    let body: string | Buffer | undefined;
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(`${url}${path}`, { method, headers, body });
    const bytes = Buffer.from(await res.arrayBuffer());
    const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
    const json = isJson && bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
    if (!options.unchecked) {
      checkAgainstOpenApi({ method, path: path.split('?')[0]!, status: res.status, headers: res.headers, body: json });
    }
    return { status: res.status, headers: res.headers, json, bytes };
  };
  return {
    url,
    request,
    get: (path, options) => request('GET', path, options),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
