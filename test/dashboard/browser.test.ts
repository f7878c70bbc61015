/**
 * The dashboard in a real browser (Debian's chromium, headless, driven by playwright-core) against
 * a real keygate: sign in, create a root key and see it revealed once, create an API and a key,
 * verify the key through the RPC and watch the counts arrive in the chart; read those changes in
 * the audit log; every page at 1280 px and on a phone-sized screen. Screenshots go to test-artifacts/dashboard/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { useHarness } from '../support/harness.js';
import { recordSecret } from '../support/run-logs.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = new URL('../../test-artifacts/dashboard/', import.meta.url).pathname;
// Without the background-networking flags chromium tries to reach Google; this test stays on 127.0.0.1.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

describe('dashboard in a browser', () => {
  const h = useHarness();
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does), or set CHROMIUM_PATH`);
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  });
  afterAll(async () => { await browser?.close(); });

  const shot = async (page: Page, name: string): Promise<void> => {
    // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
  };

  async function open(width: number, height: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.setDefaultTimeout(10_000);
    return { context, page, errors };
  }

  async function signIn(page: Page, rootKey: string): Promise<void> {
    await page.goto(`${h.url}/dashboard`);
    await page.getByLabel('Root key', { exact: true }).fill(rootKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }

  async function go(page: Page, section: string, heading: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    // Skeletons gone: the page shows its content, its empty state or its error state.
    await page.waitForFunction(() => document.querySelector('.state-loading') === null);
  }

  const noHorizontalScroll = (page: Page): Promise<boolean> => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  test('at 1280 px: sign in, root key revealed once, API and key, verifications in the chart, every page', { timeout: 120_000 }, async () => {
    const { context, page, errors } = await open(1280, 800);

    // Sign-in, with a wrong key first: the error is shown in the form.
    await page.goto(`${h.url}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, '01-sign-in');
    await page.getByLabel('Root key', { exact: true }).fill('kgroot_wrong_key_000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('invalid or revoked');
    await shot(page, '02-sign-in-error');
    await signIn(page, h.adminKey);

    // The session cookie: HttpOnly (scripts cannot read it), SameSite=Strict.
    const cookie = (await context.cookies()).find((c) => c.name === 'keygate_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('keygate_session');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain(h.adminKey);

    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    await page.getByRole('heading', { name: 'No verifications in this range' }).waitFor();
    await shot(page, '03-usage-empty');

    // Root keys: create one from the catalogue; it is revealed once, with a copy button.
    await go(page, 'Root keys', 'Root keys');
    await page.getByRole('button', { name: 'New root key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New root key' });
    await dialog.getByLabel('Name', { exact: true }).fill('ci backend');
    await dialog.locator('input[value="api.*.verify_key"]').check();
    await dialog.locator('input[value="api.*.read_api"]').check();
    await shot(page, '04-root-key-create');
    await dialog.getByRole('button', { name: 'Create root key' }).click();
    const revealed = page.getByTestId('revealed-secret');
    await revealed.waitFor();
    const newRootKey = await revealed.textContent() ?? '';
    expect(newRootKey).toMatch(/^kgroot_/);
    recordSecret(newRootKey);
    await expect.poll(() => page.getByRole('dialog').getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await shot(page, '05-root-key-revealed');
    // The key works, with exactly the chosen permissions.
    expect((await h.call('apis.listApis', {}, { rootKey: newRootKey })).status).toBe(200);
    expect((await h.call('apis.createApi', { name: 'nope' }, { rootKey: newRootKey })).status).toBe(403);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByTestId('root-key-row').filter({ hasText: 'ci backend' }).waitFor();
    // Shown once: nowhere on the page any more, and the list never carries it.
    expect(await page.content()).not.toContain(newRootKey);
    await shot(page, '06-root-keys');

    // APIs: empty state, then create one and issue a key with a limit and credits.
    await go(page, 'APIs & keys', 'APIs & keys');
    await page.getByText('No APIs yet').waitFor();
    await shot(page, '07-apis-empty');
    await page.getByRole('button', { name: 'New API' }).first().click();
    await page.getByRole('dialog', { name: 'New API' }).getByLabel('Name', { exact: true }).fill('weather-api');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.getByRole('heading', { level: 1, name: 'weather-api' }).waitFor();
    await page.getByText('No keys yet').waitFor();
    await page.getByRole('button', { name: 'New key' }).first().click();
    const keyDialog = page.getByRole('dialog', { name: 'New key' });
    await keyDialog.getByLabel('Name (optional)', { exact: true }).fill('acme production');
    await keyDialog.getByLabel('Prefix (optional)', { exact: true }).fill('wx');
    await keyDialog.getByLabel('Owner (externalId, optional)', { exact: true }).fill('acme');
    await keyDialog.getByLabel('Credits (optional)', { exact: true }).fill('100');
    await keyDialog.getByRole('button', { name: 'Add a limit' }).click();
    await keyDialog.getByLabel('Requests', { exact: true }).fill('3');
    await keyDialog.getByLabel('Window', { exact: true }).fill('60s');
    await shot(page, '08-key-create');
    await keyDialog.getByRole('button', { name: 'Create key' }).click();
    await revealed.waitFor();
    const apiKey = await revealed.textContent() ?? '';
    expect(apiKey).toMatch(/^wx_/);
    recordSecret(apiKey);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.getByTestId('key-row').filter({ hasText: 'acme production' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('100');
    await shot(page, '09-api-keys');

    // Verifications through the RPC, as the API would make them: 3 valid, then rate limited.
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await h.verify(apiKey)).body.data.code);
    expect(codes).toEqual(['VALID', 'VALID', 'VALID', 'RATE_LIMITED', 'RATE_LIMITED']);

    // The chart shows them (live refresh: no reload needed).
    await go(page, 'Usage', 'Usage');
    const chart = page.getByTestId('usage-chart');
    await expect.poll(async () => Number(await chart.getAttribute('data-total').catch(() => '0')), { timeout: 20_000 }).toBe(5);
    await expect.poll(() => page.getByTestId('stat-valid').textContent()).toContain('3');
    await expect.poll(() => page.getByTestId('stat-rate-limited').textContent()).toContain('2');
    await page.locator('.chart canvas').waitFor();
    // Live: two more verifications appear without touching the page.
    await h.verify(apiKey);
    await h.verify('wx_not_a_real_key');
    await expect.poll(async () => Number(await chart.getAttribute('data-total')), { timeout: 20_000 }).toBe(6);
    await page.getByRole('button', { name: 'per Key' }).click();
    await page.locator('.table').filter({ hasText: 'Rate limited' }).waitFor();
    await shot(page, '10-usage');

    // Filters: another API's verification counts in "All APIs", not in weather-api's.
    const otherApi = await h.createApi('other-api');
    const other = await h.createKey({ apiId: otherApi });
    expect((await h.verify(other.key)).body.data.code).toBe('VALID');
    await expect.poll(async () => Number(await chart.getAttribute('data-total')), { timeout: 20_000 }).toBe(7);
    await page.getByLabel('API', { exact: true }).selectOption({ label: 'weather-api' });
    await expect.poll(async () => Number(await chart.getAttribute('data-total')), { timeout: 10_000 }).toBe(6);
    await page.getByLabel('Key id', { exact: true }).fill(other.keyId);
    await page.getByRole('heading', { name: 'No verifications in this range' }).waitFor();
    await page.getByLabel('API', { exact: true }).selectOption({ label: 'All APIs' });
    await expect.poll(async () => Number(await chart.getAttribute('data-total').catch(() => '0')), { timeout: 10_000 }).toBe(1);
    await page.getByLabel('Key id', { exact: true }).fill('');

    // The other pages, each with content.
    await go(page, 'Identities', 'Identities');
    const acme = page.getByTestId('identity-row').filter({ hasText: 'acme' });
    await acme.getByRole('button', { name: 'Edit limits' }).click();
    const limitsDialog = page.getByRole('dialog', { name: 'Limits of acme' });
    await limitsDialog.getByRole('button', { name: 'Add a limit' }).click();
    await limitsDialog.getByLabel('Requests', { exact: true }).fill('500');
    await limitsDialog.getByLabel('Window', { exact: true }).fill('1h');
    await limitsDialog.getByRole('button', { name: 'Save limits' }).click();
    await expect.poll(() => acme.textContent()).toContain('500 / 1 h');
    await shot(page, '11-identities');

    expect((await h.call('ratelimit.limit', { namespace: 'sms', identifier: '+15550100', limit: 2, duration: 60_000 })).status).toBe(200);
    await go(page, 'Rate limits', 'Rate limits');
    await page.getByTestId('namespace-row').filter({ hasText: 'sms' }).click();
    await page.getByText('No overrides').waitFor();
    await page.getByRole('button', { name: 'New override' }).first().click();
    const override = page.getByRole('dialog', { name: 'New override' });
    await override.getByLabel('Identifier', { exact: true }).fill('premium_*');
    await override.getByLabel('Limit', { exact: true }).fill('1000');
    await override.getByRole('button', { name: 'Save override' }).click();
    await page.getByTestId('override-row').filter({ hasText: 'premium_*' }).waitFor();
    await shot(page, '12-ratelimit-overrides');

    await go(page, 'Permissions', 'Permissions & roles');
    await page.getByRole('button', { name: 'New permission' }).first().click();
    await page.getByRole('dialog', { name: 'New permission' }).getByLabel('Name', { exact: true }).fill('documents.read');
    await page.getByRole('button', { name: 'Create permission' }).click();
    await page.getByTestId('permission-row').filter({ hasText: 'documents.read' }).waitFor();
    await page.getByRole('button', { name: 'New role' }).click();
    const role = page.getByRole('dialog', { name: 'New role' });
    await role.getByLabel('Name', { exact: true }).fill('reader');
    await role.getByText('documents.read').click();
    await role.getByRole('button', { name: 'Create role' }).click();
    await page.getByTestId('role-row').filter({ hasText: 'reader' }).waitFor();
    await shot(page, '13-permissions');

    // The audit log: the changes just made through this session, newest first, filtered, and a
    // target link that leads to its page. Secrets revealed above appear nowhere in it.
    await go(page, 'Audit log', 'Audit log');
    const auditRows = page.getByTestId('audit-row');
    await auditRows.filter({ hasText: 'permissions.createRole' }).first().waitFor();
    expect(await auditRows.first().textContent()).toContain('permissions.createRole');
    expect(await auditRows.filter({ hasText: 'rootKeys.createRootKey' }).first().textContent()).toContain('dashboard');
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Procedure', { exact: true }).fill('apis.createApi');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => auditRows.count()).toBe(2);
    await shot(page, '14-audit-log');
    expect(await page.content()).not.toContain(newRootKey);
    expect(await page.content()).not.toContain(apiKey);
    await auditRows.filter({ hasText: 'weather-api' }).getByTestId('audit-target').filter({ hasText: 'weather-api' }).click();
    await page.getByRole('heading', { level: 1, name: 'weather-api' }).waitFor();
    // And back: the API's own audit log, its creation and its key's among the events.
    await page.getByRole('main').getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await auditRows.filter({ hasText: 'keys.createKey' }).first().waitFor();
    expect(await auditRows.filter({ hasText: 'apis.createApi' }).count()).toBe(1);
    await go(page, 'Audit log', 'Audit log');
    // The API's log had its id in the target filter; the whole log clears it once it has rendered
    // (the heading was there before): typing earlier would be undone by that render.
    await expect.poll(() => filters.getByLabel('Target id', { exact: true }).inputValue()).toBe('');
    await filters.getByLabel('Target id', { exact: true }).fill('api_doesnotexist');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No event matches').waitFor();

    // Sign-out ends the session: the page is back at sign-in, and the old cookie is dead.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const reuse = await h.call('apis.listApis', {}, { rootKey: null, headers: { cookie: `keygate_session=${cookie.value}`, 'x-keygate-csrf': 'x' } });
    expect(reuse.status).toBe(401);

    expect(errors).toEqual([]);
    await context.close();
  });

  test('on a 390 px phone: every page fits the width; a narrow root key sees designed 403 states', { timeout: 120_000 }, async () => {
    // Content of its own (not the other test's): an API with a key that was verified.
    const apiId = await h.createApi('mobile-api');
    const { key } = await h.createKey({ apiId, name: 'phone key', externalId: 'mobile-user', credits: { remaining: 10 } });
    await h.verify(key);
    const { context, page, errors } = await open(390, 844);
    await signIn(page, h.adminKey);
    const pages: [string, string, string][] = [
      ['Usage', 'Usage', 'mobile-01-usage'],
      ['APIs & keys', 'APIs & keys', 'mobile-02-apis'],
      ['Identities', 'Identities', 'mobile-03-identities'],
      ['Rate limits', 'Rate limits', 'mobile-04-ratelimits'],
      ['Permissions', 'Permissions & roles', 'mobile-05-permissions'],
      ['Root keys', 'Root keys', 'mobile-06-root-keys'],
      ['Audit log', 'Audit log', 'mobile-06-audit-log'],
    ];
    for (const [link, heading, name] of pages) {
      await go(page, link, heading);
      expect(await noHorizontalScroll(page), name).toBe(true);
      await shot(page, name);
    }
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'APIs & keys' }).click();
    await page.getByTestId('api-row').filter({ hasText: 'mobile-api' }).click();
    await page.getByTestId('key-row').first().waitFor();
    expect(await noHorizontalScroll(page)).toBe(true);
    await shot(page, 'mobile-07-api-keys');
    await page.getByRole('button', { name: 'New key' }).first().click();
    await shot(page, 'mobile-08-key-create');
    await page.keyboard.press('Escape');

    // A root key that may read APIs but not root keys: the dashboard shows what it lacks.
    await page.getByRole('button', { name: 'Sign out' }).click();
    const narrow = await h.rootKey(['api.*.read_api']);
    await signIn(page, narrow);
    await go(page, 'Root keys', 'Root keys');
    await page.getByText('Your root key may not see this').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('root_key.*.read_root_key');
    await shot(page, 'mobile-09-forbidden');
    await go(page, 'Audit log', 'Audit log');
    await page.getByText('Your root key may not see this').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('audit_log.*.read_audit_log');

    expect(errors).toEqual([]);
    await context.close();
  });
});
