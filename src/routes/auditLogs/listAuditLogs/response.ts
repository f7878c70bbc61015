/** One audit event of the page (src/audit/event.ts). */
const TIME_MS = { type: 'integer', minimum: 0, description: 'Unix epoch milliseconds.' } as const;

export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['eventId', 'time', 'actor', 'procedure', 'targets', 'summary'],
  properties: {
    eventId: { type: 'string', description: 'Sorts by time: `evt_` and the time in base 36, then random characters.' },
    time: TIME_MS,
    actor: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: { type: 'string', enum: ['root_key', 'cli', 'bootstrap'] },
        id: { type: 'string', description: 'The root key id (type root_key).' },
        name: { type: 'string' },
      },
    },
    session: { type: 'string', description: 'The dashboard session the call came through (a digest, never the session id).' },
    procedure: { type: 'string', description: 'The procedure, or `cli:<command>` / `bootstrap:ROOT_KEY`.' },
    targets: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'id'],
        properties: {
          type: { type: 'string', enum: ['api', 'key', 'identity', 'namespace', 'override', 'permission', 'role', 'root_key', 'migration'] },
          id: { type: 'string' },
          name: { type: 'string' },
        },
      },
    },
    requestId: { type: 'string' },
    clientAddress: { type: 'string' },
    summary: { type: 'string' },
    changes: { type: 'object', description: 'The request fields of the change; secrets and hashes are never kept.' },
  },
} as const;
