// SAF-T files (issue 27): declarations/lt/saft/generate records what was asked and queues the worker's job in the same
// transaction; the job (src/jobs/generate-saft.ts) writes the parts inside one repeatable-read snapshot of the books
// (./lt/saft.ts), stores each part as it is done with the file's progress, and marks the file ready — with its
// `declaration.saft_ready` event — or failed. A job that runs again (the worker died mid-file, graphile-worker hands
// the job to another) deletes the parts written so far and writes the file again: the same books give the same bytes.
// Written files are kept SAFT_KEEP_HOURS and then deleted by prune_saft_files.
import { randomUUID } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import { plainQuery } from "../db/prepared.js";
import type { SaftFilePartsRow, SaftFilesRow } from "../db/rows.js";
import { emitEvent } from "../events/index.js";
import { collectGarbage } from "../shared/collect-garbage.js";
import { ApiError, conflict, notFound, unprocessable } from "../shared/errors.js";
import { vatAccounts } from "./declarant.js";
import {
  type SaftCompany,
  type SaftDataType,
  type SaftMasterData,
  type SaftPartWritten,
  type SaftFrame,
  type SaftRequest,
  incompleteCompany,
  incompletePartners,
  structuredAddressesSql,
  loadSaftMasterData,
  masterFor,
  planSaftParts,
  writeMasterFiles,
  writeSaftGl,
} from "./lt/saft.js";
import { planSaftInvoiceParts, writeSaftInvoices } from "./lt/saft-invoices.js";
import { planSaftPaymentParts, writeSaftPayments } from "./lt/saft-payments.js";
import { type SaftAssetRow, countSaftAssetTransactions, loadSaftAssets, writeAssets, writeSaftAssets } from "./lt/saft-assets.js";
import { loadSaftStock, planSaftStockParts, writeSaftStock, writeStockMasters } from "./lt/saft-stock.js";
import type { XmlWriter } from "./xml-writer.js";

type SaftFile = components["schemas"]["Declarations.SaftFile"];
type GenerateInput = components["schemas"]["Declarations.SaftGenerateRequest"];
type Download = components["schemas"]["Declarations.SaftDownload"];

export const SAFT_TASK = "saft_generate";
/** Attempts of a file's job: a failure that is not the books' (a lost connection) is retried. */
export const SAFT_MAX_ATTEMPTS = 3;
const MAX_YEARS = 10;
const FETCH_ROWS = 5_000;
/** Documents or payments a page of a SI, PI or PA file reads (with their lines). */
const INVOICE_PAGE = 1_000;

function companyOf(row: Record<string, unknown>): SaftCompany {
  return {
    code: row.code as string,
    name: row.name as string,
    vatCode: row.vat_code as string | null,
    baseCurrency: String(row.base_currency).trim(),
    address: row.address as SaftCompany["address"],
    iban: row.iban as string | null,
    phone: row.phone as string | null,
    email: row.email as string | null,
    contactPerson: row.contact_person as SaftCompany["contactPerson"],
    fiscalYearStartMonth: Number(row.fiscal_year_start_month),
    addresses: row.addresses as SaftCompany["addresses"],
  };
}

async function loadCompany(db: Db, companyId: string): Promise<SaftCompany> {
  const [row] = await plainQuery<Record<string, unknown>>(
    db,
    `select c.code, c.name, c.vat_code, c.base_currency, c.address, c.iban, c.phone, c.email, c.contact_person, c.fiscal_year_start_month,
            ${structuredAddressesSql("company_addresses", "a.company_id = c.id")} as addresses
       from companies c where c.id = $1`,
    [companyId],
  );
  return companyOf(row);
}

const companyIncomplete = (fields: string[]) =>
  unprocessable(
    `The company lacks what a SAF-T header needs: ${fields.join(", ")}. Set them with account/companies/update (a registered address with city and postal code, a contact person, a telephone of at most 18 characters).`,
    "saft.company_incomplete",
    { fields },
  );

const partnersIncomplete = (partners: ReturnType<typeof incompletePartners>) =>
  unprocessable(
    `${partners.length} customer(s) or supplier(s) of the file lack what SAF-T requires (an address with city and postal code; codes of at most 35 characters): ${partners
      .slice(0, 5)
      .map((p) => p.code)
      .join(", ")}${partners.length > 5 ? ", …" : ""}. Complete them with partners/update.`,
    "saft.partner_incomplete",
    { partners },
  );

/**
 * The checks of generate that the job makes again when it starts (the books may have changed since): the company and
 * the master data of the file's data type (its partners only), which it returns.
 */
async function checkReadiness(
  db: Db,
  companyId: string,
  range: { from: string; to: string },
  dataType: SaftDataType,
): Promise<{ company: SaftCompany; master: SaftMasterData; assets: SaftAssetRow[] }> {
  const company = await loadCompany(db, companyId);
  const fields = incompleteCompany(company);
  if (fields.length) throw companyIncomplete(fields);
  const master = masterFor(await loadSaftMasterData(db, companyId, range), dataType);
  // An AS file names the assets' suppliers with their addresses (not as master records).
  const assets = dataType === "AS" || dataType === "F" ? await loadSaftAssets(db, companyId, range) : [];
  for (const a of assets) {
    if (!a.supplier_code || master.partners.has(a.supplier_code)) continue;
    master.partners.set(a.supplier_code, {
      code: a.supplier_code,
      name: a.supplier_name ?? a.supplier_code,
      address: a.supplier_address,
      country_code: a.supplier_country,
      registration_code: null,
      vat_code: null,
      email: null,
      phone: null,
      iban: null,
      addresses: [],
    });
  }
  const partners = incompletePartners(master);
  if (partners.length) throw partnersIncomplete(partners);
  return { company, master, assets };
}

/** declarations/lt/saft/generate: checks, records the file and queues its job in the caller's transaction. */
export async function requestSaft(trx: Db, companyId: string, keyId: string, input: GenerateInput): Promise<{ id: string; status: "queued" }> {
  const limit = `${Number(input.from.slice(0, 4)) + MAX_YEARS}${input.from.slice(4)}`;
  if (input.to < input.from || input.to > limit) {
    throw unprocessable(`The range must end on or after its start and at most ${MAX_YEARS} years after it.`, "saft.range_invalid", {
      from: input.from,
      to: input.to,
    });
  }
  await checkReadiness(trx, companyId, input, input.dataType);
  const id = randomUUID();
  await trx<SaftFilesRow>("saft_files").insert({
    company_id: companyId,
    id,
    data_type: input.dataType,
    date_from: input.from,
    date_to: input.to,
    requested_by_key_id: keyId,
  });
  await trx.raw("select graphile_worker.add_job(?, json_build_object('companyId', ?::uuid, 'fileId', ?::uuid), max_attempts := ?, job_key := ?)", [
    SAFT_TASK,
    companyId,
    id,
    SAFT_MAX_ATTEMPTS,
    `saft:${id}`,
  ]);
  return { id, status: "queued" };
}

type PartInfo = Pick<SaftFilePartsRow, "part_number" | "file_name" | "bytes" | "sha256">;

function fileToApi(row: SaftFilesRow, parts: PartInfo[]): SaftFile {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: row.id,
    from: row.date_from,
    to: row.date_to,
    dataType: row.data_type as SaftFile["dataType"],
    status: row.status as SaftFile["status"],
    progress: { rowsWritten: Number(row.rows_written), rowsTotal: row.rows_total === null ? null : Number(row.rows_total) },
    parts: row.status === "ready" ? parts.map((p) => ({ partNumber: p.part_number, fileName: p.file_name, bytes: Number(p.bytes), sha256: p.sha256 })) : [],
    error: row.status === "failed" ? (row.error as SaftFile["error"]) : null,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: iso(row.finished_at),
    expiresAt: iso(row.expires_at),
  };
}

async function loadFile(db: Db, companyId: string, id: string): Promise<SaftFilesRow> {
  const row = await db<SaftFilesRow>("saft_files").where({ company_id: companyId, id }).first();
  if (!row) throw notFound("The SAF-T file", "saft.not_found", { id });
  return row;
}

const partsOf = (db: Db, companyId: string, id: string) =>
  db<SaftFilePartsRow>("saft_file_parts")
    .where({ company_id: companyId, file_id: id })
    .orderBy("part_number")
    .select("part_number", "file_name", "bytes", "sha256");

export async function getSaft(db: Db, companyId: string, id: string): Promise<SaftFile> {
  const row = await loadFile(db, companyId, id);
  return fileToApi(row, await partsOf(db, companyId, id));
}

export async function downloadSaft(db: Db, companyId: string, id: string, part: number): Promise<Download> {
  const row = await loadFile(db, companyId, id);
  if (row.status !== "ready") throw conflict(`The SAF-T file is ${row.status}, not ready.`, "saft.not_ready", { status: row.status });
  const [{ parts }] = await plainQuery<{ parts: number }>(db, "select count(*)::int as parts from saft_file_parts where company_id = $1 and file_id = $2", [
    companyId,
    id,
  ]);
  const stored = await db<SaftFilePartsRow>("saft_file_parts").where({ company_id: companyId, file_id: id, part_number: part }).first();
  if (!stored) throw unprocessable(`The SAF-T file has ${parts} part(s).`, "saft.part_unknown", { parts });
  return {
    fileName: stored.file_name,
    contentType: "application/xml",
    contentBase64: Buffer.from(stored.content).toString("base64"),
    sha256: stored.sha256,
    partNumber: part,
    parts,
  };
}

/**
 * A data type's writer, planned: the rows it will write (journal transactions, documents, payments, stock operations
 * or asset transactions) in how many parts, and the writing of those parts within a file's frame.
 */
interface PlannedWriter {
  rows: number;
  parts: number;
  write(frame: SaftFrame, onPart: (part: SaftPartWritten) => Promise<void>): Promise<void>;
}

type Section = Exclude<SaftDataType, "F">;
/** A whole file's writers in the XSD's order of sections: the general ledger, then the source documents. */
const WHOLE_FILE: readonly Section[] = ["GL", "SI", "PI", "PA", "MG", "AS"];

async function planWriter(
  trx: Db,
  config: Config,
  companyId: string,
  dataType: Section,
  company: SaftCompany,
  master: SaftMasterData,
  request: SaftRequest,
): Promise<PlannedWriter> {
  const size = config.saftPartSize;
  const pages = { partSize: size, fetchRows: INVOICE_PAGE };
  switch (dataType) {
    case "SI":
    case "PI": {
      const side = dataType === "SI" ? "sale" : "purchase";
      const accounts = await vatAccounts(trx, companyId);
      const plan = await planSaftInvoiceParts(trx, companyId, request, accounts, side, size);
      return {
        rows: plan.reduce((n, p) => n + p.documents, 0),
        parts: plan.length,
        write: (frame, onPart) => writeSaftInvoices(trx, companyId, company, request, master, accounts, side, frame, plan, pages, onPart),
      };
    }
    case "PA": {
      const plan = await planSaftPaymentParts(trx, companyId, request, size);
      return {
        rows: plan.reduce((n, p) => n + p.payments, 0),
        parts: plan.length,
        write: (frame, onPart) => writeSaftPayments(trx, companyId, company, request, frame, plan, pages, onPart),
      };
    }
    case "MG": {
      const plan = await planSaftStockParts(trx, companyId, request, size);
      return {
        rows: plan.reduce((n, p) => n + p.operations, 0),
        parts: plan.length,
        write: (frame, onPart) => writeSaftStock(trx, companyId, company, request, frame, plan, { partSize: size, fetchRows: FETCH_ROWS }, onPart),
      };
    }
    case "AS": {
      const rows = await countSaftAssetTransactions(trx, companyId, request);
      return {
        rows,
        parts: Math.max(1, Math.ceil(rows / size)),
        write: (frame, onPart) => writeSaftAssets(trx, companyId, company, request, frame, rows, pages, onPart),
      };
    }
    case "GL": {
      const plan = await planSaftParts(trx, companyId, request, size);
      return {
        rows: plan.reduce((n, p) => n + p.transactions, 0),
        parts: plan.length,
        write: (frame, onPart) => writeSaftGl(trx, companyId, company, request, master, frame, plan, { partSize: size, fetchRows: FETCH_ROWS }, onPart),
      };
    }
  }
}

/**
 * The file's writer: one data type's, or for `F` each data type's in turn (the general ledger always; a source
 * document section only when the range has some), their parts numbered on through the file. The master files of
 * the data type (all of them for `F`) go in the file's first part.
 */
async function writerOf(
  trx: Db,
  config: Config,
  companyId: string,
  dataType: SaftDataType,
  company: SaftCompany,
  master: SaftMasterData,
  request: SaftRequest,
  assets: SaftAssetRow[],
): Promise<{ rows: number; write(onPart: (part: SaftPartWritten) => Promise<void>): Promise<void> }> {
  const sections = dataType === "F" ? WHOLE_FILE : [dataType];
  const stock = sections.includes("MG") ? await loadSaftStock(trx, companyId, request) : null;
  const masterFiles = (w: XmlWriter) =>
    writeMasterFiles(w, company, master, () => {
      if (stock) writeStockMasters(w, stock);
      if (sections.includes("AS")) writeAssets(w, company, assets, request.to);
    });
  const planned: PlannedWriter[] = [];
  for (const section of sections) {
    const writer = await planWriter(trx, config, companyId, section, company, master, request);
    if (dataType !== "F" || section === "GL" || writer.rows > 0) planned.push(writer);
  }
  const parts = planned.reduce((n, p) => n + p.parts, 0);
  return {
    rows: planned.reduce((n, p) => n + p.rows, 0),
    write: async (onPart) => {
      let offset = 0;
      for (const writer of planned) {
        await writer.write({ dataType, offset, parts, masterFiles }, onPart);
        offset += writer.parts;
      }
    },
  };
}

/**
 * The job of one file (src/jobs/generate-saft.ts). `attempt`: graphile-worker's attempt number; an error that is not
 * the books' is thrown to be retried until the last attempt, which marks the file failed.
 */
export async function runSaftJob(db: Db, config: Config, companyId: string, fileId: string, attempt: number): Promise<void> {
  const [file] = await db<SaftFilesRow>("saft_files")
    .where({ company_id: companyId, id: fileId })
    .whereIn("status", ["queued", "running"])
    .update({ status: "running", started_at: db.fn.now(), rows_written: "0", rows_total: null })
    .returning("*");
  if (!file) return; // finished already (a job run twice) or pruned
  // A restart writes the file again from its first part.
  await db("saft_file_parts").where({ company_id: companyId, file_id: fileId }).delete();
  const range = { from: file.date_from, to: file.date_to };
  try {
    await db.transaction(
      async (trx) => {
        const dataType = file.data_type as SaftDataType;
        const { company, master, assets } = await checkReadiness(trx, companyId, range, dataType);
        const request = { ...range, createdAt: new Date(file.created_at) };
        const writer = await writerOf(trx, config, companyId, dataType, company, master, request, assets);
        await db("saft_files")
          .where({ company_id: companyId, id: fileId })
          .update({ rows_total: String(writer.rows) });
        const store = async (part: SaftPartWritten) => {
          // A part is tens of MB of short-lived strings and buffers; collected here, the worker's heap stays at about
          // one part (src/shared/collect-garbage.ts says why V8 would let it grow meanwhile).
          const content = part.file.toBuffer();
          await db.transaction(async (t) => {
            await t("saft_file_parts").insert({
              company_id: companyId,
              file_id: fileId,
              part_number: part.partNumber,
              file_name: part.fileName,
              content,
              bytes: part.file.bytes,
              sha256: part.file.sha256,
            });
            await t("saft_files")
              .where({ company_id: companyId, id: fileId })
              .update({ rows_written: t.raw("rows_written + ?", [part.transactions]) });
          });
          collectGarbage();
        };
        await writer.write(store);
      },
      { isolationLevel: "repeatable read", readOnly: true },
    );
  } catch (error) {
    const mine = error instanceof ApiError;
    if (!mine && attempt < SAFT_MAX_ATTEMPTS) throw error;
    await finish(db, config, companyId, fileId, {
      key: mine ? (error.key ?? "saft.failed") : "saft.failed",
      message: mine ? error.message : `The file could not be written: ${String((error as Error)?.message ?? error).slice(0, 500)}`,
    });
    return;
  }
  await finish(db, config, companyId, fileId, null);
}

/** Marks the file ready (with its event) or failed, in one transaction. */
async function finish(db: Db, config: Config, companyId: string, fileId: string, error: { key: string; message: string } | null): Promise<void> {
  await db.transaction(async (trx) => {
    const [row] = await trx<SaftFilesRow>("saft_files")
      .where({ company_id: companyId, id: fileId, status: "running" })
      .update(
        error
          ? { status: "failed", error: JSON.stringify(error), finished_at: trx.fn.now() }
          : { status: "ready", finished_at: trx.fn.now(), expires_at: trx.raw(`now() + make_interval(hours => ?)`, [config.saftKeepHours]) },
      )
      .returning("*");
    if (!row) return;
    if (error) await trx("saft_file_parts").where({ company_id: companyId, file_id: fileId }).delete();
    else await emitEvent(trx, companyId, "declaration.saft_ready", fileToApi(row, await partsOf(trx, companyId, fileId)));
  });
}

/** Deletes the files whose keeping time has passed (and their parts); returns how many. */
export async function pruneSaftFiles(db: Db): Promise<number> {
  const rows = await plainQuery(db, "delete from saft_files where expires_at < now() returning id", []);
  return rows.length;
}
