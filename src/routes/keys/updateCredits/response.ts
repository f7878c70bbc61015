import { KEY_CREDITS_REFILL } from '../../../shapes/responses.js';

/** Unlike KeyCreditsData elsewhere, `remaining` is always here: null when the key is now unlimited. */
export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['remaining'],
  properties: {
    remaining: { type: ['integer', 'null'], minimum: 0 },
    refill: KEY_CREDITS_REFILL,
  },
} as const;
