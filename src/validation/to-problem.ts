/**
 * ajv errors → the `errors[]` of a 400 body. `location` is the JSON-Schema keyword location (as
 * Unkey reports it); `message` names the field in the body; `fix` says what to send instead
 * where that is obvious.
 */
import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../errors/api-error.js';

/** `/ratelimits/0/name` → `ratelimits[0].name`; the root is `body`. */
export function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  if (parts.length === 0) return 'body';
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`), '');
}

const quote = (value: unknown): string => JSON.stringify(value);

export function toIssue(error: ErrorObject): ValidationIssue {
  const location = error.schemaPath.replace(/^#/, '');
  const p = error.params as Record<string, unknown>;
  const field = fieldName(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const missing = fieldName(error.instancePath, String(p.missingProperty));
      return { location, message: `${missing} is required`, fix: `Add the property '${missing}'.` };
    }
    case 'additionalProperties': {
      const extra = fieldName(error.instancePath, String(p.additionalProperty));
      return { location, message: `${extra} is not a known property`, fix: `Remove '${extra}'; check its spelling against the API reference.` };
    }
    case 'type':
      return { location, message: `${field} must be of type ${String(p.type)}` };
    case 'minLength':
      return { location, message: `${field} must be at least ${String(p.limit)} characters long` };
    case 'maxLength':
      return { location, message: `${field} must be at most ${String(p.limit)} characters long` };
    case 'minimum':
      return { location, message: `${field} must be >= ${String(p.limit)}` };
    case 'maximum':
      return { location, message: `${field} must be <= ${String(p.limit)}` };
    case 'minItems':
      return { location, message: `${field} must have at least ${String(p.limit)} items` };
    case 'maxItems':
      return { location, message: `${field} must have at most ${String(p.limit)} items` };
    case 'maxProperties':
      return { location, message: `${field} must have at most ${String(p.limit)} properties` };
    case 'pattern':
      return { location, message: `${field} must match the pattern ${String(p.pattern)}` };
    case 'enum':
      return { location, message: `${field} must be one of ${(p.allowedValues as unknown[]).map(quote).join(', ')}` };
    case 'const':
      return { location, message: `${field} must be ${quote(p.allowedValue)}` };
    default:
      return { location, message: `${field} ${error.message ?? 'is invalid'}` };
  }
}
