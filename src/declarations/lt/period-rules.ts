// Which month's declarations a document belongs to, one row per rule with its source (issue 24;
// shared/domain/lt-vat-periods.md). The SQL the declarations read documents with (./documents.ts) applies exactly
// these rules; a rule that changes changes here.
import { SOURCES } from "./sources.js";

export interface PeriodRule {
  id: string;
  rule: string;
  source: string;
  confidence: "high" | "medium" | "low";
}

export const PERIOD_RULES: readonly PeriodRule[] = [
  {
    id: "sales.issue_date",
    rule: "A sales invoice is declared in the month of its issue date (i.SAF InvoiceDate; FR0600 of that month).",
    source: `${SOURCES.ISAF_XSD}: SalesInvoice/InvoiceDate "must fall within the tax period of the file"; PVM įstatymas Art. 14`,
    confidence: "high",
  },
  {
    id: "purchases.declaration_date",
    rule:
      "A purchase document is declared in the month of its accounting date (purchase_invoices.accounting_date: the document date " +
      "unless it was accounted for later; i.SAF RegistrationAccountDate; FR0600 of that month; purchaseDeclarationDate in ./documents.ts).",
    source: `${SOURCES.ISAF_XSD}: PurchaseInvoice/RegistrationAccountDate "must fall within the tax period of the file if InvoiceDate does not"`,
    confidence: "high",
  },
  {
    id: "notes.own_period",
    rule:
      "A credit (or debit) note is declared in the month of its own date, never as a correction of its invoice's month, " +
      "with the classifier, rate and box of the invoice it corrects and negative amounts (credit) (i.SAF KS with References).",
    source: `${SOURCES.KD7543}; VMI KD-6198; ${SOURCES.ISAF_XSD} (InvoiceType KS, References)`,
    confidence: "high",
  },
  {
    id: "sales.rate_change_2026",
    rule:
      "A sale is taxed at the rate of its supply date and declared in the month of its invoice date (the sales module's rule for the " +
      "2026 rate change): a December 2025 supply invoiced on 5 January 2026 is January's at 9% (box 30), VATPointDate the supply date.",
    source: "README, Sales VAT rules for the declarations (PVM įstatymas Art. 14; XV-287 Art. 2 not read)",
    confidence: "medium",
  },
  {
    id: "isaf.first_period",
    rule: "i.SAF is generated for months from 2016-09 on: the XSD refuses a SelectionEndDate before 2016-09-01.",
    source: `${SOURCES.ISAF_XSD}: ISAFDateType1 minInclusive 2016-09-01`,
    confidence: "high",
  },
  {
    id: "migrated.excluded",
    rule: "Documents brought by a books import (migration) are not declared: they were declared by the system they came from.",
    source: "The product's migration rules (openReceivables/openPayables carry totals only, before the cut-over date)",
    confidence: "high",
  },
  {
    id: "submission.period_ended",
    rule: "A declaration is filed (declarations/submissions/create) only for a month that has ended in Vilnius.",
    source: `${SOURCES.MXFD}: VMI's form script warns on a period not yet finished and refuses one not yet started`,
    confidence: "medium",
  },
];

/** The first and last day of a month `YYYY-MM`. */
export function monthRange(period: string): { from: string; to: string } {
  const [y, m] = period.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${period}-01`, to: `${period}-${String(last).padStart(2, "0")}` };
}

export const ISAF_FIRST_PERIOD = "2016-09";
