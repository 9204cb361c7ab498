import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError } from '../../domain/app-error.ts';
import type { AppContext } from '../app-deps.ts';
import { route } from '../route.ts';
import { routeModuleHolding } from '../route-module-holding.ts';
import { pathParam } from '../request-context.ts';

/*
 * The API reference page (GET /docs): Swagger UI from the swagger-ui-dist package, every script,
 * stylesheet and image served by svc itself, so the page works where CDNs are blocked.
 */

/** One file of the page, with the ETag its bytes give. */
interface DocsAsset {
  type: string;
  bytes: Buffer;
  etag: string;
}

const SWAGGER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// Its own file: the Content-Security-Policy allows no inline script.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Partner Crew Compliance API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/docs-init.js"></script>
</body>
</html>
`;

/**
 * Only this service's origin: scripts, styles, fonts and API calls ("Try it out"). Images may
 * also be data: URIs, which Swagger UI's stylesheet uses for its icons.
 */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
  "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function asset(type: string, bytes: Buffer): DocsAsset {
  return { type, bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"` };
}

/** The page and its assets by file name. */
interface DocsFiles {
  page: DocsAsset;
  asset(name: string): DocsAsset | undefined;
}

/** The files of one app: the assets are read from node_modules on its first asset request and kept. */
function docsFiles(): DocsFiles {
  let files: Map<string, DocsAsset> | undefined;
  const load = () => {
    const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    files = new Map(Object.entries(SWAGGER_FILES).map(([name, type]) => [name, asset(type, readFileSync(join(dir, name)))]));
    files.set('docs-init.js', asset('text/javascript; charset=utf-8', Buffer.from(INIT_SCRIPT)));
    return files;
  };
  return {
    page: asset('text/html; charset=utf-8', Buffer.from(PAGE)),
    asset: (name) => (files ?? load()).get(name),
  };
}

function send(ctx: AppContext, file: DocsAsset, cacheControl: string): void {
  ctx.set('Content-Security-Policy', DOCS_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', file.etag);
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = file.type;
  ctx.body = file.bytes;
}

const DOCS_HEADERS = {
  ETag: { description: "the file's content hash", schema: { type: 'string' } },
  'Cache-Control': { description: '`no-cache` for the page, `public, max-age=86400` for assets', schema: { type: 'string' } },
  'Content-Security-Policy': { description: 'this origin only (images also as data: URIs)', schema: { type: 'string' } },
};
const NOT_MODIFIED = { description: 'Not modified (If-None-Match matched the ETag)' };

/**
 * `GET /docs`: the interactive API reference (Swagger UI) rendered from /openapi.json, and
 * `GET /docs/assets/{file}`: its scripts, stylesheet and icon. No key needed. The page is
 * revalidated on every load; assets are cached for a day and revalidated by ETag.
 */
export const docsRoutes = routeModuleHolding('docs', docsFiles, (docs) => [
  route({
    method: 'get',
    path: '/docs',
    access: 'public',
    doc: {
      operationId: 'getApiReferencePage',
      tags: ['operations'],
      summary: 'This document as an interactive reference page',
      description:
        'No key. Swagger UI rendering `/openapi.json`; every script, stylesheet and image comes from this service ' +
        '(`/docs/assets/…`), under a Content-Security-Policy that allows this origin only. Revalidated on every load (ETag).',
      responses: {
        200: { description: 'The HTML page', headers: DOCS_HEADERS, content: { 'text/html': { schema: { type: 'string' } } } },
        304: NOT_MODIFIED,
      },
    },
    async handle(ctx) {
      send(ctx, docs().page, 'no-cache');
    },
  }),
  route({
    method: 'get',
    path: '/docs/assets/:file',
    access: 'public',
    doc: {
      operationId: 'getApiReferenceAsset',
      tags: ['operations'],
      summary: 'A script, stylesheet or icon of the reference page',
      description: 'No key. Cached for a day (`Cache-Control: public, max-age=86400`), then revalidated by ETag.',
      responses: {
        200: {
          description: 'The file',
          headers: DOCS_HEADERS,
          content: {
            'text/javascript': { schema: { type: 'string' } },
            'text/css': { schema: { type: 'string' } },
            'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
          },
        },
        304: NOT_MODIFIED,
      },
      errors: { 404: ['not_found'] },
    },
    async handle(ctx) {
      const name = pathParam(ctx, 'file');
      const file = docs().asset(name);
      if (!file) throw new AppError('not_found', `no such documentation asset: ${name.slice(0, 100)}`);
      send(ctx, file, 'public, max-age=86400');
    },
  }),
]);
