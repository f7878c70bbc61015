import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import type { AuditEvent } from '../../../audit/event.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import type { Page } from '../../../shapes/page.js';
import { LIST_LIMIT } from '../../pagination.js';
import { responseSchema } from './response.js';

const FILTER = { type: 'string', minLength: 1, maxLength: 255 } as const;
const TIME = { type: 'integer', minimum: 0, maximum: 8_640_000_000_000_000 } as const;

/** The event as answered: `eventId` for the stored `id`; the workspace is the caller's own. */
function eventResponse({ id, workspaceId: _ws, ...rest }: AuditEvent): Record<string, unknown> {
  return { eventId: id, ...rest };
}

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: LIST_LIMIT,
    cursor: { type: 'string', pattern: '^evt_[0-9a-z]{9}[1-9A-HJ-NP-Za-km-z]{1,32}$' },
    startTime: TIME,
    endTime: TIME,
    actor: FILTER,
    targetId: FILTER,
    procedure: FILTER,
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

/**
 * The audit log, newest first, filtered by time, actor, target and procedure. The cursor is the id
 * of the next event to read (as with the other list procedures, the next page starts at it); a page
 * may hold fewer events than `limit` and still have more, when a rare filter read many events.
 */
export const auditLogsListAuditLogs = defineListRoute<Input, Record<string, unknown>>({
  name: 'auditLogs.listAuditLogs',
  responseSchema,
  requestSchema,
  checkInput(input) {
    if (input.startTime !== undefined && input.endTime !== undefined && input.startTime >= input.endTime) {
      throw new ApiError('err:unkey:application:invalid_input', '`startTime` must be before `endTime`.', {
        issues: [{ location: '/properties/startTime', message: 'startTime must be less than endTime', fix: 'Swap the two, or widen the range.' }],
      });
    }
  },
  async handle({ input, principal, services }): Promise<Page<Record<string, unknown>>> {
    requireAny(principal, ['audit_log.*.read_audit_log']);
    const page = await services.storage.audit.list({
      limit: input.limit,
      ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
      ...(input.startTime !== undefined ? { fromMs: input.startTime } : {}),
      ...(input.endTime !== undefined ? { toMs: input.endTime } : {}),
      ...(input.actor !== undefined ? { actor: input.actor } : {}),
      ...(input.targetId !== undefined ? { targetId: input.targetId } : {}),
      ...(input.procedure !== undefined ? { procedure: input.procedure } : {}),
    });
    const data = page.items.filter((e) => e.workspaceId === principal.workspaceId).map(eventResponse);
    return { data, pagination: page.cursor === null ? { hasMore: false } : { cursor: page.cursor, hasMore: true } };
  },
});
