/**
 * The dashboard's files (built by `npm run build` into dist/dashboard/public) as keygate serves
 * them: content types, caching, ETags, gzip, security headers, and nothing outside the build.
 */
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';

describe('dashboard files', () => {
  const h = useHarness();

  const page = async (): Promise<{ res: Response; html: string }> => {
    const res = await fetch(`${h.url}/dashboard`);
    return { res, html: await res.text() };
  };

  test('GET /dashboard is the page: HTML, revalidated every time, locked down by CSP', async () => {
    const { res, html } = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toMatch(/^".+"$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(html).toMatch(/<script type="module" src="\/dashboard\/assets\/app-[A-Z0-9]+\.js"><\/script>/);
    expect((await fetch(`${h.url}/dashboard/`)).status).toBe(200);
  });

  test('assets: right content types, cached for a year as immutable, gzip when asked, 304 on a matching ETag', async () => {
    const { html } = await page();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const style = /href="(\/dashboard\/assets\/[^"]+\.css)"/.exec(html)![1]!;

    const js = await fetch(`${h.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-encoding')).toBeNull();
    const body = await js.text();
    expect(body.length).toBeGreaterThan(1000);

    const css = await fetch(`${h.url}${style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');

    // fetch asks for gzip and decodes it; the header shows what was sent.
    const zipped = await fetch(`${h.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('accept-encoding');
    expect(await zipped.text()).toBe(body);

    const etag = js.headers.get('etag')!;
    const again = await fetch(`${h.url}${script}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  test('only built files are served: unknown names and path tricks are 404', async () => {
    for (const path of ['/dashboard/assets/nope.js', '/dashboard/assets/../../package.json', '/dashboard/assets/%2e%2e/%2e%2e/package.json', '/dashboard/assets/']) {
      const res = await fetch(`${h.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain('"name"');
    }
  });

  test('the procedures are untouched: /v2 still answers its own 404 envelope', async () => {
    const res = await h.call('nope.nothing', {});
    expect(res.status).toBe(404);
    expect(res.body.error.type).toContain('procedure_not_found');
  });
});
