export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['overrideId'],
  properties: { overrideId: { type: 'string' } },
} as const;
