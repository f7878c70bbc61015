export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['identityId'],
  properties: { identityId: { type: 'string' } },
} as const;
