/**
 * Checks answers against what the OpenAPI document promises: the document is validated and its
 * `$ref`s resolved by the OpenAPI validator, then each schema is compiled by ajv for JSON Schema
 * 2020-12 (OpenAPI 3.1's dialect) in strict mode, so a schema ajv would have to guess about fails.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';

export const newAjv = (): Ajv2020 => new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });

export interface Validated {
  readonly valid: boolean;
  readonly errors: unknown;
  readonly version: string;
  /** The document with every `$ref` replaced by what it names. */
  readonly resolved: any;
}

export async function validateDocument(doc: OpenApiDocument): Promise<Validated> {
  const validator = new Validator();
  // The validator resolves references in place: it gets a copy, the caller's document stays as built.
  const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
  return { valid: result.valid, errors: result.errors, version: validator.version, resolved: result.valid ? validator.resolveRefs() : undefined };
}

/** Compiled validators of the document's responses, by path, method and status. */
export class ResponseConformance {
  private readonly ajv = newAjv();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly resolved: any) {}

  /** Why `body` is not what the document promises for this answer, or null when it is. */
  problem(path: string, method: string, status: number, body: unknown): string | null {
    const response = this.resolved.paths[path]?.[method]?.responses?.[String(status)];
    if (!response) return `the document has no ${status} response for ${method.toUpperCase()} ${path}`;
    const key = `${method} ${path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(response.content['application/json'].schema);
      this.compiled.set(key, validate);
    }
    return validate(body) ? null : this.ajv.errorsText(validate.errors, { dataVar: 'body' });
  }
}
