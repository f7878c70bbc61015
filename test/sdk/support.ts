/**
 * The official @unkey/api SDK pointed at a real keygate: the only change a user makes is the URL.
 * Retries are off so that an error reaches the test at once (the SDK retries 5xx by default).
 */
import { Unkey } from '@unkey/api';
import type { Harness } from '../support/harness.js';

export function sdkFor(h: Harness, rootKey: string = h.adminKey): Unkey {
  return new Unkey({ serverURL: h.url, rootKey, retryConfig: { strategy: 'none' } });
}
