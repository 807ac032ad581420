// FR0564, the report of goods and services supplied to other EU states (issue 24; VMI order VA-130): for a month,
// one line per buyer's VAT code with the value of goods supplied (PVM13), of triangular supplies and of services to
// VAT payers of other EU states (PVM15 to a buyer whose VAT code is of another EU state; PVM15 to anyone else is not
// reported), in whole euros (each line's amounts rounded half away from zero; the totals are the lines' sums).
// Credit notes lower their buyer's line in their own month, debit notes raise it. A PVM13 sale flagged triangular
// (sales' `triangular`; a note takes its invoice's) goes to the triangular column, not to goods.
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { Decimal } from "../../shared/decimal.js";
import { unprocessable } from "../../shared/errors.js";
import type { Declarant } from "../declarant.js";
import { documentTypeOf } from "./document-types.js";
import { type DocumentQuery, documentGroupsSql, type VatAccounts } from "./documents.js";
import { wholeEuros } from "./fr0600.js";
import { monthRange } from "./period-rules.js";

/** EU VAT prefixes of the states other than Lithuania (Greece is EL). */
const OTHER_EU_PREFIXES = new Set("AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LU LV MT NL PL PT RO SE SI SK".split(" "));

/** Which FR0564 column a sale's classifier feeds (its source: the form's columns, VA-130; the classifier's meaning, VA-49). */
export const FR0564_COLUMNS: Readonly<Record<string, "goods" | "services">> = { PVM13: "goods", PVM15: "services" };

export interface Fr0564Line {
  lineNumber: number;
  countryCode: string;
  vatCode: string;
  partnerCodes: string[];
  goods: string;
  triangular: string;
  services: string;
  exact: { goods: string; triangular: string; services: string };
}

export async function computeFr0564(db: Db, declarant: Declarant, period: string, accounts: VatAccounts): Promise<Fr0564Line[]> {
  const { from, to } = monthRange(period);
  const q: DocumentQuery = { companyId: declarant.id, from, to, accounts, side: "sale" };
  const sql = documentGroupsSql(
    q,
    `select id, doc_no, type, status, partner_code, partner_snapshot ->> 'vatCode' as vat_code, classifier, sign, triangular, taxable_eur
       from rows where classifier in (${Object.keys(FR0564_COLUMNS)
         .map((c) => `'${c}'`)
         .join(", ")}) and sign <> 0
      order by decl_date, doc_no, id`,
  );
  const rows = await plainQuery<{
    id: string;
    doc_no: string;
    type: string;
    status: string;
    partner_code: string;
    vat_code: string | null;
    classifier: string;
    sign: number;
    triangular: boolean;
    taxable_eur: string;
  }>(db, sql.text, sql.values);
  const missing = rows.filter((r) => FR0564_COLUMNS[r.classifier] === "goods" && !(r.vat_code && OTHER_EU_PREFIXES.has(r.vat_code.slice(0, 2))));
  if (missing.length) {
    const documents = [...new Map(missing.map((r) => [r.id, r])).values()].slice(0, 100).map((r) => ({
      documentType: documentTypeOf("sale", r.type, r.status)?.documentType ?? "sale_invoice",
      id: r.id,
      number: r.doc_no,
      partnerCode: r.partner_code,
    }));
    throw unprocessable(
      `FR0564 needs the EU VAT code of every buyer of goods supplied to another EU state (PVM13); ${documents
        .slice(0, 5)
        .map((d) => `${d.number} (${d.partnerCode})`)
        .join(", ")} name a buyer without one.`,
      "fr0564.buyer_vat_code_missing",
      { documents },
    );
  }
  const lines = new Map<string, { partners: Set<string>; goods: Decimal; triangular: Decimal; services: Decimal }>();
  for (const r of rows) {
    if (!r.vat_code || !OTHER_EU_PREFIXES.has(r.vat_code.slice(0, 2))) continue; // services to a non-EU or non-VAT buyer
    const line = lines.get(r.vat_code) ?? { partners: new Set<string>(), goods: new Decimal(0), triangular: new Decimal(0), services: new Decimal(0) };
    line.partners.add(r.partner_code);
    const value = new Decimal(r.taxable_eur).times(r.sign);
    if (FR0564_COLUMNS[r.classifier] === "goods" && r.triangular) line.triangular = line.triangular.plus(value);
    else if (FR0564_COLUMNS[r.classifier] === "goods") line.goods = line.goods.plus(value);
    else line.services = line.services.plus(value);
    lines.set(r.vat_code, line);
  }
  const text = (d: Decimal) => (d.isZero() ? "0" : d.toFixed(0));
  return [...lines.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([vatCode, l]) => ({ vatCode, l, goods: wholeEuros(l.goods), triangular: wholeEuros(l.triangular), services: wholeEuros(l.services) }))
    .filter((x) => !x.goods.isZero() || !x.triangular.isZero() || !x.services.isZero())
    .map((x, i) => ({
      lineNumber: i + 1,
      countryCode: x.vatCode.slice(0, 2),
      vatCode: x.vatCode.slice(2),
      partnerCodes: [...x.l.partners].sort(),
      goods: text(x.goods),
      triangular: text(x.triangular),
      services: text(x.services),
      exact: { goods: x.l.goods.toFixed(2), triangular: x.l.triangular.toFixed(2), services: x.l.services.toFixed(2) },
    }));
}
