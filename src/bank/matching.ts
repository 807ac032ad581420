// bank/transactions/match and unmatch. A match is one `payment` journal transaction through the posting function:
// the bank line at the booking date's rate, each document's line at the rate it was booked at (so the receivable or
// payable clears exactly), accounts at the booking date's rate, and the difference — a realized exchange gain or
// loss — on `fx.gain`/`fx.loss`. The documents' settlement figures move in the same transaction (the invoice_frozen
// trigger lets only those move), and `*_invoice.paid` is written to the outbox for each invoice it completes.
// Unmatching posts the reversal of that transaction (ledger reverse: never an edit) and moves the figures back.
import type { components } from "../../generated/types.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import type {
  BankAccountsRow,
  BankAllocationsRow,
  BankMatchesRow,
  BankTransactionsRow,
  LedgerAccountsRow,
  PurchaseInvoicesRow,
  SaleInvoicesRow,
} from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { Decimal } from "../shared/decimal.js";
import { lookupRate } from "../reference/index.js";
import { postReversal } from "../ledger/index.js";
import { accountsForRules } from "../ledger/index.js";
import { ApiError, conflict, type FieldErrors } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { post, type PostingEntry } from "../ledger/index.js";
import { findTransaction, getTransaction, type BankTransaction } from "./transactions.js";

type MatchInput = components["schemas"]["Bank.TransactionMatchRequest"];
type UnmatchInput = components["schemas"]["Bank.TransactionUnmatchRequest"];

type Side = "sale" | "purchase";
const TABLE: Record<Side, string> = { sale: "sale_invoices", purchase: "purchase_invoices" };
const OPEN_STATUS: Record<Side, string> = { sale: "issued", purchase: "registered" };

/** A document an allocation settles: a row of TABLE[side]. */
type Document = SaleInvoicesRow | PurchaseInvoicesRow;
const isSale = (side: Side, _doc: Document): _doc is SaleInvoicesRow => side === "sale";

interface Allocation {
  index: number;
  side: Side | null;
  documentId: string | null;
  accountCode: string | null;
  /** In the transaction's currency, signed as money flows: + in, - out. */
  flow: Decimal;
  /** What the document's figures move by (above 0), for documents. */
  amount: Decimal;
  doc?: Document;
  eur?: Decimal;
}

const fail = (errors: FieldErrors, path: string, message: string) => (errors[path] ??= []).push(message);
const money = (d: Decimal) => d.toFixed(2);
const documentNumber = (side: Side, doc: Document) => (isSale(side, doc) ? doc.number : doc.document_number) ?? doc.id;

/**
 * Money flows in for a sales invoice or debit note and a purchase credit note, out for a purchase invoice or debit note
 * and a sales credit note (a debit note raises what is owed, as an invoice does).
 */
const flowSign = (side: Side, type: string) => ((side === "sale") === (type !== "credit_note") ? 1 : -1);

function parseAllocations(input: MatchInput): Allocation[] {
  const errors: FieldErrors = {};
  const seen = new Set<string>();
  const allocations = input.allocations.map((a, i): Allocation => {
    const targets = [a.saleInvoiceId, a.purchaseInvoiceId, a.accountCode].filter((v) => v !== undefined).length;
    if (targets !== 1) fail(errors, `allocations[${i}]`, "needs exactly one of saleInvoiceId, purchaseInvoiceId and accountCode");
    const amount = new Decimal(a.amount);
    if (amount.isZero()) fail(errors, `allocations[${i}].amount`, "must not be 0");
    const side: Side | null = a.saleInvoiceId ? "sale" : a.purchaseInvoiceId ? "purchase" : null;
    const documentId = (a.saleInvoiceId ?? a.purchaseInvoiceId ?? null)?.toLowerCase() ?? null;
    if (side && amount.isNegative()) fail(errors, `allocations[${i}].amount`, "must be above 0 for a document (it settles the document in its own direction)");
    if (documentId) {
      if (seen.has(documentId)) fail(errors, `allocations[${i}]`, "names a document another allocation names");
      seen.add(documentId);
    }
    return { index: i, side, documentId, accountCode: a.accountCode ?? null, flow: amount, amount };
  });
  if (Object.keys(errors).length) throw new ApiError("validation", "The allocations are not valid.", { key: "request.invalid", fieldErrors: errors });
  return allocations;
}

/**
 * Locks the documents (in id order, so two matches never wait on each other in a cycle) and checks each allocation.
 * An account allocation may not name the bank account's own ledger account (`bankLedgerCode`): the payment would
 * post the money to that account and straight back, settling nothing while the transaction left the unmatched list.
 */
async function loadDocuments(trx: Db, companyId: string, tx: BankTransactionsRow, allocations: Allocation[], bankLedgerCode: string): Promise<void> {
  const errors: FieldErrors = {};
  let key: string | undefined;
  let params: Record<string, unknown> = {};
  const problem = (a: Allocation, problemKey: string, message: string, p: Record<string, unknown> = {}) => {
    fail(errors, `allocations[${a.index}].${a.side === "sale" ? "saleInvoiceId" : a.side === "purchase" ? "purchaseInvoiceId" : "accountCode"}`, message);
    if (!key) [key, params] = [problemKey, p];
  };
  for (const side of ["sale", "purchase"] as const) {
    const ids = allocations
      .filter((a) => a.side === side)
      .map((a) => a.documentId!)
      .sort();
    if (!ids.length) continue;
    const rows: Document[] = await trx(TABLE[side]).where("company_id", companyId).whereIn("id", ids).orderBy("id").forUpdate();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const a of allocations.filter((x) => x.side === side)) {
      const doc = byId.get(a.documentId!);
      if (!doc) {
        problem(a, "bank_match.document_invalid", `${side === "sale" ? "sales" : "purchase"} document ${a.documentId} does not exist`);
        continue;
      }
      a.doc = doc;
      a.flow = a.amount.times(flowSign(side, doc.type));
      const label = `${doc.type === "invoice" ? "invoice" : "credit note"} ${documentNumber(side, doc)}`;
      if (doc.status === "draft") problem(a, "bank_match.document_invalid", `${label} is a draft`);
      else if (doc.currency !== tx.currency)
        problem(a, "bank_match.currency_mismatch", `${label} is in ${doc.currency}, the transaction in ${tx.currency}`, {
          documentCurrency: doc.currency,
          transactionCurrency: tx.currency,
        });
      else if (a.amount.greaterThan(doc.outstanding)) {
        problem(
          a,
          new Decimal(doc.outstanding).isZero() ? "bank_match.document_invalid" : "bank_match.exceeds_outstanding",
          `${money(a.amount)} exceeds the ${money(new Decimal(doc.outstanding))} outstanding on ${label}`,
          {
            id: doc.id,
            outstanding: money(new Decimal(doc.outstanding)),
            amount: money(a.amount),
          },
        );
      }
    }
  }
  const accountCodes = [...new Set(allocations.flatMap((a) => (a.accountCode ? [a.accountCode] : [])))];
  if (accountCodes.length) {
    const accounts = await trx<LedgerAccountsRow>("ledger_accounts").where("company_id", companyId).whereIn("code", accountCodes).select("code", "is_postable");
    const postable = new Map(accounts.map((r) => [r.code, r.is_postable]));
    for (const a of allocations.filter((x) => x.accountCode)) {
      if (!postable.has(a.accountCode!)) problem(a, "bank_match.account_invalid", `account ${a.accountCode} does not exist`);
      else if (!postable.get(a.accountCode!)) problem(a, "bank_match.account_invalid", `account ${a.accountCode} takes no postings`);
      else if (a.accountCode === bankLedgerCode) {
        problem(
          a,
          "bank_match.account_invalid",
          `account ${a.accountCode} is the bank account's own ledger account; a payment is allocated to what the money settles`,
          {
            accountCode: a.accountCode,
            bankAccountId: tx.bank_account_id,
          },
        );
      }
    }
  }
  if (key) {
    throw new ApiError("unprocessable", `${Object.values(errors)[0][0].replace(/^./, (c) => c.toUpperCase())}.`, { key, params, fieldErrors: errors });
  }
  const total = allocations.reduce((s, a) => s.plus(a.flow), new Decimal(0));
  if (!total.equals(tx.amount)) {
    throw new ApiError("unprocessable", `The allocations add up to ${money(total)} ${tx.currency}, the transaction is ${money(new Decimal(tx.amount))}.`, {
      key: "bank_match.sum_mismatch",
      params: { allocated: money(total), amount: money(new Decimal(tx.amount)) },
      fieldErrors: { allocations: [`add up to ${money(total)}, not ${money(new Decimal(tx.amount))}`] },
    });
  }
}

/**
 * The EUR a document's allocation clears: at the document's own rate; the payment that settles what is left of an
 * uncredited document clears what is left of its EUR (the earlier payments' rounding included), within a cent.
 */
async function documentEur(trx: Db, companyId: string, a: Allocation): Promise<Decimal> {
  const doc = a.doc!;
  // A document past its draft has its rate and EUR total (sale_invoices_issued_complete, purchase_invoices_registered_complete).
  const atRate = a.amount.dividedBy(doc.rate!).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  if (!a.amount.equals(doc.outstanding) || !new Decimal(doc.credited_amount).isZero()) return atRate;
  const column = a.side === "sale" ? "a.sale_invoice_id" : "a.purchase_invoice_id";
  const [{ cleared }]: { cleared: string }[] = await trx("bank_allocations as a")
    .join("bank_matches as m", (j) => j.on("m.company_id", "a.company_id").andOn("m.id", "a.match_id"))
    .where("a.company_id", companyId)
    .where(column, doc.id)
    .whereNull("m.unmatched_at")
    .select(trx.raw("coalesce(sum(abs(a.base_amount)), 0)::text as cleared"));
  const rest = new Decimal(doc.gross_total_base!).minus(cleared);
  return rest.minus(atRate).abs().lessThanOrEqualTo("0.01") ? rest : atRate;
}

const nextStatus = (side: Side, paid: Decimal, outstanding: Decimal) =>
  outstanding.isZero() ? (paid.isZero() ? "credited" : "paid") : paid.isZero() ? OPEN_STATUS[side] : "partially_paid";

/**
 * Matches a bank transaction to documents and accounts: checks the allocations, posts the payment, records the match,
 * settles the documents (announcing those it pays in full) and remembers the counterparty's IBAN.
 */
export async function matchTransaction(trx: Db, company: CompanyContext, keyId: string, input: MatchInput): Promise<BankTransaction> {
  const allocations = parseAllocations(input);
  const { tx, bank } = await matchableTransaction(trx, company.id, input.transactionId);
  await loadDocuments(trx, company.id, tx, allocations, bank.ledger_account_code);
  const entries = await paymentEntries(trx, company, tx, bank.ledger_account_code, allocations);
  const posted = await postPayment(trx, company.id, keyId, tx, allocations, entries);
  const matchId = await recordMatch(trx, company.id, tx, posted.id, allocations);
  await settleDocuments(trx, company.id, matchId, allocations);
  await rememberIbans(trx, company.id, tx, allocations);
  return getTransaction(trx, company.id, tx.id);
}

/** The transaction, locked, if it may be matched, and its bank account; only in the account's own currency. */
async function matchableTransaction(
  trx: Db,
  companyId: string,
  transactionId: string,
): Promise<{ tx: BankTransactionsRow; bank: Pick<BankAccountsRow, "ledger_account_code" | "currency"> }> {
  const tx = await findTransaction(trx, companyId, transactionId, true);
  if (tx.status === "matched") throw conflict("The transaction is matched already; unmatch it first.", "bank_transaction.already_matched", { id: tx.id });
  if (tx.status === "ignored") throw conflict("The transaction is ignored; unmatch it to make it unmatched first.", "bank_transaction.ignored", { id: tx.id });
  // The transaction's account (bank_transactions_account_fkey).
  const bank = (await trx<BankAccountsRow>("bank_accounts").where({ company_id: companyId, id: tx.bank_account_id }).first("ledger_account_code", "currency"))!;
  // The bank line posts the transaction's amount to the account's ledger account: only in the account's own currency
  // (imports refuse anything else; a row stored before they did is refused here rather than posted).
  if (tx.currency !== bank.currency) {
    throw new ApiError("unprocessable", `The transaction is in ${tx.currency}, its bank account in ${bank.currency}; it cannot be posted to the account.`, {
      key: "bank_match.currency_mismatch",
      params: { transactionCurrency: tx.currency, accountCurrency: bank.currency },
    });
  }
  return { tx, bank };
}

/**
 * The payment's lines: the bank line at the booking date's rate, each document's line at its own rate (`a.eur`, set
 * here), each account's at the booking date's rate, and what they leave unbalanced on `fx.gain` or `fx.loss`.
 */
async function paymentEntries(
  trx: Db,
  company: CompanyContext,
  tx: BankTransactionsRow,
  bankLedgerCode: string,
  allocations: Allocation[],
): Promise<PostingEntry[]> {
  const [receivable, payable, gain, loss] = await accountsForRules(trx, company.id, ["sales.receivable", "purchases.payables", "fx.gain", "fx.loss"]);
  const foreign = tx.currency !== company.baseCurrency;
  const quote = await lookupRate(trx, company.id, tx.currency, tx.booking_date);
  const paymentRate = new Decimal(quote.rate);
  const eurAtPayment = (amount: Decimal) => amount.abs().dividedBy(paymentRate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const currencyOf = (amount: Decimal, rate: string) => (foreign ? { currency: tx.currency, currencyAmount: money(amount.abs()), rate } : {});
  // A flow into the bank debits the bank and credits the other side; a flow out the reverse.
  const side = (flow: Decimal, eur: Decimal, bankSide: boolean) =>
    (flow.isPositive() === bankSide ? { debit: money(eur) } : { credit: money(eur) }) as { debit?: string; credit?: string };

  const amount = new Decimal(tx.amount);
  const entries: PostingEntry[] = [
    {
      accountCode: bankLedgerCode,
      ...side(amount, eurAtPayment(amount), true),
      ...currencyOf(amount, quote.rate),
      description: tx.counterparty_name ?? undefined,
    },
  ];
  for (const a of allocations) {
    if (a.doc) {
      a.eur = await documentEur(trx, company.id, a);
      entries.push({
        accountCode: a.side === "sale" ? receivable : payable,
        ...side(a.flow, a.eur, false),
        partnerCode: a.doc.partner_code,
        ...currencyOf(a.amount, new Decimal(a.doc.rate!).toFixed()),
        description: documentNumber(a.side!, a.doc),
      });
    } else {
      a.eur = eurAtPayment(a.flow);
      entries.push({ accountCode: a.accountCode!, ...side(a.flow, a.eur, false), ...currencyOf(a.flow, quote.rate) });
    }
  }
  // What the lines leave unbalanced is the realized exchange difference (zero in the company's own currency).
  const balance = entries.reduce((s, e) => s.plus(e.debit ?? 0).minus(e.credit ?? 0), new Decimal(0));
  if (balance.isPositive() && !balance.isZero()) entries.push({ accountCode: gain, credit: money(balance), description: "Realized exchange gain" });
  if (balance.isNegative()) entries.push({ accountCode: loss, debit: money(balance.abs()), description: "Realized exchange loss" });
  return entries;
}

/** One `payment` journal transaction through the posting function; a line it refuses is `bank_match.posting_rejected`. */
async function postPayment(trx: Db, companyId: string, keyId: string, tx: BankTransactionsRow, allocations: Allocation[], entries: PostingEntry[]) {
  const numbers = allocations.filter((a) => a.doc).map((a) => documentNumber(a.side!, a.doc!));
  return post(trx, {
    companyId,
    date: tx.booking_date,
    description: [`Payment${tx.counterparty_name ? ` ${tx.counterparty_name}` : ""}`, numbers.join(", ")].filter(Boolean).join(": ").slice(0, 1000),
    reference: tx.bank_reference ?? tx.end_to_end_id ?? null,
    documentType: "payment",
    source: { type: "bank_transaction", id: tx.id },
    entries,
    createdByKeyId: keyId,
    conversion: "within_a_cent",
  }).catch((error) => {
    if (error instanceof ApiError && error.status === 422 && error.key?.startsWith("journal.")) {
      throw new ApiError("unprocessable", `The payment cannot be posted: ${error.message}`, {
        key: "bank_match.posting_rejected",
        params: { transactionId: tx.id },
        fieldErrors: error.fieldErrors,
      });
    }
    throw error;
  });
}

/** The match (one live one per transaction: bank_matches_one_live), its allocations, and the transaction matched. */
async function recordMatch(trx: Db, companyId: string, tx: BankTransactionsRow, journalTransactionId: string, allocations: Allocation[]): Promise<string> {
  const [match] = await trx<BankMatchesRow>("bank_matches")
    .insert({ company_id: companyId, transaction_id: tx.id, journal_transaction_id: journalTransactionId })
    .returning("id")
    .catch((error) => {
      if (uniqueViolation(error) === "bank_matches_one_live")
        throw conflict("The transaction is matched already.", "bank_transaction.already_matched", { id: tx.id });
      throw error;
    });
  await trx("bank_allocations").insert(
    allocations.map((a, i) => ({
      company_id: companyId,
      match_id: match.id,
      line_no: i + 1,
      sale_invoice_id: a.side === "sale" ? a.documentId : null,
      purchase_invoice_id: a.side === "purchase" ? a.documentId : null,
      account_code: a.accountCode,
      amount: money(a.flow),
      base_amount: money(a.flow.isNegative() ? a.eur!.negated() : a.eur!),
    })),
  );
  await trx("bank_transactions").where({ company_id: companyId, id: tx.id }).update({ status: "matched", updated_at: trx.fn.now() });
  return match.id;
}

/** Moves each document's settlement figures and status; one this payment pays in full is announced (once ever). */
async function settleDocuments(trx: Db, companyId: string, matchId: string, allocations: Allocation[]): Promise<void> {
  const paidAt = new Date().toISOString();
  for (const a of allocations.filter((x) => x.doc)) {
    const doc = a.doc!;
    const paid = new Decimal(doc.paid_amount).plus(a.amount);
    const outstanding = new Decimal(doc.outstanding).minus(a.amount);
    await trx(TABLE[a.side!])
      .where({ company_id: companyId, id: doc.id })
      .update({ paid_amount: money(paid), outstanding: money(outstanding), status: nextStatus(a.side!, paid, outstanding), updated_at: trx.fn.now() });
    // Fully paid by this payment: announced in this transaction (never for a part payment), and only the first time
    // (an invoice paid, unmatched and paid again is not announced twice).
    const column = a.side === "sale" ? "sale_invoice_id" : "purchase_invoice_id";
    const announcedBefore =
      outstanding.isZero() && doc.type === "invoice"
        ? (await trx("bank_allocations")
            .where({ company_id: companyId, [column]: doc.id, announced_paid: true })
            .first("match_id")) !== undefined
        : true;
    if (!announcedBefore) {
      await trx("bank_allocations")
        .where({ company_id: companyId, match_id: matchId, line_no: allocations.indexOf(a) + 1 })
        .update({ announced_paid: true });
      await announcePaid(trx, companyId, a.side!, doc, paid, paidAt);
    }
  }
}

/** `sale_invoice.paid` or `purchase_invoice.paid` to the outbox, in the match's transaction. */
async function announcePaid(trx: Db, companyId: string, side: Side, doc: Document, paid: Decimal, paidAt: string): Promise<void> {
  if (isSale(side, doc)) {
    await emitEvent(trx, companyId, "sale_invoice.paid", {
      saleInvoiceId: doc.id,
      number: doc.number,
      currency: doc.currency,
      grossTotal: money(new Decimal(doc.gross_total)),
      paidAmount: money(paid),
      paidAt,
    });
  } else {
    await emitEvent(trx, companyId, "purchase_invoice.paid", {
      purchaseInvoiceId: doc.id,
      documentNumber: doc.document_number,
      partnerCode: doc.partner_code,
      currency: doc.currency,
      grossTotal: money(new Decimal(doc.gross_total)),
      paidAmount: money(paid),
      paidAt,
    });
  }
}

/** The counterparty's IBAN is remembered for each partner it paid (or was paid by): later suggestions trust it. */
async function rememberIbans(trx: Db, companyId: string, tx: BankTransactionsRow, allocations: Allocation[]): Promise<void> {
  const partners = [...new Set(allocations.flatMap((a) => (a.doc ? [a.doc.partner_code] : [])))];
  if (tx.counterparty_iban && partners.length) {
    await preparedQuery(
      trx,
      "bank_remember_ibans",
      `insert into partner_bank_ibans (company_id, partner_code, iban) select $1::uuid, p, $2::text from unnest($3::text[]) as p
       on conflict (company_id, partner_code, iban) do update set matches = partner_bank_ibans.matches + 1, last_matched_at = now()`,
      [companyId, tx.counterparty_iban, partners],
    );
  }
}

export async function unmatchTransaction(trx: Db, companyId: string, keyId: string, input: UnmatchInput): Promise<BankTransaction> {
  const tx = await findTransaction(trx, companyId, input.transactionId, true);
  if (tx.status === "ignored") {
    await trx("bank_transactions").where({ company_id: companyId, id: tx.id }).update({ status: "unmatched", ignored_reason: null, updated_at: trx.fn.now() });
    return getTransaction(trx, companyId, tx.id);
  }
  const match = await trx<BankMatchesRow>("bank_matches").where({ company_id: companyId, transaction_id: tx.id }).whereNull("unmatched_at").forUpdate().first();
  if (!match) throw conflict("The transaction is not matched.", "bank_transaction.not_matched", { id: tx.id });
  // The reversal undoes a payment the bank booked: it cannot take effect before the payment did.
  if (input.date !== undefined && input.date < tx.booking_date) {
    throw new ApiError("unprocessable", `The reversal's date ${input.date} is before the payment's booking date ${tx.booking_date}.`, {
      key: "bank_match.reversal_before_payment",
      params: { date: input.date, bookingDate: tx.booking_date },
      fieldErrors: { date: [`is before the payment's booking date ${tx.booking_date}`] },
    });
  }
  const reversal = await postReversal(trx, companyId, keyId, {
    id: match.journal_transaction_id,
    ...(input.date ? { date: input.date } : {}),
    description: `Unmatched bank transaction ${tx.bank_reference ?? tx.id}`,
  });
  const allocations = await trx<BankAllocationsRow>("bank_allocations").where({ company_id: companyId, match_id: match.id }).orderBy("line_no");
  for (const side of ["sale", "purchase"] as const) {
    const column = side === "sale" ? "sale_invoice_id" : "purchase_invoice_id";
    const mine = allocations.filter((a) => a[column]).sort((x, y) => (x[column]! < y[column]! ? -1 : 1));
    for (const a of mine) {
      // The allocation's document (bank_allocations' foreign keys).
      const doc: Document = await trx(TABLE[side]).where({ company_id: companyId, id: a[column] }).forUpdate().first();
      const amount = new Decimal(a.amount).abs();
      const paid = new Decimal(doc.paid_amount).minus(amount);
      const outstanding = new Decimal(doc.outstanding).plus(amount);
      // A migrated invoice arrives open with what the old system had paid (rule 7): once no payment made here is left
      // on it, it is open again, not part paid.
      const livePayments = doc.migrated
        ? await trx("bank_allocations as a")
            .join("bank_matches as m", (j) => j.on("m.company_id", "a.company_id").andOn("m.id", "a.match_id"))
            .where("a.company_id", companyId)
            .where(`a.${column}`, doc.id)
            .whereNull("m.unmatched_at")
            .whereNot("m.id", match.id)
            .first("a.match_id")
        : undefined;
      const status = doc.migrated && !livePayments && !outstanding.isZero() ? OPEN_STATUS[side] : nextStatus(side, paid, outstanding);
      await trx(TABLE[side])
        .where({ company_id: companyId, id: doc.id })
        .update({ paid_amount: money(paid), outstanding: money(outstanding), status, updated_at: trx.fn.now() });
    }
  }
  await trx("bank_matches").where({ company_id: companyId, id: match.id }).update({ unmatched_at: trx.fn.now(), reversal_journal_transaction_id: reversal.id });
  await trx("bank_transactions").where({ company_id: companyId, id: tx.id }).update({ status: "unmatched", updated_at: trx.fn.now() });
  return getTransaction(trx, companyId, tx.id);
}
