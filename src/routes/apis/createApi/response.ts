export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['apiId'],
  properties: { apiId: { type: 'string' } },
} as const;
