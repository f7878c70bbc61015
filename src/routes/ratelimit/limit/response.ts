/** A denial is an answer, not an error: `success: false`, still a 200. */
export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'limit', 'remaining', 'reset'],
  properties: {
    success: { type: 'boolean' },
    limit: { type: 'integer', minimum: 0, description: 'The limit applied: the override\'s when one matched.' },
    remaining: { type: 'integer', minimum: 0 },
    reset: { type: 'integer', minimum: 0, description: 'Unix epoch milliseconds: end of the current window.' },
    overrideId: { type: 'string', description: 'The override that applied, if any.' },
  },
} as const;
