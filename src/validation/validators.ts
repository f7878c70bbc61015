/**
 * Request validators: every route's schema compiled once at start-up, never per request.
 * Defaults declared in the schemas (e.g. `cost: 1`) are filled in, so handlers see full input.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { Route } from '../routes/define.js';
import { ApiError } from '../errors/api-error.js';
import { toIssue } from './to-problem.js';

/** Enough issues to fix a request; more only bloats the answer to a hostile one. */
const MAX_ISSUES = 20;

export type Validator = (body: unknown, path: string) => void;

export function compileValidators(routes: readonly Route[]): Map<string, Validator> {
  // allErrors: report every offending field at once. Patterns are simple and lengths are
  // bounded by maxLength before pattern runs, so this is safe against expensive inputs.
  const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: true, allowUnionTypes: true });
  const validators = new Map<string, Validator>();
  for (const route of routes) {
    const validate: ValidateFunction = ajv.compile(route.requestSchema);
    const { checkInput } = route;
    validators.set(route.name, (body, path) => {
      if (validate(body)) {
        checkInput?.(body);
        return;
      }
      const issues = (validate.errors ?? []).slice(0, MAX_ISSUES).map(toIssue);
      throw new ApiError('err:unkey:application:invalid_input', `POST request body for '${path}' failed to validate schema`, { issues, alwaysJson: true });
    });
  }
  return validators;
}
