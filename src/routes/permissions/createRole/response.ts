export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['roleId'],
  properties: { roleId: { type: 'string' } },
} as const;
