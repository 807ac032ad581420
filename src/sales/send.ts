// `sales/invoices/send` (issue 25): an issued document e-mailed to its buyer with its PDF and, when asked, its Peppol
// UBL. The request writes one sale_invoice_sends row and its worker job in the request's transaction; the worker
// (src/jobs/send-sale-invoice.ts → deliverSaleInvoiceSend) renders the attachments, sends through SMTP_URL, and records
// the outcome with its event (sale_invoice.sent / sale_invoice.send_failed) in one transaction. A temporary failure
// (an SMTP 4xx, a connection that fails) is retried by graphile-worker with backoff up to MAX_ATTEMPTS; a permanent
// refusal (5xx) ends the send at once. What was asked never changes (trigger sale_invoice_sends_keep_request).
import type { components } from "../../generated/types.js";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import type { CompaniesRow, PartnersRow, SaleInvoiceSendsRow } from "../db/rows.js";
import { emitEvent } from "../events/index.js";
import { formatLtAmount } from "../invoicing/index.js";
import { sendSmtp } from "../mail.js";
import { ApiError, conflict, notFound, unprocessable } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { getSaleInvoice, type SaleInvoice } from "./invoices.js";
import { saleInvoicePdf } from "./pdf.js";
import { saleInvoicePeppolXml } from "./peppol.js";

type Send = components["schemas"]["Sales.SaleInvoiceSend"];
type SendRequest = components["schemas"]["Sales.SaleInvoiceSendRequest"];
type Attachment = Send["attach"][number];

export const SEND_TASK = "send_sale_invoice";
/** Attempts of one send, the first included (graphile-worker's backoff: about 2.7 s, 7.4 s, 20 s, … between them). */
export const MAX_ATTEMPTS = 10;

const iso = (v: Date | null) => (v ? v.toISOString() : null);

function sendToApi(row: SaleInvoiceSendsRow): Send {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    to: row.recipients,
    cc: row.cc,
    subject: row.subject,
    message: row.message,
    attach: row.attach as Attachment[],
    issuer: (row.issuer as Send["issuer"]) ?? null,
    status: row.status as Send["status"],
    attempts: row.attempts,
    lastError: row.last_error,
    sentAt: iso(row.sent_at),
    failedAt: iso(row.failed_at),
    createdAt: row.created_at.toISOString(),
  };
}

/** The document's title in Lithuanian and English (a seller without a VAT code issues invoices, not VAT invoices). */
function titles(invoice: SaleInvoice, vatPayer: boolean): [string, string] {
  const vat = vatPayer ? "PVM " : "";
  if (invoice.type === "credit_note") return [`Kreditinė ${vat}sąskaita faktūra`, "Credit note"];
  if (invoice.type === "debit_note") return [`Debetinė ${vat}sąskaita faktūra`, "Debit note"];
  return vatPayer ? ["PVM sąskaita faktūra", "VAT invoice"] : ["Sąskaita faktūra", "Invoice"];
}

/** Queues the e-mail of an issued document (in the request's transaction). */
export async function queueSaleInvoiceSend(trx: Db, config: Config, companyId: string, keyId: string | null, body: SendRequest): Promise<Send> {
  if (!config.smtpUrl) {
    throw unprocessable("This server has no SMTP server to send with (SMTP_URL is not set): ask its operator.", "mail.not_configured");
  }
  const invoice = await getSaleInvoice(trx, companyId, body.id);
  if (invoice.status === "draft" || invoice.number === null) {
    throw conflict("The document is a draft: issue it before sending it.", "sale_invoice.not_issued", { id: body.id });
  }
  const [company, partner] = await Promise.all([
    trx<CompaniesRow>("companies").where({ id: companyId }).first(),
    trx<PartnersRow>("partners").where({ company_id: companyId, code: invoice.partnerCode }).first("email"),
  ]);
  if (!company) throw new Error(`company ${companyId} not found`);
  const to = body.to ?? (partner?.email ? [partner.email] : []);
  if (to.length === 0) {
    throw new ApiError("unprocessable", `No recipient: name \`to\`, or give partner ${invoice.partnerCode} an e-mail.`, {
      key: "sale_invoice.recipient_missing",
      params: { partnerCode: invoice.partnerCode },
      fieldErrors: { to: ["required: the partner has no e-mail"] },
    });
  }
  const attach = body.attach ?? ["pdf"];
  // A UBL that cannot be built (a party Peppol cannot address) is refused now, not by the worker later.
  if (attach.includes("ubl")) await saleInvoicePeppolXml(trx, companyId, invoice.id);
  const [lt, en] = titles(invoice, company.vat_code !== null);
  const subject = body.subject ?? `${lt} ${invoice.number} / ${en} ${invoice.number} — ${company.name}`;
  const [row] = await trx<SaleInvoiceSendsRow>("sale_invoice_sends")
    .insert({
      company_id: companyId,
      invoice_id: invoice.id,
      recipients: to,
      cc: body.cc ?? [],
      subject,
      message: body.message ?? null,
      attach,
      issuer: body.issuer ? JSON.stringify(body.issuer) : null,
      key_id: keyId,
    })
    .returning("*");
  await trx.raw("select graphile_worker.add_job(?, json_build_object('companyId', ?::uuid, 'sendId', ?::uuid), max_attempts := ?, job_key := ?)", [
    SEND_TASK,
    companyId,
    row.id,
    MAX_ATTEMPTS,
    `sis:${row.id}`,
  ]);
  return sendToApi(row);
}

/** The default text: the document, its total and due date, in Lithuanian and English. */
function defaultText(invoice: SaleInvoice, company: CompaniesRow, [lt, en]: [string, string]): string {
  const total = `${formatLtAmount(invoice.grossTotal)} ${invoice.currency}`;
  const totalEn = `${invoice.grossTotal} ${invoice.currency}`;
  const due = invoice.type === "credit_note" ? "" : `, apmokėti iki ${invoice.dueDate}`;
  const dueEn = invoice.type === "credit_note" ? "" : `, due ${invoice.dueDate}`;
  return [
    "Laba diena,",
    "",
    `siunčiame ${lt.toLowerCase()} ${invoice.number} (${invoice.issueDate}), suma ${total}${due}.`,
    "",
    "Hello,",
    "",
    `please find attached ${en.toLowerCase()} ${invoice.number} (${invoice.issueDate}), total ${totalEn}${dueEn}.`,
    "",
    company.name,
  ].join("\n");
}

/** A permanent SMTP refusal (a 5xx reply) ends the send; anything else may pass on a later attempt. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500;
}

/**
 * The worker's part: sends the queued e-mail once. Returns normally when the send is settled (sent, or failed for
 * good); throws on a temporary failure so that graphile-worker retries it (`attempt` counts from 1).
 */
export async function deliverSaleInvoiceSend(db: Db, config: Config, companyId: string, sendId: string, attempt: number): Promise<void> {
  const row = await db<SaleInvoiceSendsRow>("sale_invoice_sends").where({ company_id: companyId, id: sendId }).first();
  if (row?.status !== "queued") return; // settled already (a job run twice)
  const [invoice, company] = await Promise.all([getSaleInvoice(db, companyId, row.invoice_id), db<CompaniesRow>("companies").where({ id: companyId }).first()]);
  if (!company) return;
  const names = titles(invoice, company.vat_code !== null);
  let error: unknown;
  try {
    const attachments = [];
    if (row.attach.includes("pdf")) {
      const pdf = await saleInvoicePdf(db, companyId, invoice.id, { issuer: row.issuer as Send["issuer"] });
      attachments.push({ filename: pdf.fileName, content: Buffer.from(pdf.contentBase64, "base64"), contentType: "application/pdf" });
    }
    if (row.attach.includes("ubl")) {
      const ubl = await saleInvoicePeppolXml(db, companyId, invoice.id);
      attachments.push({ filename: ubl.fileName, content: Buffer.from(ubl.contentBase64, "base64"), contentType: "application/xml" });
    }
    await sendSmtp(config, {
      to: row.recipients,
      cc: row.cc.length ? row.cc : undefined,
      replyTo: company.email ?? undefined,
      subject: row.subject,
      text: row.message ?? defaultText(invoice, company, names),
      attachments,
      headers: { "X-Accounting-Document": invoice.number ?? "" },
    });
  } catch (e) {
    error = e;
  }
  const lastError = error === undefined ? null : String((error as { response?: unknown }).response ?? (error as Error).message ?? error).slice(0, 2000);
  const failedForGood = error !== undefined && (isPermanent(error) || attempt >= MAX_ATTEMPTS);
  await db.transaction(async (trx) => {
    const [settled] = await trx<SaleInvoiceSendsRow>("sale_invoice_sends")
      .where({ company_id: companyId, id: sendId, status: "queued" })
      .update({
        attempts: attempt,
        last_error: lastError,
        ...(error === undefined ? { status: "sent", sent_at: trx.fn.now() } : failedForGood ? { status: "failed", failed_at: trx.fn.now() } : {}),
      })
      .returning("*");
    if (!settled) return;
    if (error === undefined) await emitEvent(trx, companyId, "sale_invoice.sent", sendToApi(settled));
    else if (failedForGood) await emitEvent(trx, companyId, "sale_invoice.send_failed", sendToApi(settled));
  });
  if (error !== undefined && !failedForGood) throw error;
}

export async function getSaleInvoiceSend(db: Db, companyId: string, id: string): Promise<Send> {
  const row = await db<SaleInvoiceSendsRow>("sale_invoice_sends").where({ company_id: companyId, id }).first();
  if (!row) throw notFound("The send", "sale_invoice_send.not_found", { id });
  return sendToApi(row);
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    invoiceId: { column: "invoice_id", type: "uuid", sort: false },
    status: { column: "status", type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "createdAt", dir: "desc" }],
};

export async function listSaleInvoiceSends(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<SaleInvoiceSendsRow>(db, () => db("sale_invoice_sends").where("company_id", companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(sendToApi) };
}
