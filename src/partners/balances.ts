// partners/balances and partners/statement (issue 26): what each partner owes and is owed at a date, and a partner's
// statement of account over a range, from the ledger (src/ledger/reports/partners.ts says which accounts are a
// partner's and reads the balances per account, month and partner). The partner's identity and the list shape are
// this module's; the figures are the ledger's.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { PartnersRow } from "../db/rows.js";
import { checkRange, partnerBalancesQuery, partnerLedger, type PartnerLine } from "../ledger/index.js";
import { todayInVilnius } from "../shared/dates.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { notFound } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type BalancesRequest = components["schemas"]["Partners.PartnerBalancesRequest"];
type PartnerBalance = components["schemas"]["Partners.PartnerBalance"];
type StatementRequest = components["schemas"]["Partners.PartnerStatementRequest"];
type Statement = components["schemas"]["Partners.PartnerStatement"];
type StatementLine = components["schemas"]["Partners.PartnerStatementLine"];
type Figures = components["schemas"]["Partners.PartnerBalanceFigures"];

const money = (value: Decimal | string) => formatDecimal(value, "money");

const balancesSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    isCustomer: { column: "is_customer", type: "boolean", sort: false },
    isSupplier: { column: "is_supplier", type: "boolean", sort: false },
    receivable: { column: "receivable", type: "decimal", total: true },
    payable: { column: "payable", type: "decimal", total: true },
    balance: { column: "balance", type: "decimal", total: true },
  },
  tieBreaker: "id",
  defaultSort: [
    { field: "name", dir: "asc" },
    { field: "code", dir: "asc" },
  ],
};

interface BalanceRow {
  id: string;
  code: string;
  name: string;
  is_customer: boolean;
  is_supplier: boolean;
  receivable: string;
  payable: string;
  balance: string;
}

/** The codes of the partners `ids` name; 404 naming every id the company has no partner with. */
async function partnerCodes(db: Db, companyId: string, ids: string[]): Promise<string[]> {
  const rows: Pick<PartnersRow, "id" | "code">[] = await db<PartnersRow>("partners").where("company_id", companyId).whereIn("id", ids).select("id", "code");
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw notFound(missing.length === 1 ? "The partner" : "Some partners", "partner.not_found", { ids: missing });
  return rows.map((r) => r.code);
}

/**
 * Each partner's receivable and payable at the end of `asOf`, as a list: the partners joined to the ledger's sums per
 * partner (one statement over the balances of whole months and the entries of the part-month), so that filters,
 * sorting and totals apply to the figures too.
 */
export async function listPartnerBalances(db: Db, companyId: string, input: BalancesRequest) {
  const { asOf, partnerIds, includeZero, ...request } = input;
  const codes = partnerIds ? await partnerCodes(db, companyId, partnerIds) : undefined;
  const sums = partnerBalancesQuery(companyId, { from: null, to: asOf ?? todayInVilnius() }, codes);
  // Named partners are rows whatever their balance; otherwise a partner without one only with includeZero.
  const everyPartner = includeZero || partnerIds !== undefined;
  const base = () => {
    const q = db.from(
      db.raw(
        `(select p.id, p.code, p.name, p.is_customer, p.is_supplier,
                 coalesce(b.receivable, 0) as receivable, coalesce(b.payable, 0) as payable,
                 coalesce(b.receivable, 0) - coalesce(b.payable, 0) as balance
            from partners p ${everyPartner ? "left join" : "join"} (${sums.sql}) b on b.partner_code = p.code
           where p.company_id = ?${partnerIds ? ` and p.id in (${partnerIds.map(() => "?").join(", ")})` : ""}) as balances`,
        [...sums.bindings, companyId, ...(partnerIds ?? [])],
      ),
    );
    if (!everyPartner) q.whereRaw("(receivable <> 0 or payable <> 0)");
    return q;
  };
  const result = await runList<BalanceRow>(db, base, balancesSpec, request as ListRequest, ["*"]);
  const rows: PartnerBalance[] = result.rows.map((r) => ({
    partnerId: r.id,
    code: r.code,
    name: r.name,
    isCustomer: r.is_customer,
    isSupplier: r.is_supplier,
    receivable: money(r.receivable),
    payable: money(r.payable),
    balance: money(r.balance),
  }));
  return { ...result, rows, ...(result.totals ? { totals: Object.fromEntries(Object.entries(result.totals).map(([k, v]) => [k, money(v)])) } : {}) };
}

/** Sales and purchase documents post with their own kind as the transaction's source (`sale_credit_note`, …). */
const DOCUMENT_KINDS = new Set(["sale_invoice", "sale_credit_note", "sale_debit_note", "purchase_invoice", "purchase_credit_note", "purchase_debit_note"]);

function documentTypeOf(line: PartnerLine): StatementLine["documentType"] {
  if ((line.document_type === "sale_invoice" || line.document_type === "purchase_invoice") && line.source_type && DOCUMENT_KINDS.has(line.source_type))
    return line.source_type as StatementLine["documentType"];
  return line.document_type as StatementLine["documentType"];
}

const figures = (receivable: Decimal, payable: Decimal): Figures => ({
  receivable: money(receivable),
  payable: money(payable),
  balance: money(receivable.minus(payable)),
});

/**
 * A partner's statement of account: the opening balance at the start of `from`, the lines of its accounts from `from`
 * to `to` with a running balance (receivable − payable), and the closing balance at the end of `to`.
 */
export async function partnerStatement(db: Db, companyId: string, input: StatementRequest): Promise<Statement> {
  checkRange(input);
  const partner = await db<PartnersRow>("partners").where({ company_id: companyId, id: input.partnerId }).first("id", "code", "name");
  if (!partner) throw notFound("The partner", "partner.not_found", { id: input.partnerId });
  const { opening, lines } = await partnerLedger(db, companyId, partner.code, input, input.side);
  let receivable = new Decimal(opening.receivable);
  let payable = new Decimal(opening.payable);
  let debit = new Decimal(0);
  let credit = new Decimal(0);
  const openingFigures = figures(receivable, payable);
  const statementLines: StatementLine[] = lines.map((l) => {
    const net = new Decimal(l.debit).minus(l.credit);
    if (l.account_type === "asset") receivable = receivable.plus(net);
    else payable = payable.minus(net);
    debit = debit.plus(l.debit);
    credit = credit.plus(l.credit);
    return {
      date: l.date,
      documentType: documentTypeOf(l),
      documentNumber: l.reference ?? l.number,
      source: l.source_type && l.source_id ? { type: l.source_type, id: l.source_id } : null,
      transactionId: l.transaction_id,
      lineNo: l.line_no,
      journalNumber: l.number,
      description: l.description,
      accountCode: l.account_code,
      side: l.account_type === "asset" ? "receivable" : "payable",
      debit: money(l.debit),
      credit: money(l.credit),
      currency: l.currency,
      currencyAmount: l.currency_amount === null ? null : money(l.currency_amount),
      balance: money(receivable.minus(payable)),
    };
  });
  return {
    partner: { id: partner.id, code: partner.code, name: partner.name },
    from: input.from,
    to: input.to,
    side: input.side ?? null,
    opening: openingFigures,
    lines: statementLines,
    debit: money(debit),
    credit: money(credit),
    closing: figures(receivable, payable),
  };
}
