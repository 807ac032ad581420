// Files kept with a purchase document (`purchases/invoices/attachments/list`, `.../get`): the supplier's e-invoice as
// received by `purchases/invoices/import-ubl` and the files it embedded (its PDF). Stored as received, byte for byte.
import { createHash } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { PurchaseInvoiceAttachmentsRow } from "../db/rows.js";
import { notFound } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type Attachment = components["schemas"]["Purchases.PurchaseInvoiceAttachment"];
type AttachmentContent = components["schemas"]["Purchases.PurchaseInvoiceAttachmentContent"];
type Meta = Omit<PurchaseInvoiceAttachmentsRow, "content">;

/** Every column but the bytes. */
const META = ["company_id", "id", "invoice_id", "kind", "file_name", "content_type", "description", "size_bytes", "sha256", "created_at"];

const toApi = (row: Meta): Attachment => ({
  id: row.id,
  invoiceId: row.invoice_id,
  kind: row.kind,
  fileName: row.file_name,
  contentType: row.content_type,
  description: row.description,
  sizeBytes: Number(row.size_bytes),
  sha256: row.sha256,
  createdAt: new Date(row.created_at).toISOString(),
});

export interface NewAttachment {
  kind: Attachment["kind"];
  fileName: string;
  contentType: string;
  description: string | null;
  content: Buffer;
}

export async function storeAttachments(trx: Db, companyId: string, invoiceId: string, files: NewAttachment[]): Promise<Attachment[]> {
  if (!files.length) return [];
  const rows = await trx("purchase_invoice_attachments")
    .insert(
      files.map((f) => ({
        company_id: companyId,
        invoice_id: invoiceId,
        kind: f.kind,
        file_name: f.fileName,
        content_type: f.contentType,
        description: f.description,
        content: f.content,
        sha256: createHash("sha256").update(f.content).digest("hex"),
      })),
    )
    .returning(META);
  return (rows as Meta[]).map(toApi);
}

export async function getPurchaseInvoiceAttachment(db: Db, companyId: string, id: string): Promise<AttachmentContent> {
  const row: PurchaseInvoiceAttachmentsRow | undefined = await db("purchase_invoice_attachments")
    .where({ company_id: companyId, id })
    .first([...META, "content"]);
  if (!row) throw notFound("The attachment", "purchase_invoice_attachment.not_found", { id });
  return { ...toApi(row), contentBase64: row.content.toString("base64") };
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    invoiceId: { column: "invoice_id", type: "uuid", sort: false },
    kind: { column: "kind", type: "string" },
    fileName: { column: "file_name", type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  // The e-invoice before the files it embedded (stored by one statement, at one time).
  defaultSort: [
    { field: "createdAt", dir: "asc" },
    { field: "kind", dir: "asc" },
  ],
};

export async function listPurchaseInvoiceAttachments(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<Meta>(db, () => db("purchase_invoice_attachments").where("company_id", companyId), listSpec, request, META);
  return { ...result, rows: result.rows.map(toApi) };
}
