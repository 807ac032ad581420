import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { JournalEntriesRow, JournalTransactionsRow } from "../db/rows.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { conflict, notFound } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { post, postLast, transactionToApi, type JournalTransaction } from "./posting.js";
import type { AuditNote } from "../account/index.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type CreateInput = components["schemas"]["Ledger.JournalTransactionCreateRequest"];
type ReverseInput = components["schemas"]["Ledger.JournalTransactionReverseRequest"];
type Row = components["schemas"]["Ledger.JournalTransactionRow"];

/**
 * ledger/journal/transactions/create: one statement after the checks, the transaction's last (postLast), so that a
 * numbered posting holds its series row for that statement and the commit only.
 */
export function createManualTransaction(trx: Db, companyId: string, keyId: string, input: CreateInput, audit: AuditNote): Promise<JournalTransaction> {
  return postLast(
    trx,
    {
      companyId,
      date: input.date,
      description: input.description,
      reference: input.reference,
      documentType: "manual",
      entries: input.entries,
      createdByKeyId: keyId,
    },
    audit,
  );
}

async function load(db: Db, companyId: string, id: string, forUpdate = false) {
  const query = db<JournalTransactionsRow>("journal_transactions").where({ company_id: companyId, id }).first();
  const header = await (forUpdate ? query.forUpdate() : query);
  if (!header) throw notFound("The journal transaction", "journal.not_found", { id });
  const [entries, reversal] = await Promise.all([
    db<JournalEntriesRow>("journal_entries").where({ company_id: companyId, transaction_id: id }).orderBy("line_no"),
    db<JournalTransactionsRow>("journal_transactions").where({ company_id: companyId, reverses_id: id }).first("id"),
  ]);
  return { header, entries, reversedById: reversal?.id ?? null };
}

export async function getTransaction(db: Db, companyId: string, id: string): Promise<JournalTransaction> {
  const { header, entries, reversedById } = await load(db, companyId, id);
  return transactionToApi(header, entries, reversedById);
}

/**
 * Postings that belong to a document whose own operation undoes them, and that operation. Reversed in the journal
 * alone, the document would not know: a payment's bank transaction would stay matched and its invoice paid (and
 * `bank/transactions/unmatch` would then fail on the reversed posting forever), an invoice would stay open for its
 * full amount, an asset would keep a depreciation month or its disposal, stock would keep its movements. `null`: no
 * operation undoes it (a disposal is final; correct it with a manual posting). The company's last depreciation month is
 * undone by assets/depreciation/reverse while its period is open.
 */
const UNDONE_THROUGH: Partial<Record<string, { operation: string | null; how: string }>> = {
  payment: {
    operation: "bank/transactions/unmatch",
    how: "unmatch its bank transaction (bank/transactions/unmatch), which reverses it and reopens the invoices",
  },
  sale_invoice: {
    operation: "sales/invoices/create",
    how: "issue a credit note for the invoice (sales/invoices/create with type credit_note), or an invoice for a credit note",
  },
  purchase_invoice: {
    operation: "purchases/invoices/create",
    how: "register the supplier's credit note (purchases/invoices/create with type credit_note), or an invoice for a credit note",
  },
  depreciation: {
    operation: "assets/depreciation/reverse",
    how: "reverse the company's last posted depreciation month while its period is open (assets/depreciation/reverse), which reverses its postings and restores its assets; an earlier month is corrected with a manual posting",
  },
  asset_disposal: { operation: null, how: "a disposal is final; post a manual correction" },
  inventory: { operation: "inventory/stock/receive", how: "post the opposite stock operation (inventory/stock/receive or inventory/stock/write-off)" },
};

/**
 * ledger/journal/transactions/reverse: only postings no document owns (manual ones, the migrated history); a
 * document's operation undoes its own posting (bank/transactions/unmatch through postReversal).
 */
export async function reverseTransaction(trx: Db, companyId: string, keyId: string, input: ReverseInput): Promise<JournalTransaction> {
  const header = await trx<JournalTransactionsRow>("journal_transactions")
    .where({ company_id: companyId, id: input.id })
    .first("document_type", "source_type", "source_id");
  const owner = header ? UNDONE_THROUGH[header.document_type] : undefined;
  if (header && owner) {
    throw conflict(
      `The transaction is the posting of a ${header.document_type.replace(/_/g, " ")} and follows its document: ${owner.how}.`,
      "journal.reverse_through_document",
      {
        id: input.id,
        documentType: header.document_type,
        sourceType: header.source_type,
        sourceId: header.source_id,
        operation: owner.operation,
      },
    );
  }
  return postReversal(trx, companyId, keyId, input);
}

/** Posts the exact opposite of a transaction. The original is locked first, so two reversals cannot race. */
export async function postReversal(trx: Db, companyId: string, keyId: string, input: ReverseInput): Promise<JournalTransaction> {
  const original = await load(trx, companyId, input.id, true);
  if (original.reversedById) {
    throw conflict("The transaction is reversed already.", "journal.already_reversed", { id: input.id, reversedById: original.reversedById });
  }
  if (original.header.document_type === "reversal") {
    throw conflict("A reversal cannot be reversed; post a new transaction instead.", "journal.reversal_of_reversal", { id: input.id });
  }
  const { header, entries } = original;
  const reversal = await post(trx, {
    companyId,
    date: input.date ?? header.date,
    description: input.description ?? `Reversal of ${header.number ?? header.id}`,
    reference: header.reference,
    documentType: "reversal",
    reversesId: header.id,
    createdByKeyId: keyId,
    entries: entries.map((e) => ({
      accountCode: e.account_code,
      ...(new Decimal(e.debit).isPositive() && !new Decimal(e.debit).isZero() ? { credit: e.debit } : { debit: e.credit }),
      ...(e.partner_code ? { partnerCode: e.partner_code } : {}),
      // All three or none (journal_entries_currency_complete).
      ...(e.currency && e.currency_amount && e.rate ? { currency: e.currency, currencyAmount: e.currency_amount, rate: e.rate } : {}),
      ...(e.description ? { description: e.description } : {}),
    })),
  });
  await emitEvent(trx, companyId, "journal_transaction.reversed", { reversedId: header.id, reversal });
  return reversal;
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    date: { column: "date", type: "date" },
    number: { column: "number", type: "string" },
    documentType: { column: "document_type", type: "string" },
    reference: { column: "reference", type: "string" },
    description: { column: "description", type: "string", sort: false },
    account: { column: "account_codes", type: "textArray", sort: false },
    partner: { column: "partner_codes", type: "textArray", sort: false },
    debit: { column: "total", type: "decimal", total: true },
    credit: { column: "total", type: "decimal", total: true },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [
    { field: "date", dir: "desc" },
    { field: "createdAt", dir: "desc" },
  ],
};

export async function listTransactions(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<
    Pick<
      JournalTransactionsRow,
      "id" | "number" | "date" | "description" | "reference" | "document_type" | "reverses_id" | "total" | "account_codes" | "partner_codes" | "created_at"
    >
  >(db, () => db("journal_transactions").where("company_id", companyId), listSpec, request, [
    "id",
    "number",
    "date",
    "description",
    "reference",
    "document_type",
    "reverses_id",
    "total",
    "account_codes",
    "partner_codes",
    "created_at",
  ]);
  const rows: Row[] = result.rows.map((r) => ({
    id: r.id,
    number: r.number,
    date: r.date,
    description: r.description,
    reference: r.reference,
    documentType: r.document_type,
    reversesId: r.reverses_id,
    debit: formatDecimal(r.total, "money"),
    credit: formatDecimal(r.total, "money"),
    accountCodes: r.account_codes,
    partnerCodes: r.partner_codes,
    createdAt: r.created_at.toISOString(),
  }));
  const totals = result.totals && Object.fromEntries(Object.entries(result.totals).map(([k, v]) => [k, formatDecimal(v, "money")]));
  return { ...result, rows, ...(totals ? { totals } : {}) };
}
