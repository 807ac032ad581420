// FR0600, the monthly VAT return (issue 24): the boxes of ./fr0600-boxes.ts filled through ./fr0600-mapping.ts from
// the month's documents (./documents.ts), in whole euros, with their drill-down; the reconciliation of what the
// documents declare on each VAT account with the journal of the month; and the FFData of form version 02.
//
// Rounding: each box's exact EUR sum (cents) is rounded once, half away from zero, to whole euros (VMI's form
// definition gives every amount field 0 decimal places); 35 and 36 are then computed from the rounded boxes, as the
// form's own script computes them.
import type { components } from "../../../generated/types.js";
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { Decimal } from "../../shared/decimal.js";
import { unprocessable } from "../../shared/errors.js";
import type { Declarant } from "../declarant.js";
import { documentTypeOf } from "./document-types.js";
import { type DocumentQuery, documentGroupsSql, type VatAccounts } from "./documents.js";
import { fr0600FfData, formText } from "./ffdata.js";
import { FR0600_BOXES } from "./fr0600-boxes.js";
import { FR0600_MAPPING, MAPPED_CLASSIFIERS } from "./fr0600-mapping.js";
import { monthRange } from "./period-rules.js";

type Fr0600Return = components["schemas"]["Declarations.Fr0600Return"];
type Fr0600Box = Fr0600Return["boxes"][number];
type Reconciliation = Fr0600Return["reconciliation"];

const MAX_DIFFERENCES = 1000;

/** Whole euros: half away from zero, once, on the box total. */
export const wholeEuros = (exact: Decimal) => exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);

/** The amount column of each amount kind. */
const AMOUNT_SQL = `case m.amount when 'base' then r.taxable_eur::numeric when 'vat' then r.vat_eur::numeric else r.ded_eur::numeric end`;

interface Computed {
  boxes: Fr0600Box[];
  reconciliation: Reconciliation;
}

export interface Fr0600Options {
  documentsPerBox: number;
}

/** Refuses (422) when a document of the month carries a classifier the mapping does not know for its side. */
async function refuseUnmapped(db: Db, q: DocumentQuery): Promise<void> {
  const sql = documentGroupsSql(q, "select distinct side, classifier, id, doc_no, decl_date, type, status from rows order by decl_date, doc_no, id");
  // The unmapped pairs are few; the document list stops at 100.
  const rows = (
    await plainQuery<{ side: "sale" | "purchase"; classifier: string; id: string; doc_no: string; decl_date: string; type: string; status: string }>(
      db,
      sql.text,
      sql.values,
    )
  ).filter((r) => !MAPPED_CLASSIFIERS.has(`${r.side}:${r.classifier}`));
  if (!rows.length) return;
  const documents = rows.slice(0, 100).map((r) => ({
    documentType: documentTypeOf(r.side, r.type, r.status)?.documentType ?? `${r.side}_${r.type}`,
    id: r.id,
    number: r.doc_no,
    classifier: r.classifier,
  }));
  throw unprocessable(
    `FR0600 has no box for ${[...new Set(rows.map((r) => `${r.classifier} (${r.side})`))].join(", ")}: ${documents
      .slice(0, 5)
      .map((d) => d.number)
      .join(", ")}${rows.length > 5 ? ", …" : ""} carry it.`,
    "fr0600.classifier_unmapped",
    { documents },
  );
}

export async function computeBoxes(db: Db, declarant: Declarant, period: string, accounts: VatAccounts, options: Fr0600Options): Promise<Computed> {
  const { from, to } = monthRange(period);
  const q: DocumentQuery = { companyId: declarant.id, from, to, accounts };
  await refuseUnmapped(db, q);
  const mapping = JSON.stringify(
    FR0600_MAPPING.filter((m) => m.box !== null).map((m) => ({ side: m.side, classifier: m.classifier, amount: m.amount, box: m.box })),
  );
  const n = 8 + (q.after ? 2 : 0) + 1;
  // One statement: the (document, classifier, rate) rows, once, then per box and classifier, and the first documents.
  const sql = documentGroupsSql(
    q,
    `, mapped as (
        select m.box, m.amount, r.side, r.classifier, r.rate_pct, r.id, r.doc_no, r.decl_date, r.partner_code, r.sign,
               r.sign * (${AMOUNT_SQL}) as value
          from rows r join jsonb_to_recordset($${n}::jsonb) m(side text, classifier text, amount text, box text)
            on m.side = r.side and m.classifier = r.classifier
         where r.sign <> 0
      ),
      by_classifier as (
        select box, side, classifier, rate_pct, amount, sum(value)::text as total, count(*)::int as n from mapped
         group by box, side, classifier, rate_pct, amount
      ),
      firsts as (
        select * from (
          select mapped.*, row_number() over (partition by box order by decl_date, doc_no, id, classifier, rate_pct) as rk from mapped
        ) x where rk <= $${n + 1}
      )
      select 'c' as part, box, side, classifier, rate_pct, amount, total, n, null::uuid as id, null as doc_no, null as decl_date, null as partner_code, null::int as sign
        from by_classifier
      union all
      select 'd', box, side, classifier, rate_pct, amount, value::numeric(17,2)::text, null, id, doc_no, decl_date, partner_code, sign
        from firsts
      order by 1, 2, 3, 4, 5, 6, 11, 10`,
  );
  const rows = await plainQuery<{
    part: "c" | "d";
    box: string;
    side: "sale" | "purchase";
    classifier: string;
    rate_pct: string;
    amount: "base" | "vat" | "deductibleVat";
    total: string;
    n: number | null;
    id: string | null;
    doc_no: string | null;
    decl_date: string | null;
    partner_code: string | null;
    sign: number | null;
  }>(db, sql.text, [...sql.values, mapping, options.documentsPerBox]);

  const exact = new Map<string, Decimal>();
  const counts = new Map<string, number>();
  const classifiers = new Map<string, Fr0600Box["classifiers"]>();
  const documents = new Map<string, Fr0600Box["documents"]>();
  for (const r of rows) {
    if (r.part === "c") {
      exact.set(r.box, (exact.get(r.box) ?? new Decimal(0)).plus(r.total));
      counts.set(r.box, (counts.get(r.box) ?? 0) + (r.n ?? 0));
      const list = classifiers.get(r.box) ?? [];
      list.push({
        side: r.side,
        classifier: r.classifier,
        ratePercent: percent(r.rate_pct),
        amountKind: r.amount,
        amount: new Decimal(r.total).toFixed(2),
        documentCount: r.n ?? 0,
      });
      classifiers.set(r.box, list);
    } else {
      const list = documents.get(r.box) ?? [];
      const sign = r.sign ?? 1;
      list.push({
        documentType: (r.side === "sale"
          ? sign < 0
            ? "sale_credit_note"
            : "sale_invoice"
          : sign < 0
            ? "purchase_credit_note"
            : "purchase_invoice") as Fr0600Box["documents"][number]["documentType"],
        id: r.id!,
        number: r.doc_no!,
        date: r.decl_date!,
        partnerCode: r.partner_code!,
        classifier: r.classifier,
        ratePercent: percent(r.rate_pct),
        amountKind: r.amount,
        amount: new Decimal(r.total).toFixed(2),
      });
      documents.set(r.box, list);
    }
  }
  for (const list of documents.values())
    list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.number < b.number ? -1 : a.number > b.number ? 1 : 0));

  const rounded = new Map<string, Decimal>();
  const exactOf = new Map<string, Decimal>();
  const boxes: Fr0600Box[] = [];
  for (const def of FR0600_BOXES) {
    let ex: Decimal;
    let amount: Decimal;
    if (def.kind === "constant") {
      ex = new Decimal(def.value!);
      amount = ex;
    } else if (def.kind === "sum") {
      const terms = def.terms!.map((t) => (t.startsWith("-") ? { box: t.slice(1), sign: -1 } : { box: t, sign: 1 }));
      ex = terms.reduce((s, t) => s.plus(exactOf.get(t.box)!.times(t.sign)), new Decimal(0));
      amount = terms.reduce((s, t) => s.plus(rounded.get(t.box)!.times(t.sign)), new Decimal(0));
    } else {
      ex = exact.get(def.box) ?? new Decimal(0);
      amount = wholeEuros(ex);
    }
    exactOf.set(def.box, ex);
    rounded.set(def.box, amount);
    boxes.push({
      box: def.box,
      field: def.field,
      title: def.title,
      amount: amount.isZero() ? "0" : amount.toFixed(0),
      exact: ex.isZero() ? "0.00" : ex.toFixed(2),
      verified: def.verified,
      source: def.source,
      classifiers: classifiers.get(def.box) ?? [],
      documentCount: counts.get(def.box) ?? 0,
      documents: documents.get(def.box) ?? [],
    });
  }
  const reconciliation = await reconcile(db, q, accounts);
  return { boxes, reconciliation };
}

const percent = (v: string) => new Decimal(v).toFixed(2).replace(/\.?0+$/, "") || "0";

/**
 * What the documents declare on each VAT account against the journal of the month, per document (journal
 * transaction), in cents. Amounts are debit − credit inside, shown in the account's natural sign (credit positive for
 * liability, equity and income accounts).
 */
async function reconcile(db: Db, q: DocumentQuery, a: VatAccounts): Promise<Reconciliation> {
  const n = 9;
  const roles = {
    "sales.vatPayable": a.vatPayable,
    "purchases.vatReceivable": a.vatReceivable,
    "purchases.vatNonDeductible": a.vatNonDeductible,
    "purchases.reverseChargeVatInput": a.reverseChargeVatInput,
    "purchases.reverseChargeVatOutput": a.reverseChargeVatOutput,
  };
  const accountCodes = [...new Set(Object.values(roles))];
  const sql = documentGroupsSql(
    q,
    `, declared as (
        select r.journal_transaction_id as tx, r.side, r.id, r.doc_no, r.sign, x.account, sum(x.debit) as debit
          from rows r cross join lateral (values
            (case when r.side = 'sale' then $4 end, -r.vat_eur::numeric),
            (case when r.side = 'purchase' and r.treatment = 'standard' then $5 end, r.ded_eur::numeric),
            (case when r.side = 'purchase' and r.treatment in ('standard', 'reverse_charge') then $6 end, r.nonded_eur::numeric),
            (case when r.side = 'purchase' and r.treatment = 'reverse_charge' then $7 end, r.ded_eur::numeric),
            (case when r.side = 'purchase' and r.treatment = 'reverse_charge' then $8 end, -r.vat_eur::numeric)
          ) x(account, debit)
         where x.account is not null and r.sign <> 0
         group by 1, 2, 3, 4, 5, 6
      ),
      declared_doc as (
        select tx, side, id, doc_no, sign, account, sum(sign * debit) as debit from declared group by 1, 2, 3, 4, 5, 6
      ),
      ledger as (
        select e.transaction_id as tx, e.account_code as account, sum(e.debit - e.credit) as debit
          from journal_entries e
         where e.company_id = $1 and e.account_code = any($${n}::text[]) and e.date between $2::date and $3::date
         group by 1, 2
      ),
      joined as (
        select coalesce(d.account, l.account) as account, coalesce(d.tx, l.tx) as tx, d.side, d.id, d.doc_no, d.sign,
               coalesce(d.debit, 0) as declared, coalesce(l.debit, 0) as ledger
          from declared_doc d full join ledger l on l.tx = d.tx and l.account = d.account
      )
      select j.account, (select type from ledger_accounts la where la.company_id = $1 and la.code = j.account) as account_type,
             sum(j.declared)::text as declared, sum(j.ledger)::text as ledger,
             coalesce(jsonb_agg(jsonb_build_object('tx', j.tx, 'side', j.side, 'id', j.id, 'no', coalesce(j.doc_no, t.reference), 'sign', j.sign,
                                                   'source', t.source_type, 'sourceId', t.source_id, 'declared', j.declared, 'ledger', j.ledger)
                                order by j.tx) filter (where j.declared <> j.ledger), '[]') as differences
        from joined j left join journal_transactions t on t.company_id = $1 and t.id = j.tx and j.declared <> j.ledger
       group by j.account`,
  );
  const rows = await plainQuery<{ account: string; account_type: string | null; declared: string; ledger: string; differences: Record<string, unknown>[] }>(
    db,
    sql.text,
    [...sql.values, accountCodes],
  );
  const byAccount = new Map(rows.map((r) => [r.account, r]));
  const natural = (type: string | null | undefined) => (type === "liability" || type === "equity" || type === "income" ? -1 : 1);
  const accounts: Reconciliation["accounts"] = [];
  const differences: Reconciliation["differences"] = [];
  let total = 0;
  for (const code of accountCodes) {
    const r = byAccount.get(code);
    const s = natural(r?.account_type ?? (code === a.vatPayable || code === a.reverseChargeVatOutput ? "liability" : "asset"));
    const declared = new Decimal(r?.declared ?? 0).times(s);
    const ledger = new Decimal(r?.ledger ?? 0).times(s);
    accounts.push({
      accountCode: code,
      postingRules: Object.entries(roles)
        .filter(([, c]) => c === code)
        .map(([rule]) => rule),
      declared: declared.toFixed(2),
      ledger: ledger.toFixed(2),
      difference: ledger.minus(declared).toFixed(2),
    });
    for (const d of r?.differences ?? []) {
      total++;
      if (differences.length >= MAX_DIFFERENCES) continue;
      const dd = new Decimal(String(d.declared)).times(s);
      const ll = new Decimal(String(d.ledger)).times(s);
      const side = d.side as string | null;
      const sign = d.sign as number | null;
      const source = d.source as string | null;
      const documentType = side
        ? side === "sale"
          ? (sign ?? 1) < 0
            ? "sale_credit_note"
            : "sale_invoice"
          : (sign ?? 1) < 0
            ? "purchase_credit_note"
            : "purchase_invoice"
        : source && ["sale_invoice", "sale_credit_note", "purchase_invoice", "purchase_credit_note"].includes(source)
          ? source
          : null;
      differences.push({
        accountCode: code,
        journalTransactionId: (d.tx as string | null) ?? null,
        documentType: documentType as Reconciliation["differences"][number]["documentType"],
        documentId: (d.id as string | null) ?? (documentType ? ((d.sourceId as string | null) ?? null) : null),
        documentNumber: (d.no as string | null) ?? null,
        declared: dd.toFixed(2),
        ledger: ll.toFixed(2),
        difference: ll.minus(dd).toFixed(2),
      });
    }
  }
  return { balanced: total === 0, accounts, differences, differencesTruncated: total > differences.length };
}

/** FFData of FR0600 v02 for the boxes, or the reason it cannot be written. */
export function fr0600File(
  declarant: Declarant,
  period: string,
  boxes: Fr0600Box[],
  o: { correction: boolean; createdOn: string; createdBy: string; app: string },
): { file: ReturnType<typeof fr0600FfData>; fileName: string } | { reason: string } {
  const box29A = boxes.find((b) => b.box === "29A");
  if (box29A && box29A.amount !== "0") {
    return {
      reason: `Box 29A (12% output VAT, ${box29A.amount} EUR) has no field in FR0600 version 02, the only version whose FFData layout is public; the 2026 form's field is unverified. Enter the return in the EDS portal by hand.`,
    };
  }
  const { from, to } = monthRange(period);
  const address = declarant.address as { line1?: string; city?: string } | null;
  const street = address?.line1 ?? "";
  const withCity = address?.city ? `${street}, ${address.city}` : street;
  const values: Record<string, string> = {
    B_MM_Pavad: formText(declarant.name, 30),
    B_MM_ID: declarant.code,
    LT: "",
    B_MM_PVM: declarant.vatCode.replace(/^LT/, ""),
    B_MM_Adresas: formText(withCity.length <= 30 ? withCity : street.length <= 30 ? street : "", 30),
    B_MM_Epastas: formText(
      declarant.email && declarant.email.length <= 30 ? declarant.email : declarant.phone && declarant.phone.length <= 30 ? declarant.phone : "",
      30,
    ),
    B_UzpildData: o.createdOn,
    B_ML_DataNuo: from,
    B_ML_DataIki: to,
    E10: "",
    B_FormNr: "",
    B_FormVerNr: "",
    E8: o.correction ? "2" : "1",
    E9: "1",
  };
  for (const b of boxes) if (b.field) values[b.field] = b.amount;
  const file = fr0600FfData({ createdByApp: o.app, createdByLogin: o.createdBy, createdOn: o.createdOn }, values);
  return { file, fileName: `FR0600_${declarant.code}_${period}.ffdata` };
}
