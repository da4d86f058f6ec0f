import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type Dialog, type Locator, type Page, chromium } from 'playwright-core';
import { GENEROUS_LIMITS } from '../harness/create-test-app';
import { ServiceProcess } from '../harness/service-process';

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
  const consoleErrors: string[] = [];
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
      if (message.type() === 'error') consoleErrors.push(message.text());
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
    await page.reload();
    await page.getByTestId('key-status').waitFor();
    await web(page.getByTestId('quota-used')).toHaveText('3');
    expect(await page.locator('#quota-meter').getAttribute('value')).toBe('3');
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.locator(`tr[data-day="${today}"] td.num`).textContent()).toBe('3');
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
    // the browser logs the deliberate refusals (the wrong token's 401, the bad checksum's 400) as failed resources; nothing else may be
    expect(consoleErrors.filter((text) => !/status of 40[01] /.test(text))).toEqual([]);
    expect(consoleErrors.filter((text) => /Content.Security.Policy|Refused to/i.test(text))).toEqual([]);
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
    toHaveCount: (count: number) =>
      poll(
        async () => (await locator.count()) === count,
        async () => `expected ${count} elements, got ${await locator.count()}`,
      ),
  };
}
