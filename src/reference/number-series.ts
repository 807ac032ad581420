// Number series: one per (company, document type, prefix, year), numbering documents PREFIX-N without gaps.
// Allocation happens inside the document's own transaction under a row lock, so concurrent documents get
// consecutive numbers and a rolled-back document gives its number back. Series never go down (a trigger).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { NumberSeriesRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { conflict } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type NumberSeries = components["schemas"]["Reference.NumberSeries"];
type CreateInput = components["schemas"]["Reference.NumberSeriesCreateRequest"];
export type DocumentType = NumberSeries["documentType"];

export const formatNumber = (prefix: string, n: number | string) => `${prefix}-${n}`;

function seriesToApi(row: NumberSeriesRow): NumberSeries {
  return {
    id: row.id,
    documentType: row.document_type,
    prefix: row.prefix,
    year: row.year,
    nextNumber: Number(row.next_number),
    nextFormatted: formatNumber(row.prefix, row.next_number),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Creates the series, or raises an existing one when `startAt` is above its next number. Any other `startAt`
 * for an existing series is 409 `series.exists`.
 */
export async function createSeries(trx: Db, companyId: string, input: CreateInput): Promise<NumberSeries> {
  const startAt = input.startAt ?? 1;
  const identity = { company_id: companyId, document_type: input.documentType, prefix: input.prefix, year: input.year };
  const existing = await trx<NumberSeriesRow>("number_series").where(identity).forUpdate().first();
  if (existing) {
    if (startAt <= Number(existing.next_number)) {
      throw conflict(
        `The ${input.documentType} series ${input.prefix} for ${input.year} exists and is at ${existing.next_number}; a series is only ever raised.`,
        "series.exists",
        { id: existing.id, nextNumber: Number(existing.next_number) },
      );
    }
    const [raised] = await trx<NumberSeriesRow>("number_series")
      .where({ company_id: companyId, id: existing.id })
      .update({ next_number: String(startAt), updated_at: trx.fn.now() })
      .returning("*");
    return seriesToApi(raised);
  }
  try {
    const [created] = await trx<NumberSeriesRow>("number_series")
      .insert({ ...identity, next_number: String(startAt) })
      .returning("*");
    return seriesToApi(created);
  } catch (error) {
    // Created by a concurrent request between the lookup and the insert.
    if (uniqueViolation(error) === "number_series_identity_key") throw conflict("The series was created concurrently; retry.", "series.exists");
    throw error;
  }
}

/**
 * Takes the next number of a series inside the caller's transaction: `PREFIX-N`, or null when the company has
 * no such series. Without `prefix`, the earliest-created series of the type and year is used.
 */
export async function allocateNumber(
  trx: Db,
  target: { companyId: string; documentType: DocumentType; year: number; prefix?: string },
): Promise<{ seriesId: string; number: string; sequence: number } | null> {
  const { rows } = await trx.raw<{ rows: { id: string; prefix: string; taken: string }[] }>(
    `update number_series s set next_number = s.next_number + 1, updated_at = now()
       from (select id from number_series
              where company_id = ? and document_type = ? and year = ? and (?::text is null or prefix = ?)
              order by created_at, id limit 1
              for update) target
      where s.company_id = ? and s.id = target.id
      returning s.id, s.prefix, s.next_number - 1 as taken`,
    [target.companyId, target.documentType, target.year, target.prefix ?? null, target.prefix ?? null, target.companyId],
  );
  const row = rows[0];
  if (!row) return null;
  return { seriesId: row.id, number: formatNumber(row.prefix, row.taken), sequence: Number(row.taken) };
}

const seriesListSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid" },
    documentType: { column: "document_type", type: "string" },
    prefix: { column: "prefix", type: "string" },
    year: { column: "year", type: "integer" },
    nextNumber: { column: "next_number", type: "integer" },
    createdAt: { column: "created_at", type: "timestamp" },
    updatedAt: { column: "updated_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [
    { field: "year", dir: "desc" },
    { field: "documentType", dir: "asc" },
    { field: "prefix", dir: "asc" },
  ],
};

export async function listSeries(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<NumberSeriesRow>(db, () => db("number_series").where("company_id", companyId), seriesListSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(seriesToApi) };
}
