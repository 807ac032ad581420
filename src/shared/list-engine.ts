// The shared list engine behind every list operation (spec: "List request", "List response").
// Each resource declares its fields once (ListSpec); field names from the request are only ever looked up in
// that whitelist, and values reach SQL only as bound parameters.
import type { Knex } from "knex";
import { isIsoDate, isTimestamp } from "./dates.js";
import { Decimal } from "./decimal.js";
import { ApiError, type FieldErrors } from "./errors.js";

/** `textArray`: a text[] column; `eq` matches rows whose array holds the value, `in` rows holding any of them. */
export type FieldType = "string" | "uuid" | "date" | "timestamp" | "decimal" | "integer" | "boolean" | "textArray";

export interface ListField {
  /** SQL expression of the field; trusted text from the resource's own spec, never from a request. */
  column: string;
  type: FieldType;
  filter?: boolean;
  sort?: boolean;
  /** May be named in `totals` (decimal and integer fields only). */
  total?: boolean;
}

export interface ListSpec {
  fields: Record<string, ListField>;
  /** Columns that together identify a row, appended to every ordering so paging never repeats or skips a row. */
  tieBreaker: string | string[];
  defaultSort: { field: string; dir: "asc" | "desc" }[];
}

type Scalar = string | number | boolean;
export interface ListRequest {
  page?: number;
  pageSize?: number;
  sort?: { field: string; dir?: "asc" | "desc" }[];
  filter?: { field: string; op: "eq" | "ne" | "contains" | "gte" | "lte" | "in"; value: Scalar | (string | number)[] }[];
  totals?: string[];
}

export interface ListResult<Row> {
  rows: Row[];
  page: number;
  pageSize: number;
  total: number;
  totals?: Record<string, string>;
}

const OPS_BY_TYPE: Record<FieldType, readonly string[]> = {
  string: ["eq", "ne", "contains", "gte", "lte", "in"],
  uuid: ["eq", "ne", "in"],
  date: ["eq", "ne", "gte", "lte", "in"],
  timestamp: ["eq", "ne", "gte", "lte"],
  decimal: ["eq", "ne", "gte", "lte", "in"],
  integer: ["eq", "ne", "gte", "lte", "in"],
  boolean: ["eq", "ne"],
  textArray: ["eq", "in"],
};

/** A date, or an RFC 3339 timestamp (src/shared/dates.ts). */
const isDateOrTimestamp = (value: string) => isIsoDate(value) || isTimestamp(value);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^-?[0-9]{1,20}(\.[0-9]{1,10})?$/;

/** Converts one filter value to the bound parameter for the field's type, or returns an error message. */
function coerce(type: FieldType, value: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  switch (type) {
    case "string":
      return typeof value === "string" ? { ok: true, value } : { ok: false, message: "must be a string for this field" };
    case "uuid":
      return typeof value === "string" && UUID.test(value) ? { ok: true, value } : { ok: false, message: "must be a UUID" };
    case "date":
      return typeof value === "string" && isIsoDate(value)
        ? { ok: true, value }
        : { ok: false, message: "must be a date YYYY-MM-DD of a year from 1900 to 2199" };
    case "timestamp":
      return typeof value === "string" && isDateOrTimestamp(value)
        ? { ok: true, value }
        : { ok: false, message: "must be a date YYYY-MM-DD or an RFC 3339 timestamp, of a year from 1900 to 2199" };
    case "decimal": {
      // decimal.js, not String(): String(0.0000001) is "1e-7".
      const text = typeof value === "number" && Number.isFinite(value) ? new Decimal(value).toFixed() : value;
      return typeof text === "string" && DECIMAL.test(text) ? { ok: true, value: text } : { ok: false, message: "must be a decimal number" };
    }
    case "integer": {
      // Bound as text and compared as numeric (see bind()), so a value beyond the column's range matches nothing
      // instead of failing the query.
      const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
      return typeof text === "string" && /^-?[0-9]{1,15}$/.test(text) ? { ok: true, value: text } : { ok: false, message: "must be an integer" };
    }
    case "boolean":
      return typeof value === "boolean" ? { ok: true, value } : { ok: false, message: "must be true or false" };
    case "textArray":
      return typeof value === "string" ? { ok: true, value } : { ok: false, message: "must be a string for this field" };
  }
}

interface Plan {
  where: { sql: string; bindings: unknown[] }[];
  order: string[];
  totals: { name: string; column: string }[];
}

function plan(spec: ListSpec, request: ListRequest): Plan {
  const errors: FieldErrors = {};
  const fail = (path: string, message: string) => (errors[path] ??= []).push(message);
  const where: Plan["where"] = [];

  (request.filter ?? []).forEach((f, i) => {
    const field = fieldOf(spec, f.field);
    if (!field || field.filter === false) return fail(`filter[${i}].field`, `is not a filterable field; one of: ${filterable(spec).join(", ")}`);
    if (!OPS_BY_TYPE[field.type].includes(f.op))
      return fail(`filter[${i}].op`, `${f.op} does not apply to ${field.type} field ${f.field}; use one of: ${OPS_BY_TYPE[field.type].join(", ")}`);
    if (f.op === "in") {
      if (!Array.isArray(f.value)) return fail(`filter[${i}].value`, "must be an array for op in");
      const values: unknown[] = [];
      f.value.forEach((v, j) => {
        const c = coerce(field.type, v);
        if (c.ok) values.push(c.value);
        else fail(`filter[${i}].value[${j}]`, c.message);
      });
      const list =
        { textArray: `${field.column} && ?::text[]`, integer: `${field.column} = any(?::numeric[])` }[field.type as string] ?? `${field.column} = any(?)`;
      where.push({ sql: list, bindings: [values] });
      return;
    }
    if (Array.isArray(f.value)) return fail(`filter[${i}].value`, `must be a single value for op ${f.op}`);
    const c = coerce(field.type, f.value);
    if (!c.ok) return fail(`filter[${i}].value`, c.message);
    const p = field.type === "integer" ? "?::numeric" : "?";
    const sql = {
      eq: field.type === "textArray" ? `${field.column} @> array[?]::text[]` : `${field.column} = ${p}`,
      ne: `${field.column} is distinct from ${p}`,
      gte: `${field.column} >= ${p}`,
      lte: `${field.column} <= ${p}`,
      contains: `strpos(lower(${field.column}), lower(?)) > 0`,
    }[f.op as "eq"];
    where.push({ sql, bindings: [c.value] });
  });

  const order: string[] = [];
  const sorts = request.sort?.length ? request.sort : spec.defaultSort;
  sorts.forEach((s, i) => {
    const field = fieldOf(spec, s.field);
    if (!field || field.sort === false) return fail(`sort[${i}].field`, `is not a sortable field; one of: ${sortable(spec).join(", ")}`);
    order.push(`${field.column} ${s.dir === "desc" ? "desc" : "asc"}`);
  });
  for (const column of [spec.tieBreaker].flat()) order.push(`${column} asc`);

  const totals: Plan["totals"] = [];
  (request.totals ?? []).forEach((name, i) => {
    const field = fieldOf(spec, name);
    if (!field?.total)
      return fail(
        `totals[${i}]`,
        `is not a totalable field; one of: ${
          Object.keys(spec.fields)
            .filter((k) => spec.fields[k].total)
            .join(", ") || "(none)"
        }`,
      );
    if (!totals.some((t) => t.name === name)) totals.push({ name, column: field.column });
  });

  if (Object.keys(errors).length) throw new ApiError("validation", "The list request is not valid.", { key: "list.invalid", fieldErrors: errors });
  return { where, order, totals };
}

/** The declared field of that name; never an inherited member such as `constructor`. */
const fieldOf = (spec: ListSpec, name: string): ListField | undefined => (Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined);

const filterable = (spec: ListSpec) => Object.keys(spec.fields).filter((k) => spec.fields[k].filter !== false);
const sortable = (spec: ListSpec) => Object.keys(spec.fields).filter((k) => spec.fields[k].sort !== false);

/**
 * Runs a list request over `base`, a query already restricted to what the caller may see (its tenancy).
 * `select` names what each row returns; rows come back as selected, for the caller to shape.
 */
export type ListFilter = NonNullable<ListRequest["filter"]>[number];

/**
 * A table of per-group sums kept beside a resource's rows (in the same transactions, by triggers), from which the
 * count and totals of a list can be read instead of aggregating every matching row: used when every filter of the
 * request is on a field the rollup has (or one `rewrite` turns into one), else the rows are aggregated as usual.
 */
export interface Rollup {
  /** The rollup's rows, restricted to what the caller may see. */
  base: () => Knex.QueryBuilder;
  /** The list fields it groups by, as its own columns; they filter exactly as the list's fields do. */
  fields: Record<string, ListField>;
  /** Its column counting the rows of a group. */
  count: string;
  /** Its column of each totalable list field; a total it lacks makes the list aggregate the rows. */
  totals: Record<string, string>;
  /** A filter on another field, rewritten to the rollup's fields when it selects whole groups; else null. */
  rewrite?: (filter: ListFilter) => ListFilter | null;
  /** Whether the rollup may answer the request at all (one that holds only some rows: when a filter selects just those). */
  applies?: (request: ListRequest) => boolean;
}

/** The count and totals of `request` from the rollup, or null when its filters or totals are not all the rollup's. */
function rollupPlan(rollup: Rollup, request: ListRequest): Plan | null {
  if (rollup.applies && !rollup.applies(request)) return null;
  const filters: ListFilter[] = [];
  for (const f of request.filter ?? []) {
    const mapped = Object.hasOwn(rollup.fields, f.field) ? f : (rollup.rewrite?.(f) ?? null);
    if (!mapped) return null;
    filters.push(mapped);
  }
  if (!(request.totals ?? []).every((t) => Object.hasOwn(rollup.totals, t))) return null;
  const fields: Record<string, ListField> = { ...rollup.fields };
  for (const [name, column] of Object.entries(rollup.totals)) fields[name] = { column, type: "decimal", total: true, filter: false, sort: false };
  return plan({ fields, tieBreaker: [], defaultSort: [] }, { filter: filters, totals: request.totals });
}

export async function runList<Row>(
  db: Knex,
  base: () => Knex.QueryBuilder,
  spec: ListSpec,
  request: ListRequest,
  select: string[],
  rollups: Rollup[] = [],
): Promise<ListResult<Row>> {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? 50;
  const { where, order, totals } = plan(spec, request);
  // The first rollup that can answer the count and totals (none: the matching rows are aggregated).
  let rollup: Rollup | undefined;
  let summed: Plan | null = null;
  for (const candidate of rollups) {
    summed = rollupPlan(candidate, request);
    if (summed) {
      rollup = candidate;
      break;
    }
  }
  const filtered = (from = base, conditions = where) => {
    const q = from();
    for (const w of conditions) q.whereRaw(w.sql, w.bindings as Knex.RawBinding[]);
    return q;
  };
  const aggregates = summed
    ? [`coalesce(sum(${rollup!.count}), 0)::bigint as total`, ...summed.totals.map((t, i) => `coalesce(sum(${t.column}), 0)::text as total_${i}`)]
    : ["count(*)::bigint as total", ...totals.map((t, i) => `coalesce(sum(${t.column}), 0)::text as total_${i}`)];
  const [rows, summary] = await Promise.all([
    filtered()
      .select(select)
      .orderByRaw(order.join(", "))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    (summed ? filtered(rollup!.base, summed.where) : filtered()).first(db.raw(aggregates.join(", "))),
  ]);
  const result: ListResult<Row> = { rows: rows as Row[], page, pageSize, total: Number(summary.total) };
  if (totals.length) result.totals = Object.fromEntries(totals.map((t, i) => [t.name, summary[`total_${i}`] as string]));
  return result;
}
