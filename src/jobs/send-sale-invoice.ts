import type { Task } from "graphile-worker";
import { deliverSaleInvoiceSend } from "../sales/send.js";
import type { JobDeps } from "./deps.js";

/** Sends one queued sales document e-mail (src/sales/send.ts); a temporary SMTP failure throws and is retried. */
export const sendSaleInvoiceTask =
  ({ db, config }: JobDeps): Task =>
  async (payload, helpers) => {
    const p = payload as { companyId?: unknown; sendId?: unknown } | null;
    if (typeof p?.companyId !== "string" || typeof p.sendId !== "string") throw new Error("send_sale_invoice needs {companyId, sendId}");
    await deliverSaleInvoiceSend(db, config, p.companyId, p.sendId, helpers.job.attempts);
  };
