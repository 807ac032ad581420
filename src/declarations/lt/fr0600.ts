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
import { DOCUMENT_TYPES, documentTypeOf } from "./document-types.js";
import { type DocumentQuery, documentGroupsSql, documentHeadersSql, type VatAccounts } from "./documents.js";
import { fr0600FfData, formText } from "./ffdata.js";
import { FR0600_BOXES } from "./fr0600-boxes.js";
import { FR0600_MAPPING, MAPPED_CLASSIFIERS } from "./fr0600-mapping.js";
import { monthRange } from "./period-rules.js";

type Fr0600Return = components["schemas"]["Declarations.Fr0600Return"];
type Fr0600Box = Fr0600Return["boxes"][number];
type Reconciliation = Fr0600Return["reconciliation"];

const MAX_DIFFERENCES = 1000;

type DeclaredType = Fr0600Box["documents"][number]["documentType"];
/** The document type a drill-down or a difference names a document by (./document-types.ts). */
const declaredType = (side: "sale" | "purchase", type: string, status: string): DeclaredType =>
  (documentTypeOf(side, type, status)?.documentType ?? `${side}_${type}`) as DeclaredType;

/** Whole euros: half away from zero, once, on the box total. */
export const wholeEuros = (exact: Decimal) => exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);

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

/** The VAT posting rules whose accounts the reconciliation compares (what a document declares on each is stored with it). */
function reconciliationRoles(a: VatAccounts): { rule: string; account: string }[] {
  return [
    { rule: "sales.vatPayable", account: a.vatPayable },
    { rule: "purchases.vatReceivable", account: a.vatReceivable },
    { rule: "purchases.vatNonDeductible", account: a.vatNonDeductible },
    { rule: "purchases.reverseChargeVatInput", account: a.reverseChargeVatInput },
    { rule: "purchases.reverseChargeVatOutput", account: a.reverseChargeVatOutput },
  ];
}

type Fr0600Row = {
  part: "c" | "d" | "u" | "a";
  box: string | null;
  side: "sale" | "purchase" | null;
  classifier: string | null;
  rate_pct: string | null;
  amount: "base" | "vat" | "deductibleVat" | null;
  total: string | null;
  n: number | null;
  id: string | null;
  doc_no: string | null;
  decl_date: string | null;
  partner_code: string | null;
  sign: number | null;
  extra: Record<string, string | null> | null;
};

/**
 * The boxes and the reconciliation of a month in one statement over what the month's documents stored when they
 * posted (vat_declared_rows, vat_declared_accounts; src/db/functions/vat_declared.ts) and the ledger's monthly
 * balances (issue 24: FR0600 of 150,000 documents within 500 ms): the sums per classifier and rate (then per box),
 * the first documents of each box (by index, per classifier), the classifiers the mapping does not know (then
 * refuseUnmapped names their documents), and per VAT account what the documents declare, what their journal
 * transactions posted, what the ledger holds for the month, and how many documents' postings differ from what they
 * declare.
 *
 * Reconciliation: the month balances when no document's posting differs from what it declares on any VAT account
 * and each account's balance for the month is what the documents posted (no other posting moved it); otherwise
 * reconcileInDetail compares the month per journal transaction and lists each difference. Postings of no document
 * that cancel each other within the month move no balance and are not listed.
 */
export async function computeBoxes(db: Db, declarant: Declarant, period: string, accounts: VatAccounts, options: Fr0600Options): Promise<Computed> {
  const { from, to } = monthRange(period);
  const q: DocumentQuery = { companyId: declarant.id, from, to, accounts, lean: true };
  const mapping = JSON.stringify(
    FR0600_MAPPING.filter((m) => m.box !== null).map((m) => ({ side: m.side, classifier: m.classifier, amount: m.amount, box: m.box })),
  );
  const roles = reconciliationRoles(accounts);
  const codes = [...new Set(roles.map((r) => r.account))];
  const text = `
    with m as (select * from jsonb_to_recordset($4::jsonb) m(side text, classifier text, amount text, box text)),
    agg as (
      select side, classifier, rate_pct, sum(base) as base, sum(vat) as vat, sum(ded) as ded, sum(documents) as n
        from vat_declared_sums
       where company_id = $1 and month = $2::date
       group by side, classifier, rate_pct
    ),
    by_classifier as (
      select m.box, a.side, a.classifier, a.rate_pct, m.amount,
             (case m.amount when 'base' then a.base when 'vat' then a.vat else a.ded end)::text as total, a.n::int as n
        from agg a join m on m.side = a.side and m.classifier = a.classifier
       where a.n > 0
    ),
    unmapped as (select distinct side, classifier from agg where not ((side || ':' || classifier) = any($6::text[]))),
    -- The first documents of each classifier of a box, in the box's order, by index; then the box's first of them.
    firsts as (
      select * from (
        select m.box, m.amount, f.*, row_number() over (partition by m.box order by f.decl_date, f.doc_no, f.id, f.classifier, f.rate_pct) as rk
          from m cross join lateral (
            select v.side, v.classifier, v.rate_pct, v.document_id as id, v.type, v.annulled, v.doc_no, v.decl_date, v.partner_code, v.sign,
                   v.sign * (case m.amount when 'base' then v.base when 'vat' then v.vat else v.ded end) as value
              from vat_declared_rows v
             where v.company_id = $1 and v.side = m.side and v.classifier = m.classifier and v.decl_date between $2::date and $3::date
               and v.sign <> 0
             order by v.decl_date, v.doc_no, v.document_id, v.rate_pct
             limit $5
          ) f
      ) z where rk <= $5
    ),
    documents as (
      select account_code, sum(declared) as declared, sum(posted) as posted, sum(differing) as differing
        from vat_declared_account_sums
       where company_id = $1 and month = $2::date
       group by account_code
    ),
    ledger as (
      select account_code, sum(debit - credit) as balance
        from ledger_balances
       where company_id = $1 and month = date_trunc('month', $2::date)::date and account_code = any($7::text[])
       group by account_code
    )
    select 'c' as part, box, side, classifier, rate_pct::text, amount, total, n, null::uuid as id, null as doc_no, null as decl_date,
           null as partner_code, null::int as sign, null::jsonb as extra
      from by_classifier
    union all
    select 'd', box, side, classifier, rate_pct::text, amount, value::numeric(17,2)::text, null, id, doc_no, decl_date::text, partner_code, sign,
           jsonb_build_object('type', type, 'status', case when annulled then 'annulled' else 'issued' end)
      from firsts
    union all
    select 'u', null, side, classifier, null, null, null, null, null, null, null, null, null, null from unmapped
    union all
    select 'a', null, null, c.code, null, null, null, null, null, null, null, null, null,
           jsonb_build_object('declared', coalesce(d.declared, 0)::text, 'posted', coalesce(d.posted, 0)::text,
                              'differing', coalesce(d.differing, 0)::text, 'ledger', coalesce(l.balance, 0)::text)
      from unnest($7::text[]) c(code) left join documents d on d.account_code = c.code left join ledger l on l.account_code = c.code
    order by 1, 2, 3, 4, 5, 6, 11, 10`;
  const rows = await plainQuery<Fr0600Row>(db, text, [declarant.id, from, to, mapping, options.documentsPerBox, [...MAPPED_CLASSIFIERS], codes]);
  if (rows.some((r) => r.part === "u")) await refuseUnmapped(db, q);

  const exact = new Map<string, Decimal>();
  const counts = new Map<string, number>();
  const classifiers = new Map<string, Fr0600Box["classifiers"]>();
  const documents = new Map<string, Fr0600Box["documents"]>();
  for (const r of rows) {
    if (r.part === "c") {
      const box = r.box!;
      exact.set(box, (exact.get(box) ?? new Decimal(0)).plus(r.total!));
      counts.set(box, (counts.get(box) ?? 0) + (r.n ?? 0));
      const list = classifiers.get(box) ?? [];
      list.push({
        side: r.side!,
        classifier: r.classifier!,
        ratePercent: percent(r.rate_pct!),
        amountKind: r.amount!,
        amount: new Decimal(r.total!).toFixed(2),
        documentCount: r.n ?? 0,
      });
      classifiers.set(box, list);
    } else if (r.part === "d") {
      const box = r.box!;
      const list = documents.get(box) ?? [];
      list.push({
        documentType: declaredType(r.side!, String(r.extra!.type), String(r.extra!.status)),
        id: r.id!,
        number: r.doc_no!,
        date: r.decl_date!,
        partnerCode: r.partner_code!,
        classifier: r.classifier!,
        ratePercent: percent(r.rate_pct!),
        amountKind: r.amount!,
        amount: new Decimal(r.total!).toFixed(2),
      });
      documents.set(box, list);
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

  const num = (v: string | null | undefined) => new Decimal(v ?? 0);
  const sums = new Map(rows.filter((r) => r.part === "a").map((r) => [r.classifier!, r.extra!]));
  const totals = codes.map((code) => ({ declared: num(sums.get(code)?.declared), ledger: num(sums.get(code)?.ledger) }));
  const same = codes.every((code) => {
    const a = sums.get(code)!;
    return num(a.differing).isZero() && num(a.posted).equals(num(a.ledger));
  });
  const types = await accountTypes(db, declarant.id, codes);
  const detail = same ? { differences: [], total: 0 } : await reconcileInDetail(db, q, codes);
  return { boxes, reconciliation: reconciliationOf(totals, detail, codes, roles, types, accounts) };
}

interface DetailRow {
  k: number;
  tx: string | null;
  side: "sale" | "purchase" | null;
  id: string | null;
  type: string | null;
  status: string | null;
  no: string | null;
  sign: number | null;
  source: string | null;
  sourceId: string | null;
  declared: string;
  ledger: string;
  total: number;
}

/**
 * The exact reconciliation, run when the month does not balance: what each document declares on each account (stored
 * with it) against what its journal transaction posted there in the month (every posting of the month on the
 * accounts, a manual one too), the first MAX_DIFFERENCES differences by account and transaction, and how many there
 * are.
 */
async function reconcileInDetail(db: Db, q: DocumentQuery, codes: string[]): Promise<{ differences: DetailRow[]; total: number }> {
  const sql = documentHeadersSql(
    q,
    `, codes as (select code, k::int as k from unnest($9::text[]) with ordinality c(code, k)),
      counted as materialized (select * from docs where sign <> 0),
      declared as (
        select a.journal_transaction_id as tx, c.k, sum(a.declared) as amount
          from counted d join vat_declared_accounts a on a.company_id = $1 and a.document_id = d.id
          join codes c on c.code = a.account_code
         group by 1, 2
      ),
      annulments as (select annulment_tx, journal_transaction_id as tx from docs where annulment_tx is not null),
      ledger as (
        select coalesce(a.tx, e.transaction_id) as tx, c.k, sum(e.debit - e.credit) as amount
          from journal_entries e left join annulments a on a.annulment_tx = e.transaction_id
          join codes c on c.code = e.account_code
         where e.company_id = $1 and e.account_code = any($9::text[]) and e.date between $2::date and $3::date
         group by 1, 2
      ),
      compared as (
        select coalesce(d.tx, l.tx) as tx, coalesce(d.k, l.k) as k, coalesce(d.amount, 0) as declared, coalesce(l.amount, 0) as ledger
          from declared d full join ledger l on l.tx = d.tx and l.k = d.k
         where coalesce(d.amount, 0) <> coalesce(l.amount, 0)
      )
      select c.k, c.tx, d.side, d.id, d.type, d.status, coalesce(d.doc_no, t.reference) as no, d.sign, t.source_type as source, t.source_id as "sourceId",
             c.declared::text as declared, c.ledger::text as ledger, (count(*) over ())::int as total
        from compared c
        left join counted d on d.journal_transaction_id = c.tx
        left join journal_transactions t on t.company_id = $1 and t.id = c.tx
       order by c.k, c.tx
       limit ${MAX_DIFFERENCES}`,
  );
  const rows = await plainQuery<DetailRow>(db, sql.text, [...sql.values, codes]);
  return { differences: rows, total: rows[0]?.total ?? 0 };
}

const percent = (v: string) => new Decimal(v).toFixed(2).replace(/\.?0+$/, "") || "0";

async function accountTypes(db: Db, companyId: string, codes: string[]): Promise<Map<string, string>> {
  const rows = await plainQuery<{ code: string; type: string }>(db, "select code, type from ledger_accounts where company_id = $1 and code = any($2::text[])", [
    companyId,
    codes,
  ]);
  return new Map(rows.map((r) => [r.code, r.type]));
}

/**
 * The reconciliation: what the documents declare on each VAT account against the journal of the month, and the
 * differences per document (journal transaction). Amounts are debit − credit inside, shown in the account's natural
 * sign (credit positive for liability, equity and income accounts).
 */
function reconciliationOf(
  totals: { declared: Decimal; ledger: Decimal }[],
  detail: { differences: DetailRow[]; total: number },
  codes: string[],
  roles: ReturnType<typeof reconciliationRoles>,
  types: Map<string, string>,
  a: VatAccounts,
): Reconciliation {
  const natural = (code: string) => {
    const type = types.get(code) ?? (code === a.vatPayable || code === a.reverseChargeVatOutput ? "liability" : "asset");
    return type === "liability" || type === "equity" || type === "income" ? -1 : 1;
  };
  const accounts: Reconciliation["accounts"] = codes.map((code, k) => {
    const s = natural(code);
    const declared = totals[k].declared.times(s);
    const ledger = totals[k].ledger.times(s);
    return {
      accountCode: code,
      postingRules: roles.filter((r) => r.account === code).map((r) => r.rule),
      declared: declared.toFixed(2),
      ledger: ledger.toFixed(2),
      difference: ledger.minus(declared).toFixed(2),
    };
  });
  const documentSources = new Set(DOCUMENT_TYPES.map((t) => t.documentType));
  const differences: Reconciliation["differences"] = detail.differences.map((d) => {
    const code = codes[d.k - 1];
    const s = natural(code);
    const dd = new Decimal(d.declared).times(s);
    const ll = new Decimal(d.ledger).times(s);
    const documentType = d.side
      ? declaredType(d.side, d.type ?? "", d.status ?? "")
      : d.source && documentSources.has(d.source as DeclaredType)
        ? (d.source as DeclaredType)
        : null;
    return {
      accountCode: code,
      journalTransactionId: d.tx,
      documentType,
      documentId: d.id ?? (documentType ? d.sourceId : null),
      documentNumber: d.no,
      declared: dd.toFixed(2),
      ledger: ll.toFixed(2),
      difference: ll.minus(dd).toFixed(2),
    };
  });
  return { balanced: detail.total === 0, accounts, differences, differencesTruncated: detail.total > differences.length };
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
