/**
 * Named schemas: a shape used by several procedures is written once in components/schemas and
 * referenced with `$ref`. A shape is recognised by identity (the very object the shared schema
 * modules export), never by content, so two look-alike shapes are not merged by accident.
 */
import type { Schema } from './envelopes.js';

export class ComponentNames {
  private readonly byObject = new Map<object, string>();

  constructor(private readonly named: Readonly<Record<string, Schema>>) {
    for (const [name, schema] of Object.entries(named)) {
      if (this.byObject.has(schema)) throw new Error(`schema ${name} is also named ${this.byObject.get(schema)}`);
      this.byObject.set(schema, name);
    }
  }

  /** A copy of `value` in which every named schema below the top is a `$ref`. Inputs are never changed. */
  refer(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.referNested(item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.referNested(item)]));
  }

  /** Like `refer`, the top included: a named schema itself becomes its `$ref`. */
  referNested(value: unknown): unknown {
    const name = value !== null && typeof value === 'object' ? this.byObject.get(value) : undefined;
    return name === undefined ? this.refer(value) : { $ref: `#/components/schemas/${name}` };
  }

  /** components/schemas: each named schema with the named schemas inside it referenced. */
  schemas(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.named).map(([name, schema]) => [name, this.refer(schema)]));
  }
}
