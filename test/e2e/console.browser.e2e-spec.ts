import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type Dialog, type Locator, type Page, type Route, chromium } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { GENEROUS_LIMITS } from '../harness/create-test-app';
import { ServiceProcess } from '../harness/service-process';
import { eventually } from '../harness/eventually';
import { WebhookReceiver } from '../harness/webhook-receiver';

/**
 * The operator console (CONTRACT 17) in a real browser: Debian's Chromium,
 * driven by playwright-core, against the built service started as a process
 * on a SQLite file, over real HTTP. Screenshots of each page go to
 * test-output/console/ (docs/console.png is a copy of the overview).
 *
 * Outside CI the test skips, saying so, when /usr/bin/chromium is absent;
 * under CI=true it runs (.ci/run installs Chromium first).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = join(__dirname, '..', '..');
const SHOTS = join(ROOT, 'test-output', 'console');
const ADMIN_TOKEN = 'console-browser-admin-token-0123456789';
const XSS = '<script>alert(1)</script><img src=x onerror="alert(2)">';

const runs = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!runs) console.warn(`${CHROMIUM} is missing: the console browser test is skipped (apt-get install chromium; under CI=true it runs)`);

(runs ? describe : describe.skip)('Operator console in a browser (Chromium)', () => {
  jest.setTimeout(120000);
  let folder: string;
  let service: ServiceProcess;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  /** The browser's console errors, each with the test (step) it happened in. */
  const consoleErrors: Array<{ readonly step: string; readonly text: string }> = [];
  const DESCRIBED = 'Operator console in a browser (Chromium) ';
  const consoleError = (text: string) =>
    consoleErrors.push({ step: (expect.getState().currentTestName ?? '').replace(DESCRIBED, ''), text });
  let apiKey = '';
  let keyId = '';
  const email = `grace.${Date.now()}@example.org`;

  const shot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const nav = async (title: string, heading: string) => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    folder = mkdtempSync(join(tmpdir(), 'svc-console-'));
    service = await ServiceProcess.start({
      DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
      MODEL_STORE_DIR: join(folder, 'models'),
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      ...GENEROUS_LIMITS,
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    page = await context.newPage();
    page.on('dialog', (dialog: Dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleError(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a wrong token, then signs in with the right one (kept in session storage only)', async () => {
    await page.goto(`${service.baseUrl}/console`);
    await page.getByLabel('Admin token').fill('not-the-admin-token-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong admin token' }).waitFor();
    await shot('sign-in');
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // who is signed in, from GET /admin/v1/me: ADMIN_TOKEN is the bootstrap owner
    await web(page.getByTestId('signed-in-name')).toHaveText('ADMIN_TOKEN (bootstrap)');
    await web(page.getByTestId('signed-in-role')).toHaveText('owner');
    expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([ADMIN_TOKEN]);
    expect(await page.evaluate<number>('localStorage.length')).toBe(0);
    expect(page.url()).not.toContain(ADMIN_TOKEN);
  });

  it('issues a key and shows it once, with a copy button and a warning', async () => {
    await nav('Keys', 'Keys');
    await page.getByRole('button', { name: 'Issue a key' }).click();
    await page.locator('#issue-email').fill(email);
    await page.locator('#issue-tier').selectOption('research');
    await page.getByRole('button', { name: 'Issue the key' }).click();
    const secret = page.locator('#secret-value');
    await secret.waitFor();
    apiKey = await secret.inputValue();
    expect(apiKey).toMatch(/^svc_live_[0-9a-f]{48}$/);
    await page.getByText('This is the only time the key is shown').waitFor();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await shot('key-issued');
    keyId = (await page.locator('.secret a[href^="/console/keys/"]').textContent()) ?? '';
    expect(keyId).toMatch(/^key_/);
    await page.getByRole('button', { name: /hide the key/ }).click();
    await web(page.locator('#secret-value')).toHaveCount(0);
    expect(await page.content()).not.toContain(apiKey);
  });

  it('finds the key by e-mail and by prefix', async () => {
    await page.locator('#filter-email').fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.locator(`tr[data-key-id="${keyId}"]`);
    await row.waitFor();
    expect(await page.locator('table.keys tbody tr').count()).toBe(1);
    await shot('keys');
    await page.getByRole('button', { name: 'Clear' }).click();
    // the whole key pasted: the console searches by its first 12 characters only, never sending the key
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));
    await page.locator('#filter-prefix').fill(apiKey);
    await page.getByRole('button', { name: 'Search' }).click();
    await row.waitFor();
    expect(await row.locator('code').textContent()).toBe(`${apiKey.slice(0, 12)}…`);
    expect(sent.some((url) => url.includes(`prefix=${apiKey.slice(0, 12)}`))).toBe(true);
    expect(sent.filter((url) => url.includes(apiKey.slice(12, 30)))).toEqual([]);
    expect(page.url()).not.toContain(apiKey);
  });

  it("shows the day's usage and the quota gauge move after inference events", async () => {
    await page.locator(`tr[data-key-id="${keyId}"] a`).click();
    await page.getByTestId('key-status').waitFor();
    expect(await page.getByTestId('key-status').textContent()).toBe('active');
    expect(await page.getByTestId('quota-used').textContent()).toBe('0');
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${service.baseUrl}/v1/analytics/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: apiKey, event_type: 'inference', model_name: 'motor_imagery_4class_v1', success: true }),
      });
      expect(answer.status).toBe(202);
    }
    // a day offline, uploaded in one batch (CONTRACT 22)
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const uploaded = await fetch(`${service.baseUrl}/v1/analytics/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        api_key: apiKey,
        events: [{ event_type: 'model_load', idempotency_key: 'console-1', occurred_at: yesterday }],
      }),
    });
    expect(uploaded.status).toBe(200);
    await page.reload();
    await page.getByTestId('key-status').waitFor();
    await web(page.getByTestId('quota-used')).toHaveText('3');
    // the recent events: both times, and how each came
    const recent = page.getByTestId('recent-events');
    await web(recent.locator('tbody tr')).toHaveCount(4);
    const first = recent.locator('tbody tr').first();
    await web(first.locator('td').nth(2)).toHaveText('batch');
    expect(await first.locator('td').nth(1).locator('time').getAttribute('datetime')).toBe(yesterday.slice(0, 19) + 'Z');
    await web(recent.locator('tbody tr').nth(1).locator('td').nth(2)).toHaveText('single');
    expect(await page.locator('#quota-meter').getAttribute('value')).toBe('3');
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.locator(`tr[data-day="${today}"] td[data-total]`).textContent()).toBe('3');
    expect(await page.locator('.chart-canvas canvas').count()).toBeGreaterThan(0);
    await page.getByText('Events by model').waitFor();
    await shot('key');
  });

  it('changes the tier and the monthly limit, each after a confirmation', async () => {
    await page.locator('#action-tier').selectOption('commercial');
    await page.getByRole('button', { name: 'Change tier' }).click();
    await page.getByRole('dialog').getByText('from research to commercial').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Change tier' }).click();
    await web(page.getByTestId('key-tier')).toHaveText('commercial');
    await page.locator('#action-limit-mode').selectOption('override');
    await page.locator('#action-limit').fill('100');
    await page.getByRole('button', { name: 'Change limit' }).click();
    // cancelling changes nothing
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await web(page.locator('.gauge')).toContainText('3 of 500,000 inferences');
    await page.getByRole('button', { name: 'Change limit' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Change limit' }).click();
    await web(page.locator('.gauge')).toContainText('3 of 100 inferences');
    expect(await page.locator('#quota-meter').getAttribute('max')).toBe('100');
  });

  it('revokes the key after a confirmation, and shows its new status', async () => {
    await page.getByLabel('Revoke (reason, optional)').fill('console test');
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('cannot be undone').waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await web(page.getByTestId('key-status')).toHaveText('revoked');
    await page.locator('table.audit').getByText('key.revoked').waitFor();
    await shot('key-revoked');
  });

  it('uploads a model with a progress bar and lists it; an XSS-shaped text stays text', async () => {
    await nav('Models', 'Models');
    await page.getByRole('button', { name: 'Add a model' }).click();
    const name = 'xss.script-alert_1';
    await page.getByLabel('Name (a-z 0-9 _ . -)').fill(name);
    await page.getByLabel('Version').fill('1.0.0');
    await page.getByLabel('Paradigm').fill('p300');
    await page.getByLabel('Features').fill('16');
    await page.getByLabel('Classes').fill('2');
    await page.getByLabel('Description').fill(XSS);
    await page.getByLabel('Accuracy').fill('0.70-0.80');
    await page.getByLabel('Feature type').fill('csp');
    await page.getByLabel('Recommended use').fill(XSS);
    await page
      .getByLabel('Model file')
      .setInputFiles({ name: 'model.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2_000_000, 7) });
    // watch the upload's progress bar (the upload is quick on 127.0.0.1: record every state it shows)
    await page.evaluate(`window.progressSeen = [];
      new MutationObserver(() => {
        const bar = document.getElementById('upload-progress');
        if (bar) window.progressSeen.push(bar.value);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });`);
    await page.getByRole('button', { name: 'Save' }).click();
    const row = page.locator(`tr[data-model="${name}"]`);
    await row.waitFor();
    expect(await row.locator('td.description').textContent()).toBe(XSS);
    expect(await row.locator('script, img').count()).toBe(0);
    await web(row).toContainText('uploaded');
    await page.getByText(`${name} saved.`).waitFor();
    const progress = await page.evaluate<number[]>('window.progressSeen');
    expect(progress.length).toBeGreaterThan(0);
    expect(Math.max(...progress)).toBe(1);
    await shot('models');
    expect(dialogs).toEqual([]);
  });

  it('registers an external URL (checksum and size required), edits a model, deletes one after a confirmation', async () => {
    await page.getByRole('button', { name: 'Add a model' }).click();
    await page.getByLabel('Name (a-z 0-9 _ . -)').fill('cdn_model_v1');
    await page.getByLabel('Paradigm').fill('ssvep');
    await page.getByLabel('Features').fill('8');
    await page.getByLabel('Classes').fill('4');
    await page.getByLabel('Description').fill('Served by a CDN');
    await page.getByLabel('Accuracy').fill('0.8');
    await page.getByLabel('Feature type').fill('psd');
    await page.getByLabel('Recommended use').fill('SSVEP spellers');
    await page.getByLabel('An external URL').check();
    await page.getByLabel('Download URL (https://…)').fill('https://cdn.example.org/cdn_model_v1.bin');
    await page.getByLabel('Checksum (sha256:<64 hex>)').fill('sha256:not-a-checksum');
    await page.getByLabel('Size in bytes').fill('123456');
    await page.getByRole('button', { name: 'Save' }).click();
    // the API's own words, from its error envelope
    await page.getByRole('alert').filter({ hasText: 'checksum must be sha256:' }).waitFor();
    await page.getByLabel('Checksum (sha256:<64 hex>)').fill(`sha256:${'ab'.repeat(32)}`);
    await page.getByRole('button', { name: 'Save' }).click();
    const cdn = page.locator('tr[data-model="cdn_model_v1"]');
    await cdn.waitFor();
    await web(cdn).toContainText('external URL');

    const xss = page.locator('tr[data-model="xss.script-alert_1"]');
    await xss.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Version').fill('1.1.0');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('xss.script-alert_1 saved.').waitFor();
    await web(xss.locator('td').nth(1)).toHaveText('1.1.0');
    await web(xss).toContainText('uploaded');

    await cdn.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await web(cdn).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  it('shows the audit log, filtered by action', async () => {
    await nav('Audit', 'Audit log');
    await page.locator('table.audit').getByText('model.uploaded').first().waitFor();
    // the choices are the API's own list (openapi.json's enum, through the generated client), webhook.* included
    const served = (await (await fetch(`${service.baseUrl}/api/docs-json`)).json()) as {
      components: { schemas: { AuditEntryResponse: { properties: { action: { enum: string[] } } } } };
    };
    const actions = served.components.schemas.AuditEntryResponse.properties.action.enum;
    expect(actions).toContain('webhook.delivery_retried');
    expect(await page.locator('#audit-action option').allTextContents()).toEqual(['All actions', ...actions]);
    await page.getByLabel('Action').selectOption('key.revoked');
    await web(page.locator('table.audit tbody tr')).toHaveCount(1);
    await web(page.locator('table.audit tbody')).toContainText('console test');
    await shot('audit');
  });

  it('shows the overview: keys by status and tier, events per day, keys near their quota, recent audit', async () => {
    // more keys through the admin API: one with a small limit, nearly used up
    const admin = (path: string, body: unknown) =>
      fetch(`${service.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ api_key: string }>);
    await admin('/admin/v1/keys', { email: 'ada@example.org', license_type: 'commercial' });
    await admin('/admin/v1/keys', { email: 'alan@example.org', license_type: 'enterprise', environment: 'test' });
    const small = await admin('/admin/v1/keys', { email: 'edsger@example.org', license_type: 'free', monthly_limit: 10 });
    for (let i = 0; i < 9; i++) {
      await fetch(`${service.baseUrl}/v1/analytics/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: small.api_key, event_type: 'inference', model_name: 'p300_binary_v1', success: i !== 4 }),
      });
    }
    await nav('Overview', 'Overview');
    await web(page.getByTestId('status-revoked')).toHaveText('1');
    await web(page.getByTestId('status-active')).toHaveText('3');
    await page.locator('table').getByText('edsger@example.org').waitFor();
    await page.locator('.chart-canvas canvas').first().waitFor();
    await page.getByRole('heading', { name: 'Recent audit events' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'overview.png') });
    await shot('overview-full');
  });

  it('fits a narrow window and is keyboard-reachable', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await nav('Keys', 'Keys');
    await page.locator('table.keys').waitFor();
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true);
    await shot('keys-narrow');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.reload(); // the deep link /console/keys loads the app again, focus at the start of the page
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Skip to the content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | null | undefined>("document.activeElement?.getAttribute('href')")).toBe('/console');
    // a keyboard user reaches the search form and submits it with Enter
    await page.locator('#filter-email').focus();
    await page.keyboard.type('nobody@example.org');
    await page.keyboard.press('Enter');
    await page.getByText('No key matches.').waitFor();
  });

  it('rotates a key after a confirmation: the new key shown once, both keys working during the grace (CONTRACT 16)', async () => {
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${service.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, string> };
    };
    const issued = await post(
      '/admin/v1/keys',
      { email: `rotate.${Date.now()}@example.org`, license_type: 'research' },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    expect(issued.status).toBe(201);
    await page.goto(`${service.baseUrl}/console/keys/${issued.body.key_id}`);
    await web(page.getByTestId('key-status')).toHaveText('active');
    await page.locator('#action-grace').fill('3600');
    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('the old one keeps working for the grace period').waitFor();
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await page.getByText('Key rotated: the new key').waitFor();
    const rotated = await page.locator('#secret-value').inputValue();
    expect(rotated).toMatch(/^svc_live_[0-9a-f]{48}$/);
    expect(rotated).not.toBe(issued.body.api_key);
    await shot('key-rotated');
    for (const key of [issued.body.api_key, rotated]) expect((await post('/v1/auth/validate', { api_key: key })).status).toBe(200);
    expect((await post('/v1/auth/rotate', { api_key: issued.body.api_key })).status).toBe(409);
    await page.getByRole('button', { name: /hide the key/ }).click();
    await web(page.locator('#secret-value')).toHaveCount(0);
    expect(await page.content()).not.toContain(rotated);
  });

  // ---- the console for support work ----

  const adminCall = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, any>;
  };
  const infer = async (key: string, times: number) => {
    for (let i = 0; i < times; i++) {
      const res = await fetch(`${service.baseUrl}/v1/analytics/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: key, event_type: 'inference', model_name: 'p300_binary_v1', success: true }),
      });
      expect(res.status).toBe(202);
    }
  };
  /** Holds every admin call matching `pattern` until `release` is called (a slow service, simulated by the test). */
  const holdCalls = async (pattern: string) => {
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    const held: Route[] = [];
    await page.route(pattern, async (route) => {
      held.push(route);
      await released;
      await route.continue().catch(() => undefined);
    });
    return {
      held,
      release: async () => {
        release();
        await page.unroute(pattern);
      },
    };
  };
  const axeCheck = (name: string) => axeCheckOn(page, name);
  const axeCheckOn = async (on: Page, name: string) => {
    const results = await new AxeBuilder({ page: on }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect({ page: name, serious: serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) }).toEqual({
      page: name,
      serious: [],
    });
  };
  let chain: { first: Record<string, any>; second: Record<string, any>; email: string };

  it("shows a rotated key's license: the chain with links, grace and status, its actions disabled with the reason", async () => {
    const email = `Support.${Date.now()}@Example.org`;
    const first = await adminCall('POST', '/admin/v1/keys', { email, license_type: 'free', monthly_limit: 20 });
    await infer(first.api_key, 2);
    const second = await adminCall('POST', `/admin/v1/keys/${first.key_id}/rotate`, { grace_seconds: 3600 });
    await infer(first.api_key, 1); // in its grace
    await infer(second.api_key, 4);
    chain = { first, second, email };

    await page.goto(`${service.baseUrl}/console/keys/${first.key_id}`);
    await web(page.getByTestId('license-id')).toHaveText(first.key_id);
    await web(page.getByTestId('rotated-to')).toHaveText(second.key_id);
    const items = page.locator('ol.chain li');
    await web(items).toHaveCount(2);
    await web(items.nth(0)).toContainText('rotated; its grace ends');
    await web(items.nth(0)).toContainText('(this key)');
    await web(items.nth(1)).toContainText('the current key');
    await web(items.nth(1).locator('.badge')).toHaveText('active');
    await web(page.getByTestId('actions-blocked')).toContainText('This key was rotated');
    for (const name of ['Change limit', 'Change expiry', 'Rotate']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    }
    expect(await page.locator('#action-tier').isDisabled()).toBe(true);
    await shot('key-rotated-chain');
    // the chain's links lead to the current key, whose actions are enabled
    await items.nth(1).getByRole('link').click();
    await web(page.getByTestId('rotated-from')).toHaveText(first.key_id);
    await web(page.getByTestId('actions-blocked')).toHaveCount(0);
    expect(await page.getByRole('button', { name: 'Rotate', exact: true }).isDisabled()).toBe(false);
  });

  it('shows the chart of the license split by key, agreeing with the gauge after events on both keys', async () => {
    await web(page.getByTestId('quota-used')).toHaveText('7');
    const today = new Date().toISOString().slice(0, 10);
    const row = page.locator(`tr[data-day="${today}"]`);
    await web(row.locator('td[data-total]')).toHaveText('7');
    await web(row.locator(`td[data-part="${chain.first.key_id}"]`)).toHaveText('3');
    await web(row.locator(`td[data-part="${chain.second.key_id}"]`)).toHaveText('4');
    const total = await page.evaluate<number>(
      "[...document.querySelectorAll('td[data-total]')].reduce((sum, td) => sum + Number(td.textContent.replace(/[^0-9]/g, '')), 0)",
    );
    expect(total).toBe(7);
    await page.locator('.legend').getByText('(this key)').waitFor();
    await shot('key-license-chart');
  });

  it('finds people by e-mail in any case or by its start; the search is the address: Back restores it, a copied URL opens it', async () => {
    await nav('Keys', 'Keys');
    await page.locator('#filter-email').fill(chain.email.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await web(page.locator('table.keys tbody tr')).toHaveCount(2);
    expect(page.url()).toContain(`email=${encodeURIComponent(chain.email.toLowerCase())}`);
    await page.locator('#filter-email').fill(chain.email.slice(0, 12).toUpperCase());
    await page.getByLabel('E-mail starts with this').check();
    await page.locator('#filter-license_type').selectOption('free');
    await page.getByRole('button', { name: 'Search' }).click();
    await web(page.locator('table.keys tbody tr')).toHaveCount(2);
    const searched = page.url();
    expect(searched).toContain('email_match=start');
    expect(searched).toContain('license_type=free');
    await shot('keys-search');
    // open a key, come back: the same search, the form filled in
    await page.locator(`tr[data-key-id="${chain.second.key_id}"] a`).click();
    await page.getByTestId('key-status').waitFor();
    await page.goBack();
    await web(page.locator('table.keys tbody tr')).toHaveCount(2);
    expect(page.url()).toBe(searched);
    expect(await page.locator('#filter-email').inputValue()).toBe(chain.email.slice(0, 12).toUpperCase());
    expect(await page.getByLabel('E-mail starts with this').isChecked()).toBe(true);
    // Back once more: the exact search; Forward: the starts-with search again
    await page.goBack();
    await web(page.locator('#filter-email')).toHaveCount(1);
    expect(await page.locator('#filter-email').inputValue()).toBe(chain.email.toLowerCase());
    await page.goForward();
    expect(page.url()).toBe(searched);
    await web(page.locator('table.keys tbody tr')).toHaveCount(2);
    // the copied address in a new tab of the same session opens the same view
    // (a new tab has its own session storage: the colleague signs in, and lands on the view the address names)
    const other = await page.context().newPage();
    await other.goto(searched);
    await other.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await web(other.locator('table.keys tbody tr')).toHaveCount(2);
    expect(other.url()).toBe(searched);
    expect(await other.locator('#filter-license_type').inputValue()).toBe('free');
    await other.close();
  });

  it('pages keys with the pages in the address (pager clicked, Back and Forward)', async () => {
    const email = `pager.${Date.now()}@example.org`;
    const first = await adminCall('POST', '/admin/v1/keys', { email, license_type: 'research' });
    for (let i = 0; i < 26; i++) await adminCall('POST', '/admin/v1/keys', { user_id: first.user_id, license_type: 'research' });
    await page.goto(`${service.baseUrl}/console/keys?email=${encodeURIComponent(email)}`);
    await web(page.locator('table.keys tbody tr')).toHaveCount(25);
    await page.getByRole('navigation', { name: 'Pages of keys' }).getByRole('button', { name: 'Next →' }).click();
    await web(page.locator('table.keys tbody tr')).toHaveCount(2);
    await page.getByText('Page 2').waitFor();
    expect(page.url()).toContain('cursor=');
    await page.goBack();
    await web(page.locator('table.keys tbody tr')).toHaveCount(25);
    await page.goForward();
    await web(page.locator('table.keys tbody tr')).toHaveCount(2);
    await page.getByRole('button', { name: '← Previous' }).click();
    await web(page.locator('table.keys tbody tr')).toHaveCount(25);
  });

  it("pages a key's audit trail, and the audit log's filter is in the address", async () => {
    for (let i = 0; i < 22; i++) {
      await adminCall('PATCH', `/admin/v1/keys/${chain.second.key_id}`, { monthly_limit: 100 + i });
    }
    await page.goto(`${service.baseUrl}/console/keys/${chain.second.key_id}`);
    const trail = page.locator('section[aria-labelledby="audit-title"] table.audit tbody tr');
    await web(trail).toHaveCount(20);
    await page.getByRole('navigation', { name: 'Audit trail pages' }).getByRole('button', { name: 'Next →' }).click();
    const all = await adminCall('GET', `/admin/v1/audit?key_id=${chain.second.key_id}&limit=200`);
    expect(all.entries.length).toBeGreaterThan(20);
    await web(trail).toHaveCount(all.entries.length - 20);
    expect(page.url()).toContain('audit=');
    await shot('key-audit-page-2');
    await nav('Audit', 'Audit log');
    await page.getByLabel('Action').selectOption('key.rotated');
    const rotations = (await adminCall('GET', '/admin/v1/audit?action=key.rotated&limit=200')).entries.length;
    expect(rotations).toBeGreaterThan(1);
    await web(page.locator('table.audit tbody tr')).toHaveCount(rotations);
    expect(page.url()).toContain('action=key.rotated');
    await page.reload();
    await web(page.locator('table.audit tbody tr')).toHaveCount(rotations);
    expect(await page.getByLabel('Action').inputValue()).toBe('key.rotated');
  });

  it('lists every key at or near its quota on a page of its own, linked from the overview, sorted by share', async () => {
    for (let i = 0; i < 3; i++) {
      const key = await adminCall('POST', '/admin/v1/keys', { email: `near.${i}@example.org`, license_type: 'free', monthly_limit: 10 });
      await infer(key.api_key, 8 + i);
    }
    await nav('Overview', 'Overview');
    await page.getByRole('link', { name: 'Every key at or near its quota →' }).click();
    await page.getByRole('heading', { level: 1, name: 'Keys at or near their quota' }).waitFor();
    const rows = page.locator('table.near-quota tbody tr');
    await web(rows).toHaveCount(4);
    const emails = await rows.locator('td:nth-child(2)').allTextContents();
    expect(emails[0]).toBe('near.2@example.org');
    expect(emails.slice(1, 3).sort()).toEqual(['edsger@example.org', 'near.1@example.org']);
    expect(emails[3]).toBe('near.0@example.org');
    const api = await adminCall('GET', '/admin/v1/usage/near-quota');
    expect(api.keys.map((k: { email: string }) => k.email)).toEqual(emails);
    await shot('near-quota');
  });

  it('shows loading while a slow answer comes, and a busy button that acts once on a double click', async () => {
    const slow = await holdCalls('**/admin/v1/keys?*');
    await nav('Keys', 'Keys');
    await page.getByRole('status').filter({ hasText: 'Loading keys…' }).waitFor();
    expect(await page.locator('.load-state[aria-busy="true"]').count()).toBe(1);
    await shot('keys-loading');
    await slow.release();
    await web(page.locator('.load-state[aria-busy="false"]')).toHaveCount(1);

    const revokes: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().includes('/revoke') && revokes.push(r.url()));
    const gate = await holdCalls('**/revoke');
    const victim = await adminCall('POST', '/admin/v1/keys', { email: 'victim@example.org', license_type: 'free' });
    await page.goto(`${service.baseUrl}/console/keys/${victim.key_id}`);
    await web(page.getByTestId('key-status')).toHaveText('active');
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).dblclick();
    const busy = page.getByRole('button', { name: 'Revoking…' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect(await busy.getAttribute('aria-busy')).toBe('true');
    await page
      .getByRole('button', { name: 'Revoking…' })
      .click({ force: true })
      .catch(() => undefined);
    await gate.release();
    await web(page.getByTestId('key-status')).toHaveText('revoked');
    expect(revokes).toHaveLength(1);
    expect((await adminCall('GET', `/admin/v1/audit?key_id=${victim.key_id}&action=key.revoked`)).entries).toHaveLength(1);
  });

  it('says what failed on a 5xx and on a network error, with a Retry that works', async () => {
    await page.route('**/admin/v1/overview', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Service unavailable', code: 'SERVICE_UNAVAILABLE' }),
      }),
    );
    await nav('Overview', 'Overview');
    await page.getByRole('alert').filter({ hasText: 'SERVICE_UNAVAILABLE' }).waitFor();
    await shot('overview-error');
    await page.unroute('**/admin/v1/overview');
    await page.route('**/admin/v1/overview', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('alert').filter({ hasText: 'The service cannot be reached' }).waitFor();
    await page.unroute('**/admin/v1/overview');
    await page.getByRole('button', { name: 'Retry' }).click();
    await web(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await page.getByRole('heading', { name: 'Recent audit events' }).waitFor();
  });

  it('closes a confirmation on Escape without acting; warns before leaving a key shown once', async () => {
    const key = await adminCall('POST', '/admin/v1/keys', { email: 'escape@example.org', license_type: 'free' });
    await page.goto(`${service.baseUrl}/console/keys/${key.key_id}`);
    await web(page.getByTestId('key-status')).toHaveText('active');
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await web(page.getByRole('dialog')).toHaveCount(0);
    await web(page.getByTestId('key-status')).toHaveText('active');
    expect(await page.getByRole('button', { name: 'Revoke', exact: true }).isDisabled()).toBe(false);

    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await page.locator('#secret-value').waitFor();
    await web(page.locator('#secret-title')).toBeFocused(); // focus moves after the render: polled like the rest
    const before = dialogs.length;
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Keys', exact: true }).click();
    await web(page.locator('#secret-value')).toHaveCount(1); // the warning was dismissed: still here
    expect(dialogs.slice(before)).toEqual([expect.stringMatching(/^confirm: The key is shown only this once/)]);
    dialogs.splice(before);
    await page.getByRole('button', { name: /hide the key/ }).click();
    // the page reloaded after the rotation: this key is now rotated, its actions disabled
    await web(page.getByTestId('actions-blocked')).toContainText('This key was rotated');
  });

  // ---- operators with their own tokens and roles ----

  const OPERATOR_TOKEN = /^svc_admin_[0-9a-f]{48}$/;
  let support: { token: string; operatorId: string } | null = null;
  const asToken = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, any> };
  };

  it('an owner creates an operator on the Operators page and sees its token once', async () => {
    await nav('Operators', 'Operators');
    await page.getByRole('button', { name: 'Create an operator' }).click();
    await page.getByLabel('Name').fill('Sam Support');
    await page.getByLabel('E-mail (optional)').fill('sam@example.org');
    await page.getByLabel('Role', { exact: true }).selectOption('support');
    await page.getByRole('button', { name: 'Create the operator' }).click();
    const secret = page.locator('#secret-value');
    await secret.waitFor();
    const token = await secret.inputValue();
    expect(token).toMatch(OPERATOR_TOKEN);
    await page.getByText('Operator Sam Support created: the token').waitFor();
    await page.getByText('This is the only time the token is shown').waitFor();
    expect(await page.getByLabel('Admin token').inputValue()).toBe(token);
    await web(page.locator('#secret-title')).toBeFocused(); // focus moves after the render: polled like the rest
    await shot('operator-created');
    await axeCheck('operator-token-shown');
    await page.getByRole('button', { name: /hide the token/ }).click();
    await web(secret).toHaveCount(0);
    expect(await page.content()).not.toContain(token);
    // listed without its token; the token works as the support operator's
    const listed = await adminCall('GET', '/admin/v1/operators');
    const sam = listed.operators.find((o: { name: string }) => o.name === 'Sam Support');
    expect(sam).toMatchObject({ email: 'sam@example.org', role: 'support', disabled_at: null });
    expect(JSON.stringify(listed)).not.toContain(token);
    const row = page.locator(`tr[data-operator="${sam.operator_id}"]`);
    await web(row.getByTestId('operator-role')).toHaveText('support');
    await web(row.locator('.badge')).toHaveText('enabled');
    expect((await asToken(token, 'GET', '/admin/v1/me')).body).toMatchObject({ operator_id: sam.operator_id, role: 'support' });
    support = { token, operatorId: sam.operator_id };
  });

  it("an owner changes an operator's role, replaces its token (shown once; the old one refused) and disables it", async () => {
    const temp = (await adminCall('POST', '/admin/v1/operators', { name: 'Temp Viewer', role: 'viewer' })) as {
      operator_id: string;
      token: string;
    };
    await page.reload();
    const row = page.locator(`tr[data-operator="${temp.operator_id}"]`);
    await web(row.getByTestId('operator-role')).toHaveText('viewer');
    await row.getByLabel('Role of Temp Viewer', { exact: true }).selectOption('admin');
    await row.getByRole('button', { name: 'Change the role of Temp Viewer' }).click();
    await page.getByRole('dialog').getByText('Make Temp Viewer admin (now viewer)?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Change role' }).click();
    await web(row.getByTestId('operator-role')).toHaveText('admin');
    expect((await asToken(temp.token, 'GET', '/admin/v1/me')).body.role).toBe('admin');

    await row.getByRole('button', { name: 'New token for Temp Viewer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Replace token' }).click();
    await page.getByText('New token for Temp Viewer').first().waitFor();
    const replaced = await page.locator('#secret-value').inputValue();
    expect(replaced).toMatch(OPERATOR_TOKEN);
    expect((await asToken(temp.token, 'GET', '/admin/v1/me')).status).toBe(401);
    expect((await asToken(replaced, 'GET', '/admin/v1/me')).status).toBe(200);
    await page.getByRole('button', { name: /hide the token/ }).click();
    await web(page.locator('#secret-value')).toHaveCount(0);

    await row.getByRole('button', { name: 'Disable Temp Viewer' }).click();
    await page.getByRole('dialog').getByText('refused at once on every instance').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await web(row.locator('.badge')).toHaveText('disabled');
    expect((await asToken(replaced, 'GET', '/admin/v1/me')).status).toBe(401);
    await shot('operators');
    // the operator changes are in the audit log, made by ADMIN_TOKEN
    const changes = await adminCall('GET', '/admin/v1/audit?action=operator.updated&limit=200');
    expect(changes.entries.filter((e: { details: { operator_id: string } }) => e.details.operator_id === temp.operator_id)).toHaveLength(2);
  });

  it('a support operator signs in, sees what its role cannot do disabled with the reason, revokes a key; the audit names them', async () => {
    expect(support).not.toBeNull();
    const victim = await adminCall('POST', '/admin/v1/keys', { email: `leaked.${Date.now()}@example.org`, license_type: 'research' });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' });
    const tab = await context.newPage();
    tab.on('dialog', (dialog: Dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleError(message.text());
    });
    const refused: string[] = [];
    const operatorCalls: string[] = [];
    tab.on('response', (response) => {
      if (response.status() === 403) refused.push(response.url());
      if (response.url().includes('/admin/v1/operators')) operatorCalls.push(response.url());
    });
    try {
      await tab.goto(`${service.baseUrl}/console`);
      await tab.getByLabel('Admin token').fill(support!.token);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await web(tab.getByTestId('signed-in-name')).toHaveText('Sam Support');
      await web(tab.getByTestId('signed-in-role')).toHaveText('support');
      expect(await tab.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([support!.token]);

      const go = async (title: string, heading: string) => {
        await tab.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: title, exact: true }).click();
        await tab.getByRole('heading', { level: 1, name: heading }).waitFor();
      };
      /** The control is disabled, and its description (aria-describedby) is the reason. */
      const refusedWith = async (control: Locator, reason: string) => {
        expect(await control.isDisabled()).toBe(true);
        const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
        const texts = await Promise.all(ids.map((id) => tab.locator(`[id="${id}"]`).textContent()));
        expect(texts).toContain(reason);
        await tab.locator(`[id="${ids[ids.length - 1]}"]`).waitFor({ state: 'visible' });
      };

      await go('Keys', 'Keys');
      await refusedWith(tab.getByRole('button', { name: 'Issue a key' }), 'Needs the admin role (you are support).');
      await tab.screenshot({ path: join(SHOTS, 'keys-as-support.png'), fullPage: true });
      await go('Models', 'Models');
      await tab.locator('table.models tbody tr').first().waitFor();
      await refusedWith(tab.getByRole('button', { name: 'Add a model' }), 'Needs the admin role (you are support).');
      await refusedWith(tab.getByRole('button', { name: /^Edit / }).first(), 'Needs the admin role (you are support).');
      await refusedWith(tab.getByRole('button', { name: /^Delete / }).first(), 'Needs the admin role (you are support).');
      await go('Operators', 'Operators');
      await refusedWith(tab.getByRole('button', { name: 'Create an operator' }), 'Needs the owner role (you are support).');
      expect(operatorCalls).toEqual([]);

      // the key: the tier needs an admin; limit, expiry, rotation and revocation are support's
      await tab.goto(`${service.baseUrl}/console/keys/${victim.key_id}`);
      await web(tab.getByTestId('key-status')).toHaveText('active');
      await refusedWith(tab.getByRole('button', { name: 'Change tier' }), 'Needs the admin role (you are support).');
      expect(await tab.locator('#action-tier').isDisabled()).toBe(true);
      for (const name of ['Change limit', 'Change expiry', 'Rotate', 'Revoke']) {
        expect({ name, disabled: await tab.getByRole('button', { name, exact: true }).isDisabled() }).toEqual({ name, disabled: false });
      }
      await tab.screenshot({ path: join(SHOTS, 'key-as-support.png'), fullPage: true });
      await axeCheckOn(tab, 'key-as-support');

      // beyond the key's bounds is an upgrade: unlimited, a limit above the tier's, an expiry years ahead
      const reasonOf = async (control: Locator): Promise<string> => {
        const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
        return (await Promise.all(ids.map((id) => tab.locator(`[id="${id}"]`).textContent()))).join(' ');
      };
      const changeLimit = tab.getByRole('button', { name: 'Change limit', exact: true });
      await tab.locator('#action-limit-mode').selectOption('unlimited');
      await web(changeLimit).toBeDisabled();
      expect(await reasonOf(changeLimit)).toBe(
        'Up to 50,000 a month; a higher limit or unlimited is an upgrade: Needs the admin role (you are support).',
      );
      await tab.locator('#action-limit-mode').selectOption('override');
      await tab.locator('#action-limit').fill('50001');
      await web(changeLimit).toBeDisabled();
      await tab.locator('#action-limit').fill('50000');
      await web(changeLimit).toBeEnabled();
      const changeExpiry = tab.getByRole('button', { name: 'Change expiry', exact: true });
      await tab.locator('#action-expires').fill('2099-01-01T00:00');
      await web(changeExpiry).toBeDisabled();
      expect(await reasonOf(changeExpiry)).toMatch(/later is an upgrade: Needs the admin role \(you are support\)\.$/);
      await tab.screenshot({ path: join(SHOTS, 'key-bounds-as-support.png'), fullPage: true });
      await tab.getByLabel('Revoke (reason, optional)').fill('leaked in a support ticket');
      await tab.getByRole('button', { name: 'Revoke', exact: true }).click();
      await tab.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await web(tab.getByTestId('key-status')).toHaveText('revoked');
      // the key's audit trail names them
      const revokedRow = tab.locator('table.audit tbody tr').filter({ hasText: 'key.revoked' });
      await web(revokedRow.locator('td.actor')).toHaveText('Sam Support');

      // the audit log names them; their name leads to every entry they made
      await go('Audit', 'Audit log');
      await tab.getByLabel('Action').selectOption('key.revoked');
      const row = tab.locator('table.audit tbody tr').filter({ hasText: victim.key_id });
      await web(row).toHaveCount(1);
      await web(row.locator('td.actor')).toHaveText('Sam Support');
      await web(row).toContainText('leaked in a support ticket');
      await row.locator('td.actor a').click();
      await tab.getByTestId('actor-filter').waitFor();
      expect(tab.url()).toContain(`actor=${support!.operatorId}`);
      const theirs = await adminCall('GET', `/admin/v1/audit?actor=${support!.operatorId}&limit=200`);
      expect(theirs.entries.map((e: { action: string }) => e.action)).toEqual(['key.revoked']);
      await web(tab.locator('table.audit tbody tr')).toHaveCount(1);
      await tab.screenshot({ path: join(SHOTS, 'audit-as-support.png'), fullPage: true });
      // and every audit list shows each entry's actor: the bootstrap issued the key
      const trail = await adminCall('GET', `/admin/v1/audit?key_id=${victim.key_id}`);
      expect(trail.entries.map((e: { action: string; actor: unknown }) => [e.action, e.actor])).toEqual([
        ['key.revoked', { type: 'operator', operator_id: support!.operatorId, name: 'Sam Support' }],
        ['key.issued', { type: 'bootstrap' }],
      ]);
      await tab.goto(`${service.baseUrl}/console/keys/${victim.key_id}`);
      const issuedRow = tab.locator('table.audit tbody tr').filter({ hasText: 'key.issued' });
      await web(issuedRow.locator('td.actor')).toHaveText('ADMIN_TOKEN');
      // nothing was tried that the role may not do
      expect(refused).toEqual([]);

      // an owner demotes them while the page is open: the service's 403 makes the session read /me again, and the page follows
      const other = await adminCall('POST', '/admin/v1/keys', { email: `demoted.${Date.now()}@example.org`, license_type: 'free' });
      await tab.goto(`${service.baseUrl}/console/keys/${other.key_id}`);
      await web(tab.getByTestId('key-status')).toHaveText('active');
      expect(await tab.getByRole('button', { name: 'Revoke', exact: true }).isDisabled()).toBe(false);
      await adminCall('PATCH', `/admin/v1/operators/${support!.operatorId}`, { role: 'viewer' });
      await tab.getByRole('button', { name: 'Revoke', exact: true }).click();
      await tab.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await tab.getByRole('alert').filter({ hasText: 'FORBIDDEN' }).waitFor();
      await web(tab.getByTestId('signed-in-role')).toHaveText('viewer');
      await refusedWith(tab.getByRole('button', { name: 'Revoke', exact: true }), 'Needs the support role (you are viewer).');
      await web(tab.getByTestId('key-status')).toHaveText('active');
      expect(refused).toHaveLength(1);
      // a disabled operator is signed out on the next call, saying why
      await adminCall('PATCH', `/admin/v1/operators/${support!.operatorId}`, { disabled: true });
      await tab.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Keys', exact: true }).click();
      await tab.getByText('The service refused the admin token: sign in again.').waitFor();
      expect(await tab.evaluate<number>('sessionStorage.length')).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("lists the license's devices on the key page, deactivates one after a confirmation, counts active devices on the overview; a viewer sees Deactivate disabled with the reason (CONTRACT 23)", async () => {
    const key = await adminCall('POST', '/admin/v1/keys', { email: `devices.${Date.now()}@example.org`, license_type: 'research' });
    const activate = async (fingerprint: string, name: string) => {
      const res = await fetch(`${service.baseUrl}/v1/devices/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: key.api_key, fingerprint, name, platform: 'windows-x64' }),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { device_id: string };
    };
    const labA = await activate(`console-device-a-${Date.now()}`, 'Lab PC A');
    await activate(`console-device-b-${Date.now()}`, 'Lab PC B');

    await page.goto(`${service.baseUrl}/console/keys/${key.key_id}`);
    const panel = page.getByTestId('devices');
    await panel.getByRole('heading', { name: 'Devices' }).waitFor();
    await web(panel.getByTestId('devices-count')).toHaveText("2 of 3 seats held (the license's, every key's devices)");
    await web(page.getByTestId('key-max-devices')).toContainText('3');
    await panel.getByRole('cell', { name: 'Lab PC A', exact: true }).waitFor();
    await panel.getByRole('cell', { name: 'Lab PC B', exact: true }).waitFor();
    await axeCheck('key-devices');

    await panel.getByRole('button', { name: 'Deactivate Lab PC A' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Its seat is freed at once').waitFor();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await web(panel.getByTestId('devices-count')).toHaveText("1 of 3 seats held (the license's, every key's devices)");
    await web(panel.locator('[data-device-status="deactivated"]')).toHaveText('deactivated (by operator)');
    expect(await panel.getByRole('button', { name: 'Deactivate Lab PC A' }).count()).toBe(0);
    const listed = await adminCall('GET', `/admin/v1/keys/${key.key_id}/devices`);
    expect(listed.devices.find((d: { device_id: string }) => d.device_id === labA.device_id)).toMatchObject({
      status: 'deactivated',
      deactivation_reason: 'operator',
    });
    await page.locator('table.audit').getByText('device.deactivated').first().waitFor();
    await shot('key-devices');

    await nav('Overview', 'Overview');
    const overview = await adminCall('GET', '/admin/v1/overview');
    expect(overview.active_devices).toBeGreaterThanOrEqual(1);
    await web(page.getByTestId('active-devices')).toHaveText(String(overview.active_devices));

    const viewer = await adminCall('POST', '/admin/v1/operators', { name: 'Devices Viewer', role: 'viewer' });
    const tab = await page.context().newPage();
    try {
      await tab.goto(`${service.baseUrl}/console/keys/${key.key_id}`);
      await tab.getByLabel('Admin token').fill(viewer.token);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      const button = tab.getByTestId('devices').getByRole('button', { name: 'Deactivate Lab PC B' });
      await button.waitFor();
      expect(await button.isDisabled()).toBe(true);
      const ids = ((await button.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
      const texts = await Promise.all(ids.map((id) => tab.locator(`[id="${id}"]`).textContent()));
      expect(texts).toContain('Needs the support role (you are viewer).');
      await axeCheckOn(tab, 'key-devices-as-viewer');
    } finally {
      await tab.close();
    }
  });

  it('has no serious accessibility violation on any page (axe-core)', async () => {
    const pages: Array<[string, string, string]> = [
      ['overview', '/console', 'Overview'],
      ['keys', `/console/keys?email=${encodeURIComponent(chain.email)}`, 'Keys'],
      ['key', `/console/keys/${chain.first.key_id}`, 'Key'],
      ['near-quota', '/console/near-quota', 'Keys at or near their quota'],
      ['models', '/console/models', 'Models'],
      ['audit', '/console/audit', 'Audit log'],
      ['operators', '/console/operators', 'Operators'],
      ['not-found', '/console/nowhere', 'Not found'],
    ];
    for (const [name, path, heading] of pages) {
      await page.goto(`${service.baseUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      await web(page.locator('.load-state[aria-busy="true"]')).toHaveCount(0);
      await axeCheck(name);
    }
  });

  it('signs out, forgetting the token; no dialog, script error or policy violation happened', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    // a token the service no longer accepts (ADMIN_TOKEN changed): back to sign-in, saying why, token forgotten
    await page.evaluate(`sessionStorage.setItem('svc-console-admin-token', 'a-stale-admin-token-0123456789')`);
    await page.goto(`${service.baseUrl}/console/keys`);
    await page.getByText('The service refused the admin token: sign in again.').waitFor();
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    // the browser logs each deliberate refusal and simulated failure as a failed resource, in the step that caused it; nothing else may be
    const short = (text: string) =>
      /status of (\d{3}) /.exec(text)?.[1] ?? (/ERR_CONNECTION_REFUSED/.test(text) ? 'ERR_CONNECTION_REFUSED' : text);
    const seen: Record<string, string[]> = {};
    for (const { step, text } of consoleErrors) (seen[step] ??= []).push(short(text));
    expect(seen).toEqual({
      // the wrong token's 401
      'refuses a wrong token, then signs in with the right one (kept in session storage only)': ['401'],
      // the bad checksum's 400
      'registers an external URL (checksum and size required), edits a model, deletes one after a confirmation': ['400'],
      // simulated failures: a 503, a refused connection
      'says what failed on a 5xx and on a network error, with a Retry that works': ['503', 'ERR_CONNECTION_REFUSED'],
      // and the demoted operator's one 403, then the disabled operator's 401
      'a support operator signs in, sees what its role cannot do disabled with the reason, revokes a key; the audit names them': [
        '403',
        '401',
      ],
      // this step's stale token
      'signs out, forgetting the token; no dialog, script error or policy violation happened': ['401'],
    });
    expect(consoleErrors.filter(({ text }) => /Content.Security.Policy|Refused to/i.test(text))).toEqual([]);
  });
});

(runs ? describe : describe.skip)('Operator console in a browser: the Webhooks page (CONTRACT 20)', () => {
  jest.setTimeout(120000);
  let folder: string;
  let service: ServiceProcess;
  let browser: Browser;
  let page: Page;
  let receiver: WebhookReceiver;
  const pageErrors: string[] = [];
  /** The browser's own dialogs (the secret's leave-without-copying confirmation), accepted unless `dismissing`. */
  const dialogs: string[] = [];
  let dismissing = false;
  const shot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    folder = mkdtempSync(join(tmpdir(), 'svc-console-hooks-'));
    receiver = await WebhookReceiver.start();
    service = await ServiceProcess.start({
      DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
      MODEL_STORE_DIR: join(folder, 'models'),
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      SAMPLE_MODELS: 'false',
      // the receiver is on 127.0.0.1
      WEBHOOK_ALLOW_INSECURE: 'true',
      ...GENEROUS_LIMITS,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    page = await (
      await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Berlin' })
    ).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('dialog', (dialog: Dialog) => {
      dialogs.push(dialog.message());
      void (dismissing ? dialog.dismiss() : dialog.accept());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await receiver?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('adds an endpoint (its secret shown once), sends a test, shows the deliveries with attempts and last status, retries one', async () => {
    await page.goto(`${service.baseUrl}/console`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No webhook endpoints yet.').waitFor();

    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.getByLabel('Address (https)').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill(XSS);
    await page.getByRole('checkbox', { name: 'model.deleted' }).check();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    // shown once like a key, but kept by the service to sign (not as a digest), and said so
    await page.getByRole('heading', { level: 2, name: `Signing secret of ${receiver.url}` }).waitFor();
    await web(page.locator('#secret-title')).toBeFocused(); // focus moves after the render: polled like the rest
    const warning = page.locator('.secret .warning');
    await web(warning).toHaveText(
      'This is the only time the secret is shown. Copy it now and give it to the receiver securely: the service keeps it to sign each message, but never shows it again.',
    );
    expect(await warning.textContent()).not.toContain('digest');
    // leaving by a link asks first; declined, the secret stays
    dismissing = true;
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Keys', exact: true }).click();
    dismissing = false;
    expect(dialogs).toEqual(['The secret is shown only this once. Leave without copying it?']);
    expect(await page.getByLabel('Signing secret', { exact: true }).inputValue()).toBe(secret);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await shot('webhooks-secret');
    await page.getByRole('button', { name: 'I have copied it: hide the secret' }).click();
    await web(page.getByLabel('Signing secret', { exact: true })).toHaveCount(0);
    // the description is text, never markup
    await web(page.locator('table').getByText(XSS)).toHaveCount(1);

    await page.getByRole('button', { name: `Send a test event to ${receiver.url}` }).click();
    await eventually(() => receiver.received.length === 1);
    const [message] = receiver.received;
    expect(new Webhook(secret).verify(message.body, message.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    const row = page.locator(`tr[data-delivery="${String(message.headers['webhook-id'])}"]`);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return ((await row.textContent()) ?? '').includes('succeeded');
    });
    await web(row).toContainText('webhook.test');
    await web(row).toContainText('204');

    receiver.answer = 500;
    await page.getByRole('button', { name: `Send a test event to ${receiver.url}` }).click();
    await eventually(() => receiver.received.length === 2);
    const failing = page.locator(`tr[data-delivery="${String(receiver.received[1].headers['webhook-id'])}"]`);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return ((await failing.textContent()) ?? '').includes('500');
    });
    await web(failing).toContainText('pending');
    await web(failing).toContainText('answered 500');
    receiver.answer = 204;
    await failing.getByRole('button', { name: /^Retry / }).click();
    await eventually(() => receiver.received.length === 3);
    expect(receiver.received[2].headers['webhook-id']).toBe(receiver.received[1].headers['webhook-id']);
    await eventually(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return ((await failing.textContent()) ?? '').includes('succeeded');
    });
    await shot('webhooks');
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
  it('a viewer sees the endpoints and deliveries, with adding, testing, changing and retrying disabled and the reason given', async () => {
    const created = await fetch(`${service.baseUrl}/admin/v1/operators`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hook Viewer', role: 'viewer' }),
    });
    const viewer = (await created.json()) as { token: string };
    const tab = await page.context().newPage();
    try {
      await tab.goto(`${service.baseUrl}/console/webhooks`);
      await tab.getByLabel('Admin token').fill(viewer.token);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      const refused = async (control: Locator, reason: string) => {
        await control.waitFor();
        expect(await control.isDisabled()).toBe(true);
        const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
        const texts = await Promise.all(ids.map((id) => tab.locator(`[id="${id}"]`).textContent()));
        expect(texts).toContain(reason);
      };
      await refused(tab.getByRole('button', { name: 'Add an endpoint' }), 'Needs the admin role (you are viewer).');
      await refused(tab.getByRole('button', { name: `Send a test event to ${receiver.url}` }), 'Needs the support role (you are viewer).');
      await refused(tab.getByRole('button', { name: 'Delete', exact: true }), 'Needs the admin role (you are viewer).');
      await tab.getByRole('button', { name: `Deliveries of ${receiver.url}` }).click();
      await refused(tab.getByRole('button', { name: /^Retry / }).first(), 'Needs the support role (you are viewer).');
      await tab.screenshot({ path: join(SHOTS, 'webhooks-as-viewer.png'), fullPage: true });
    } finally {
      await tab.close();
    }
  });
});

/** Playwright's web-first assertions, without @playwright/test: poll until the check holds (5 s). */
function web(locator: Locator) {
  const poll = async (check: () => Promise<boolean>, describe: () => Promise<string>) => {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      if (await check().catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(await describe());
  };
  return {
    toHaveText: (text: string) =>
      poll(
        async () => (await locator.textContent())?.trim() === text,
        async () => `expected text ${JSON.stringify(text)}, got ${JSON.stringify(await locator.textContent().catch(() => null))}`,
      ),
    toContainText: (text: string) =>
      poll(
        async () => ((await locator.textContent()) ?? '').includes(text),
        async () => `expected to contain ${JSON.stringify(text)}, got ${JSON.stringify(await locator.textContent().catch(() => null))}`,
      ),
    toBeDisabled: () =>
      poll(
        () => locator.isDisabled(),
        async () => `expected ${locator} to be disabled`,
      ),
    toBeEnabled: () =>
      poll(
        () => locator.isEnabled(),
        async () => `expected ${locator} to be enabled`,
      ),
    toHaveCount: (count: number) =>
      poll(
        async () => (await locator.count()) === count,
        async () => `expected ${count} elements, got ${await locator.count()}`,
      ),
    toBeFocused: () =>
      poll(
        () => locator.evaluate((element) => element === element.ownerDocument.activeElement),
        async () =>
          `expected ${locator} to have the focus, the focus is on ${await locator.page().evaluate('document.activeElement?.id || document.activeElement?.tagName')}`,
      ),
  };
}
