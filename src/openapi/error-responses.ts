/**
 * Error responses of an operation, from the catalogue (src/errors/codes.ts): one per status the
 * operation's codes map to, naming each code's `error.type`. A response every procedure shares
 * (a 401, a 500, the usual 403, …) is written once in components/responses and referenced.
 */
import { codeInfo, type ErrorCode } from '../errors/codes.js';
import { hasIssues } from './envelopes.js';
import { FORBIDDEN, TRANSPORT_ERRORS } from './procedure-errors.js';

export const REQUEST_ID_HEADER = { 'x-request-id': { $ref: '#/components/headers/RequestId' } } as const;

/** Error bodies follow the request's Accept header (server/reply.ts); both carry the same envelope. */
function content(schemaName: string) {
  const schema = { $ref: `#/components/schemas/${schemaName}` };
  return { 'application/json': { schema }, 'application/problem+json': { schema } };
}

function byStatus(codes: readonly ErrorCode[]): [number, ErrorCode[]][] {
  const grouped = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = codeInfo(code);
    grouped.set(status, [...(grouped.get(status) ?? []), code]);
  }
  return [...grouped].sort(([a], [b]) => a - b);
}

export class ErrorResponses {
  /** Status → the shared response's name and its JSON text (compared to decide on a `$ref`). */
  private readonly shared = new Map<number, { name: string; text: string; response: unknown }>();

  constructor(private readonly docsUrl: string) {
    for (const [status, codes] of byStatus([...TRANSPORT_ERRORS, FORBIDDEN])) {
      const response = this.response(status, codes);
      const name = codeInfo(codes[0]!).title.replace(/[^A-Za-z]/g, '');
      this.shared.set(status, { name, text: JSON.stringify(response), response });
    }
  }

  private response(status: number, codes: readonly ErrorCode[]): unknown {
    const titles = [...new Set(codes.map((c) => codeInfo(c).title))].join(' / ');
    const types = codes.map((c) => `- \`${this.docsUrl}/errors/${codeInfo(c).path}\``).join('\n');
    return {
      description: `${titles}. \`error.type\` is one of:\n${types}`,
      headers: REQUEST_ID_HEADER,
      content: content(hasIssues(status) ? 'BadRequestErrorResponse' : 'ErrorResponse'),
    };
  }

  /** The `responses` entries (by status) for an operation that can answer these codes. */
  for(codes: readonly ErrorCode[]): Record<string, unknown> {
    return Object.fromEntries(byStatus(codes).map(([status, list]) => {
      const response = this.response(status, list);
      const shared = this.shared.get(status);
      const same = shared !== undefined && shared.text === JSON.stringify(response);
      return [String(status), same ? { $ref: `#/components/responses/${shared.name}` } : response];
    }));
  }

  /** components/responses. */
  components(): Record<string, unknown> {
    return Object.fromEntries([...this.shared.values()].map(({ name, response }) => [name, response]));
  }
}
