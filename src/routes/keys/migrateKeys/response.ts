/** Every given hash is in exactly one list, as sent: imported (with its new key id) or already taken. */
export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['migrated', 'failed'],
  properties: {
    migrated: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['hash', 'keyId'],
        properties: { hash: { type: 'string' }, keyId: { type: 'string' } },
      },
    },
    failed: { type: 'array', items: { type: 'string' }, description: 'Hashes already stored, or repeated in the request.' },
  },
} as const;
