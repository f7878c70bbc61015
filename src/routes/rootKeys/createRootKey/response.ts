export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rootKeyId', 'key', 'start'],
  properties: {
    rootKeyId: { type: 'string' },
    key: { type: 'string', description: 'The new root key. Shown in this answer only: keygate keeps its SHA-256, never the key.' },
    start: { type: 'string', description: 'Display hint: the first characters, never enough to use the key.' },
  },
} as const;
