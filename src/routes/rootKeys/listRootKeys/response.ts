/** One root key of the list (revoked ones carry `revokedAt`); never its hash. */
export const responseSchema = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'start', 'permissions', 'createdAt'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      start: { type: 'string', description: 'Display hint: the first characters, never enough to use the key.' },
      permissions: { type: 'array', items: { type: 'string' }, description: 'Granted tuples, sorted.' },
      createdAt: { type: 'integer', minimum: 0, description: 'Unix epoch milliseconds.' },
      revokedAt: { type: 'integer', minimum: 0, description: 'Unix epoch milliseconds; absent while the key is live.' },
    },
  },
} as const;
