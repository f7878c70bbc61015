import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { creditsResponse } from '../../../keys/describe.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { MAX_SAFE } from '../../schemas.js';
import { findLiveKey } from '../live-key.js';
import { responseSchema } from './response.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

const invalid = (detail: string) => new ApiError('err:unkey:application:invalid_input', detail);

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['keyId', 'operation'],
  properties: {
    // Unkey constrains this keyId less than the other key procedures do: ≥ 3 characters only.
    keyId: { type: 'string', minLength: 3 },
    operation: { type: 'string', enum: ['set', 'increment', 'decrement'] },
    value: { type: ['integer', 'null'], minimum: 0, maximum: MAX_SAFE },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const keysUpdateCredits = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'keys.updateCredits',
  audited: true,
  responseSchema,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const { storage } = services;
    // Looked up first: the acceptable tuples name the key's API (Unkey's order: 404 before 403).
    const key = await findLiveKey(services, principal, input.keyId);
    requireAny(principal, ['api.*.update_key', `api.${key.apiId}.update_key`]);
    const { operation, value } = input;
    const event = ctx.audit({
      targets: [target('key', key.id, key.name), target('api', key.apiId)], summary: `credits ${operation}`, changes: changesOf(input, ['keyId']),
    });

    if (operation === 'set') {
      if (value === undefined || value === null) {
        // Unlimited. Unkey keeps the refill settings when `value` is omitted (only an explicit
        // null clears them), but keygate keeps a refill inside the credits counter, which an
        // unlimited key does not have; getKey shows no credits either way, as with Unkey.
        await storage.keys.setCredits(key.id, null, event);
        return { remaining: null };
      }
      // Atomic: the refill settings are kept, and no spend can slip between a read and this write.
      const next = await storage.keys.patchCredits(key.id, { remaining: value }, event);
      return creditsResponse(next!);
    }

    // These rules come after the lookup and the permission check, in Unkey's order.
    if (value === undefined || value === null) throw invalid('When specifying an increment or decrement operation, a value must be provided.');
    // One atomic step, so concurrent verifications are never lost; decrement stops at 0.
    const next = await storage.keys.adjustCredits(key.id, operation === 'increment' ? value : -value, event);
    if (!next) throw invalid('You cannot increment or decrement a key with unlimited credits.');
    return creditsResponse(next);
  },
});
