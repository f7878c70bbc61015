/**
 * The official @unkey/api SDK pointed at a real keygate: the only change a user makes is the URL.
 * Retries are off so that an error reaches the test at once (the SDK retries 5xx by default).
 * Keys it is issued are recorded for the end-of-run search of the logs (run-logs.ts).
 */
import { HTTPClient, Unkey } from '@unkey/api';
import type { Harness } from '../support/harness.js';
import { recordIssuedKey } from '../support/run-logs.js';

export function sdkFor(h: Harness, rootKey: string = h.adminKey): Unkey {
  const httpClient = new HTTPClient().addHook('response', async (res, req) => {
    if (res.ok) recordIssuedKey(new URL(req.url).pathname, await res.clone().json().catch(() => null));
  });
  return new Unkey({ serverURL: h.url, rootKey, retryConfig: { strategy: 'none' }, httpClient });
}
