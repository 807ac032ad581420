// declarations/lt/isaf/generate: one part of a month's i.SAF (./lt/isaf.ts writes it).
import { randomUUID } from "node:crypto";
import { closeSync, openSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { unprocessable } from "../shared/errors.js";
import { jsonStream, type StreamedJson } from "../shared/json-stream.js";
import { loadDeclarant } from "./declarant.js";
import { type IsafDataType, type IsafPart, planIsaf, writeIsafPart } from "./lt/isaf.js";
import { inOneSnapshot, vilniusNow } from "./snapshot.js";

type IsafFile = components["schemas"]["Declarations.IsafFile"];

/** How a month is cut: invoices per part (ISAF_PART_SIZE) and rows per fetch of a part's cursor (ISAF_FETCH_ROWS). */
export interface IsafSizes {
  partSize: number;
  fetchRows: number;
}

export const isafSizes = (config: { isafPartSize: number; isafFetchRows: number }): IsafSizes => ({
  partSize: config.isafPartSize,
  fetchRows: config.isafFetchRows,
});

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
  sizes: IsafSizes,
  only?: number,
  fd?: number,
): Promise<{ parts: IsafPart[]; count: number }> {
  return inOneSnapshot(db, async (trx) => {
    const declarant = await loadDeclarant(trx, companyId);
    const ctx = { db: trx, declarant, period: request.period, dataType: request.dataType, ...sizes, fd };
    const plan = await planIsaf(ctx);
    if (only !== undefined && only > plan.parts) return { parts: [], count: plan.parts };
    const { dateTime } = await vilniusNow(trx);
    const numbers = only !== undefined ? [only] : Array.from({ length: plan.parts }, (_, i) => i + 1);
    const parts: IsafPart[] = [];
    for (const n of numbers) parts.push(await writeIsafPart(ctx, plan, n, dateTime));
    return { parts, count: plan.parts };
  });
}

/**
 * One part as the answer: written to a temporary file (created and unlinked at once, so that nothing is left behind
 * whatever happens; the open file is closed when the answer is done or dropped), then its JSON streamed with the
 * part's base64 read from the file as the client reads it. The process holds a fetch of rows while it writes, and a
 * piece of the file while it answers — not the part, its base64 and its JSON (about 110 MB for 50,000 invoices).
 */
export async function generateIsaf(db: Db, companyId: string, request: IsafRequest, sizes: IsafSizes): Promise<StreamedJson<IsafFile>> {
  const partNumber = request.partNumber ?? 1;
  const { partSize } = sizes;
  const path = join(tmpdir(), `isaf-${randomUUID()}.xml`);
  const fd = openSync(path, "wx+", 0o600);
  unlinkSync(path);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  try {
    const { parts, count } = await buildIsaf(db, companyId, request, sizes, partNumber, fd);
    const [part] = parts;
    if (!part) {
      throw unprocessable(`${request.period} has ${count} part(s) of at most ${partSize} invoices; there is no part ${partNumber}.`, "isaf.part_unknown", {
        parts: count,
        partNumber,
      });
    }
    const fields: Omit<IsafFile, "contentBase64"> = {
      fileName: part.fileName,
      contentType: "application/xml",
      sha256: part.file.sha256,
      period: request.period,
      dataType: request.dataType,
      parts: part.parts,
      partNumber,
      invoicesPerPart: partSize,
      invoices: part.invoices,
    };
    const answer = jsonStream<IsafFile, "contentBase64">(fields, "contentBase64", part.file.base64Pieces());
    answer.once("close", close);
    return answer;
  } catch (error) {
    close();
    throw error;
  }
}
