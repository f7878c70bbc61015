import { describe, expect, test } from 'vitest';
import { sessionIdFrom } from '../../src/auth/session.js';

// The store's own behaviour is the SessionStore contract (test/contracts/session-storage.contract.ts).
describe('the session cookie', () => {
  test('sessionIdFrom finds the cookie among others', () => {
    expect(sessionIdFrom('a=1; keygate_session=abc-_1; b=2')).toBe('abc-_1');
    expect(sessionIdFrom('keygate_session=x')).toBe('x');
    expect(sessionIdFrom('other_keygate_session=x')).toBe('');
    expect(sessionIdFrom('')).toBe('');
  });
});
