// declarations/lt/isaf/generate: one part of a month's i.SAF (./lt/isaf.ts writes it).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { unprocessable } from "../shared/errors.js";
import { loadDeclarant } from "./declarant.js";
import { type IsafDataType, type IsafPart, planIsaf, writeIsafPart } from "./lt/isaf.js";
import { inOneSnapshot, vilniusNow } from "./snapshot.js";

type IsafFile = components["schemas"]["Declarations.IsafFile"];

export interface IsafRequest {
  period: string;
  dataType: IsafDataType;
  partNumber?: number;
}

/**
 * Every part of the month (a submission stores them all), or only `only`: then `parts` is empty when the month has
 * fewer parts than that (`count` says how many it has).
 */
export async function buildIsaf(
  db: Db,
  companyId: string,
  request: IsafRequest,
  partSize: number,
  only?: number,
): Promise<{ parts: IsafPart[]; count: number }> {
  return inOneSnapshot(db, async (trx) => {
    const declarant = await loadDeclarant(trx, companyId);
    const ctx = { db: trx, declarant, period: request.period, dataType: request.dataType, partSize };
    const plan = await planIsaf(ctx);
    if (only !== undefined && only > plan.parts) return { parts: [], count: plan.parts };
    const { dateTime } = await vilniusNow(trx);
    const numbers = only !== undefined ? [only] : Array.from({ length: plan.parts }, (_, i) => i + 1);
    const parts: IsafPart[] = [];
    for (const n of numbers) parts.push(await writeIsafPart(ctx, plan, n, dateTime));
    return { parts, count: plan.parts };
  });
}

export async function generateIsaf(db: Db, companyId: string, request: IsafRequest, partSize: number): Promise<IsafFile> {
  const partNumber = request.partNumber ?? 1;
  const { parts, count } = await buildIsaf(db, companyId, request, partSize, partNumber);
  const [part] = parts;
  if (!part) {
    throw unprocessable(`${request.period} has ${count} part(s) of at most ${partSize} invoices; there is no part ${partNumber}.`, "isaf.part_unknown", {
      parts: count,
      partNumber,
    });
  }
  return {
    fileName: part.fileName,
    contentType: "application/xml",
    contentBase64: part.file.toBase64(),
    sha256: part.file.sha256,
    period: request.period,
    dataType: request.dataType,
    parts: part.parts,
    partNumber,
    invoicesPerPart: partSize,
    invoices: part.invoices,
  };
}
