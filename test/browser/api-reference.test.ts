import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDocsServer } from '../support/docs-server.ts';
import type { TestApi } from '../support/http.ts';
import { servedDocument } from '../../src/http/routes/index.ts';

/** The document the page renders: the partners' (GET /openapi.json). */
const partnerDocument = () =>
  servedDocument('partner', 'https://svc.example') as { paths: Record<string, Record<string, unknown>>; webhooks: Record<string, unknown> };

/*
 * GET /docs in a real headless browser: Debian's chromium driven by playwright-core. Without
 * /usr/bin/chromium the test is skipped with a message, except under CI=true (.ci/run installs it).
 * SVC_DOCS_SCREENSHOT=docs/api-reference.png keeps a screenshot of the page.
 */
const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
const missing = existsSync(CHROMIUM)
  ? false
  : `no chromium at ${CHROMIUM}: browser test skipped (apt-get install chromium, or set SVC_CHROMIUM)`;
if (missing && process.env.CI === 'true') throw new Error(`${missing}; under CI=true the browser test must run`);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

function operations(): Array<{ method: string; path: string }> {
  return Object.entries(partnerDocument().paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => m !== 'parameters')
      .map((method) => ({ method, path })),
  );
}

const TITLE = 'the API reference page in a headless browser';

// A skipped test, not a skipped suite: node:test counts only tests in its "# skipped" line.
if (missing) it(TITLE, { skip: missing }, () => {});
else
  describe(TITLE, () => {
    let api: TestApi;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];
    const foreign: string[] = [];

    before(async () => {
      api = await startDocsServer();
      // launch() gives the browser a fresh, temporary profile (user data dir) of its own.
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 60_000 });
      page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.protocol !== 'data:' && url.origin !== api.url) foreign.push(r.url());
      });
      await page.goto(`${api.url}/docs`, { waitUntil: 'load' });
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    });

    after(async () => {
      await browser?.close();
      await api?.close();
    });

    it('loads with no console error and no request to another origin', async () => {
      await page.waitForLoadState('networkidle');
      assert.deepEqual(problems, []);
      assert.deepEqual(foreign, []);
      assert.equal(await page.title(), 'Partner Crew Compliance API reference');
    });

    it('shows every endpoint of the document and every webhook', async () => {
      const shown = await page.locator('.opblock-summary').evaluateAll((els) =>
        els.map((e) => {
          const method = e.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase() ?? '';
          const path =
            e.querySelector('.opblock-summary-path')?.getAttribute('data-path') ??
            e.querySelector('.opblock-summary-path')?.textContent?.trim() ??
            '';
          return `${method} ${path.replace(/\u200b/g, '')}`;
        }),
      );
      for (const op of operations()) assert.ok(shown.includes(`${op.method} ${op.path}`), `${op.method.toUpperCase()} ${op.path} is shown`);
      const text = await page.locator('#swagger-ui').innerText();
      for (const type of Object.keys(partnerDocument().webhooks)) assert.ok(text.includes(type), `webhook ${type} is shown`);
    });

    it('shows the bearer authentication', async () => {
      await page.locator('button.authorize').first().click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.waitFor();
      const text = await dialog.innerText();
      for (const scheme of ['partnerBearer', 'partnerApiKey']) assert.ok(text.includes(scheme), scheme);
      assert.ok(!text.includes('operatorBearer'), 'the partner document names no operator key');
      assert.match(text, /Bearer/);
      await page.locator('.dialog-ux button.close-modal').click();
      if (process.env.SVC_DOCS_SCREENSHOT) await page.screenshot({ path: process.env.SVC_DOCS_SCREENSHOT, fullPage: false });
      assert.deepEqual(problems, []);
    });
  });
