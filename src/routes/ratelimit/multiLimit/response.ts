/** `passed` is false when any item was denied; then nothing was consumed anywhere. */
export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['passed', 'limits'],
  properties: {
    passed: { type: 'boolean' },
    limits: {
      type: 'array',
      description: 'One outcome per request item, in request order.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['namespace', 'identifier', 'limit', 'remaining', 'reset', 'passed'],
        properties: {
          namespace: { type: 'string' },
          identifier: { type: 'string' },
          limit: { type: 'integer', minimum: 0 },
          remaining: { type: 'integer', minimum: 0 },
          reset: { type: 'integer', minimum: 0 },
          passed: { type: 'boolean' },
          overrideId: { type: 'string' },
        },
      },
    },
  },
} as const;
