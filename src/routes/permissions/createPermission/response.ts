export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['permissionId'],
  properties: { permissionId: { type: 'string' } },
} as const;
