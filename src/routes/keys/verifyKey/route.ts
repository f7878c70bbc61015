import { ApiError } from '../../../errors/api-error.js';
import { hasActionOnAny } from '../../../auth/permissions.js';
import { verifyKey, type VerifyResult } from '../../../keys/verify.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { MAX_SAFE } from '../../schemas.js';
import { responseSchema } from './response.js';

const KEY_MIN_LENGTH = 1;
const KEY_MAX_LENGTH = 512;

/**
 * The key of `{"key":"…"}` and nothing else, the key without escapes or control characters: the
 * body of most verifications (the SDK's), whose input is then the key itself. A match has at most
 * KEY_MAX_LENGTH UTF-16 units, so at most as many characters: the schema accepts it. A scan, not
 * a regular expression: a match's result array and capture were allocated per verification.
 */
const PLAIN_HEAD = '{"key":"';
const PLAIN_TAIL = '"}';
function plainKeyOf(text: string): string | undefined {
  const end = text.length - PLAIN_TAIL.length;
  const length = end - PLAIN_HEAD.length;
  if (length < KEY_MIN_LENGTH || length > KEY_MAX_LENGTH || !text.startsWith(PLAIN_HEAD) || !text.endsWith(PLAIN_TAIL)) return undefined;
  for (let i = PLAIN_HEAD.length; i < end; i++) {
    const code = text.charCodeAt(i);
    // '"', '\\' and control characters would need JSON's unescaping: parsed as usual instead.
    if (code === 34 || code === 92 || code < 32) return undefined;
  }
  return text.slice(PLAIN_HEAD.length, end);
}

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key'],
  properties: {
    key: { type: 'string', minLength: KEY_MIN_LENGTH, maxLength: KEY_MAX_LENGTH },
    tags: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 512 } },
    permissions: { type: 'string', minLength: 1, maxLength: 1000 },
    credits: {
      type: 'object', additionalProperties: false, required: ['cost'],
      properties: { cost: { type: 'integer', minimum: 0, maximum: 1e12 } },
    },
    ratelimits: {
      type: 'array',
      maxItems: 100,
      items: {
        // Extra properties are tolerated here, as Unkey does.
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 3, maxLength: 255 },
          cost: { type: 'integer', minimum: 0, maximum: MAX_SAFE, default: 1 },
          // keygate rejects inline values Unkey would silently ignore (see docs/differences-from-unkey.md).
          limit: { type: 'integer', minimum: 0, maximum: MAX_SAFE },
          duration: { type: 'integer', minimum: 1000, maximum: MAX_SAFE },
        },
      },
    },
    migrationId: { type: 'string', maxLength: 256 },
  },
} as const;

export const keysVerifyKey = defineRoute<RequestOf<typeof requestSchema>, VerifyResult>({
  name: 'keys.verifyKey',
  responseSchema,
  quickInput(text) {
    const key = plainKeyOf(text);
    return key === undefined ? undefined : { key };
  },
  requestSchema,
  handle({ input, principal, services, requestId }) {
    // A root key that may verify nothing at all gets the 403 (forbidden) before any lookup, which
    // reveals nothing; one scoped to other APIs gets NOT_FOUND for keys outside its scope.
    if (!hasActionOnAny(principal, 'api', 'verify_key')) {
      throw new ApiError('err:keygate:authorization:forbidden', "Missing permission: 'api.*.verify_key' (or 'api.<apiId>.verify_key').");
    }
    return verifyKey(services, principal, input, requestId);
  },
  // Every outcome for /metrics, NOT_FOUND included (analytics records only keys that exist).
  answered: (result, services) => services.metrics?.verification(result.code),
});
