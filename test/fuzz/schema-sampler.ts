// Valid request bodies generated from an OpenAPI 3.0 schema of the published contract, with fast-check: every
// keyword the contract uses (types, patterns, formats, bounds, enums, nullable, allOf/anyOf, additionalProperties,
// uniqueItems). Values seen in earlier successful responses ("hints", by property name) are mixed in, so a generated
// `id` or `accountCode` often names something that exists and the handler runs past its lookups.
import fc from "fast-check";
import { isIsoDate, isTimestamp } from "../../src/shared/dates.js";

export type Schema = Record<string, any>;

const MAX_ARRAY = 4;
const MAX_FREE_STRING = 40;

export class SchemaSampler {
  constructor(
    private readonly schemas: Record<string, Schema>,
    private readonly hints: Map<string, Set<unknown>> = new Map(),
  ) {}

  /** Follows `$ref`s and merges `allOf` into one schema. */
  resolve(schema: Schema): Schema {
    let s = schema;
    while (s.$ref)
      s = { ...this.schemas[String(s.$ref).replace("#/components/schemas/", "")], ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== "$ref")) };
    if (!Array.isArray(s.allOf)) return s;
    const parts = s.allOf.map((part: Schema) => this.resolve(part));
    const merged: Schema = { ...s, allOf: undefined };
    for (const part of parts) {
      for (const [keyword, value] of Object.entries(part)) if (!(keyword in merged) || merged[keyword] === undefined) merged[keyword] = value;
      merged.properties = { ...merged.properties, ...part.properties };
      merged.required = [...new Set([...(merged.required ?? []), ...(part.required ?? [])])];
      if (part.additionalProperties === false) merged.additionalProperties = false;
    }
    delete merged.allOf;
    return merged;
  }

  /** A fast-check arbitrary of values valid against `schema`. */
  arbitrary(schema: Schema, name?: string): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    let base = this.baseArbitrary(s, name);
    const known = name ? this.hints.get(name) : undefined;
    if (known?.size && (s.type === "string" || s.type === "integer")) base = fc.oneof(fc.constantFrom(...known), base);
    return s.nullable ? fc.option(base, { nil: null, freq: 6 }) : base;
  }

  private baseArbitrary(s: Schema, name?: string): fc.Arbitrary<unknown> {
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return fc.oneof(...(s.anyOf ?? s.oneOf).map((b: Schema) => this.arbitrary(b, name)));
    if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum.filter((v: unknown) => v !== null));
    switch (s.type) {
      case "string":
        return this.string(s);
      case "integer":
        return fc.integer({ min: s.minimum ?? -2_147_483_648, max: s.maximum ?? 2_147_483_647 });
      case "number":
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum ?? -1e9, max: s.maximum ?? 1e9 });
      case "boolean":
        return fc.boolean();
      case "array": {
        const items = this.arbitrary(s.items ?? {});
        const constraints = { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? MAX_ARRAY, MAX_ARRAY)) };
        return s.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
      }
      case "object":
      case undefined:
        return this.object(s);
      default:
        return fc.constant(null);
    }
  }

  private string(s: Schema): fc.Arbitrary<string> {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Number.POSITIVE_INFINITY;
    const fits = (v: string) => v.length >= min && v.length <= max;
    if (s.format === "uuid") return fc.uuid();
    // A pattern does not know the calendar (2026-02-31 matches one); the format does.
    const real = s.format === "date" ? (v: string) => isIsoDate(v, { min: 0, max: 9999 }) : s.format === "date-time" ? isTimestamp : () => true;
    if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => fits(v) && real(v));
    return fc.string({ unit: "grapheme", minLength: min, maxLength: Math.min(max, Math.max(min, MAX_FREE_STRING)) }).filter(fits);
  }

  private object(s: Schema): fc.Arbitrary<unknown> {
    const properties: Record<string, Schema> = s.properties ?? {};
    if (Object.keys(properties).length === 0 && s.additionalProperties && typeof s.additionalProperties === "object") {
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), this.arbitrary(s.additionalProperties), { maxKeys: Math.min(s.maxProperties ?? 3, 3) });
    }
    const record = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, this.arbitrary(child, key)]));
    return fc.record(record, { requiredKeys: (s.required ?? []).filter((k: string) => k in properties) });
  }
}
