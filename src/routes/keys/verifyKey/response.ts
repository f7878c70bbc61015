/**
 * keys.verifyKey's answer: always a 200, the outcome in `valid` and `code`. An unknown key gets
 * `{valid: false, code: "NOT_FOUND"}` alone; a found key is described whatever the outcome.
 */
import { IDENTITY } from '../../../shapes/responses.js';

export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['valid', 'code'],
  properties: {
    valid: { type: 'boolean' },
    // FORBIDDEN is Unkey's code for IP allow-lists and disabled workspaces: keygate never answers it.
    code: { type: 'string', enum: ['VALID', 'NOT_FOUND', 'DISABLED', 'EXPIRED', 'INSUFFICIENT_PERMISSIONS', 'RATE_LIMITED', 'USAGE_EXCEEDED'] },
    keyId: { type: 'string' },
    name: { type: 'string' },
    meta: { type: 'object' },
    expires: { type: 'integer', minimum: 0 },
    credits: { type: 'integer', minimum: 0, description: 'Credits remaining after this verification; left out when unlimited.' },
    enabled: { type: 'boolean' },
    permissions: { type: 'array', items: { type: 'string' } },
    roles: { type: 'array', items: { type: 'string' } },
    identity: IDENTITY,
    ratelimits: {
      type: 'array',
      description: 'Every limit this verification checked, in the order checked.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'limit', 'duration', 'reset', 'remaining', 'exceeded', 'autoApply'],
        properties: {
          id: { type: 'string', description: 'The configured limit\'s id; empty for a limit defined inline in the request.' },
          name: { type: 'string' },
          limit: { type: 'integer', minimum: 0 },
          duration: { type: 'integer', minimum: 1000 },
          reset: { type: 'integer', minimum: 0 },
          remaining: { type: 'integer', minimum: 0 },
          exceeded: { type: 'boolean' },
          autoApply: { type: 'boolean' },
        },
      },
    },
  },
} as const;
