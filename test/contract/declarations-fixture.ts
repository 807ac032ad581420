// The fixture month of the declaration suites (issue 24): a Lithuanian VAT payer whose October 2026 holds one
// document of each kind the product supports today, and whose September 2026 holds what October credits and debits. Every
// amount below is the documents' own; the suites write the expected boxes by hand from them.
//
// September 2026
//   S0   sale to PIRK 2026-09-15, PVM1 21%: 1000.00 + VAT 210.00
//   PS0  purchase from TIEK 2026-09-16, standard, PVM1 21%: 300.00 + VAT 63.00, deductible
// October 2026
//   S1   sale to PIRK 2026-10-05: PVM1 21% 2 × 500.00 (VAT 210.00), PVM58 12% 200.00 (VAT 24.00), PVM3 5% 100.00 (VAT 5.00)
//   S2   sale to PIRK 2026-10-06, supplied 2025-12-20, PVM2 9%: 300.00 (VAT 27.00)
//   S3   sale to PRIV (private person) 2026-10-07, PVM5 exempt: 150.00
//   S4   sale to USBUY 2026-10-08, PVM12 export: 400.00
//   S5   sale to DEBUY 2026-10-09, PVM13 intra-EU goods: 800.00
//   S6   sale to ATBUY 2026-10-10, PVM15 services to an EU VAT payer: 250.00
//   S7   sale to USBUY 2026-10-11, PVM15 services outside the EU: 120.00
//   S8   sale to PIRK 2026-10-12, PVM14 other 0%: 60.00
//   KS1  credit note of S0, 2026-10-13, PVM1 21%: 100.00 (VAT 21.00)
//   S9   sale to PIRK 2026-10-14 in USD at 1.0837, PVM1 21%: 333.33 USD (VAT 70.00 USD)
//        posted: 403.33 / 1.0837 = 372.18 EUR; revenue 333.33 / 1.0837 = 307.5851… and VAT 70.00 / 1.0837 = 64.5935…,
//        floored 307.58 + 64.59 = 372.17, the last cent to the larger remainder (revenue): 307.59 and VAT 64.59
//   P1   purchase from TIEK 2026-10-15, standard, PVM1 21%: 500.00 deductible + 100.00 not (VAT 126.00: 105.00 + 21.00)
//   P2   purchase from DETIEK 2026-10-16, reverse charge, PVM16 goods: 1000.00 (VAT 210.00)
//   P3   purchase from DETIEK 2026-10-17, reverse charge, PVM21 services: 400.00 (VAT 84.00)
//   P4   purchase from USTIEK 2026-10-18, reverse charge, PVM20 services: 300.00 (VAT 63.00)
//   P5   purchase from TIEK 2026-10-19, reverse charge, PVM25 domestic: 200.00 (VAT 42.00)
//   PK1  purchase credit note of PS0, 2026-10-20, PVM1 21%: 50.00 (VAT 10.50), deductible
//   S10  sale to PIRK 2026-10-21, PVM25 domestic reverse charge (Art. 96) at 0%: 500.00
//   S11  sale to DEBUY 2026-10-22, PVM13 intra-EU goods, triangular: 700.00
//   DS1  debit note of S0, 2026-10-23, PVM1 21%: 200.00 (VAT 42.00)
//   S12  sale to PIRK 2026-10-24, PVM1 21%: 1000.00 (VAT 210.00), annulled (its posting reversed on 2026-10-24)
//   P6   import from USTIEK 2026-10-25, PVM14 0%: 1000.00; customs declaration 26LTVR0000000000001 of 2026-10-24,
//        VAT paid to customs 210.00 (customs value 1000.00)
//   PD1  purchase debit note of PS0, 2026-10-26, PVM1 21%: 100.00 (VAT 21.00), deductible
import type { Harness } from "../support/harness.js";
import { type World, world } from "../support/world.js";

export const COMPANY_VAT_CODE = "LT119511515";

export interface FixtureMonth {
  w: World;
  /** Document ids by the fixture's names (S0, S1, …, PK1, S10, S11, DS1, S12, P6, PD1). */
  ids: Record<string, string>;
  /** Sales numbers and purchase document numbers by the fixture's names. */
  numbers: Record<string, string>;
}

const partners = [
  { code: "PIRK", name: "Pirkėjas UAB", vatCode: "LT212154314", registrationCode: "121215434", countryCode: "LT" },
  { code: "DEBUY", name: "Käufer GmbH", vatCode: "DE136695976", countryCode: "DE" },
  { code: "ATBUY", name: "Kunde & Söhne GmbH", vatCode: "ATU13585627", countryCode: "AT" },
  { code: "USBUY", name: "Buyer <Inc.>", countryCode: "US" },
  { code: "PRIV", name: "Jonas Jonaitis", countryCode: "LT", isPrivatePerson: true },
  { code: "TIEK", name: "Tiekėjas UAB", vatCode: "LT100001919017", countryCode: "LT", isCustomer: false, isSupplier: true },
  { code: "DETIEK", name: "Lieferant GmbH", vatCode: "DE136695976", countryCode: "DE", isCustomer: false, isSupplier: true },
  { code: "USTIEK", name: "US Services Inc.", countryCode: "US", isCustomer: false, isSupplier: true },
];

type Line = { description: string; quantity: string; unitPriceExclVat: string; vatRatePercent?: string; vatClassifier: string; vatDeductible?: boolean };
const line = (vatClassifier: string, unitPriceExclVat: string, vatRatePercent?: string, quantity = "1"): Line => ({
  description: `Eilutė ${vatClassifier}`,
  quantity,
  unitPriceExclVat,
  vatClassifier,
  ...(vatRatePercent ? { vatRatePercent } : {}),
});

/** A VAT payer with the lt-standard chart and the fixture's partners (no documents). */
export async function vatPayer(h: Harness): Promise<World> {
  return world(h, {
    company: {
      vatCode: COMPANY_VAT_CODE,
      email: "buhalterija@bandymas.lt",
      address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" },
    },
    partners,
  });
}

export async function sale(w: World, body: Record<string, unknown>): Promise<{ id: string; number: string }> {
  const draft = await w.api.sales.invoices.create(body as never);
  const issued = await w.api.sales.invoices.issue({ id: draft.id });
  return { id: issued.id, number: issued.number! };
}

export async function purchase(w: World, body: Record<string, unknown>): Promise<{ id: string; number: string }> {
  const draft = await w.api.purchases.invoices.create(body as never);
  const registered = await w.api.purchases.invoices.register({ id: draft.id });
  return { id: registered.id, number: registered.documentNumber };
}

/** The fixture month, in a new company. */
export async function fixtureMonth(h: Harness): Promise<FixtureMonth> {
  const w = await vatPayer(h);
  const ids: Record<string, string> = {};
  const numbers: Record<string, string> = {};
  const keep = (name: string, doc: { id: string; number: string }) => {
    ids[name] = doc.id;
    numbers[name] = doc.number;
  };
  keep("S0", await sale(w, { partnerCode: "PIRK", issueDate: "2026-09-15", lines: [line("PVM1", "1000", "21")] }));
  keep(
    "PS0",
    await purchase(w, {
      partnerCode: "TIEK",
      documentNumber: "T-0916",
      documentDate: "2026-09-16",
      vatTreatment: "standard",
      lines: [line("PVM1", "300", "21")],
    }),
  );
  keep(
    "S1",
    await sale(w, {
      partnerCode: "PIRK",
      issueDate: "2026-10-05",
      lines: [line("PVM1", "500", "21", "2"), line("PVM58", "200", "12"), line("PVM3", "100", "5")],
    }),
  );
  keep("S2", await sale(w, { partnerCode: "PIRK", issueDate: "2026-10-06", supplyDate: "2025-12-20", lines: [line("PVM2", "300", "9")] }));
  keep("S3", await sale(w, { partnerCode: "PRIV", issueDate: "2026-10-07", lines: [line("PVM5", "150", "0")] }));
  keep("S4", await sale(w, { partnerCode: "USBUY", issueDate: "2026-10-08", lines: [line("PVM12", "400", "0")] }));
  keep("S5", await sale(w, { partnerCode: "DEBUY", issueDate: "2026-10-09", lines: [line("PVM13", "800", "0")] }));
  keep("S6", await sale(w, { partnerCode: "ATBUY", issueDate: "2026-10-10", lines: [line("PVM15", "250", "0")] }));
  keep("S7", await sale(w, { partnerCode: "USBUY", issueDate: "2026-10-11", lines: [line("PVM15", "120", "0")] }));
  keep("S8", await sale(w, { partnerCode: "PIRK", issueDate: "2026-10-12", lines: [line("PVM14", "60", "0")] }));
  keep(
    "KS1",
    await sale(w, { type: "credit_note", creditedInvoiceId: ids.S0, partnerCode: "PIRK", issueDate: "2026-10-13", lines: [line("PVM1", "100", "21")] }),
  );
  await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-10-14", rate: "1.0837" });
  keep("S9", await sale(w, { partnerCode: "PIRK", issueDate: "2026-10-14", currency: "USD", lines: [line("PVM1", "333.33", "21")] }));
  keep(
    "P1",
    await purchase(w, {
      partnerCode: "TIEK",
      documentNumber: "T-1015",
      documentDate: "2026-10-15",
      vatTreatment: "standard",
      lines: [line("PVM1", "500", "21"), { ...line("PVM1", "100", "21"), vatDeductible: false }],
    }),
  );
  keep(
    "P2",
    await purchase(w, {
      partnerCode: "DETIEK",
      documentNumber: "DE-1016",
      documentDate: "2026-10-16",
      vatTreatment: "reverse_charge",
      lines: [line("PVM16", "1000")],
    }),
  );
  keep(
    "P3",
    await purchase(w, {
      partnerCode: "DETIEK",
      documentNumber: "DE-1017",
      documentDate: "2026-10-17",
      vatTreatment: "reverse_charge",
      lines: [line("PVM21", "400")],
    }),
  );
  keep(
    "P4",
    await purchase(w, {
      partnerCode: "USTIEK",
      documentNumber: "US-1018",
      documentDate: "2026-10-18",
      vatTreatment: "reverse_charge",
      lines: [line("PVM20", "300")],
    }),
  );
  keep(
    "P5",
    await purchase(w, {
      partnerCode: "TIEK",
      documentNumber: "T-1019",
      documentDate: "2026-10-19",
      vatTreatment: "reverse_charge",
      lines: [line("PVM25", "200")],
    }),
  );
  keep(
    "PK1",
    await purchase(w, {
      type: "credit_note",
      creditedInvoiceId: ids.PS0,
      partnerCode: "TIEK",
      documentNumber: "TK-1020",
      documentDate: "2026-10-20",
      vatTreatment: "standard",
      lines: [line("PVM1", "50", "21")],
    }),
  );
  keep("S10", await sale(w, { partnerCode: "PIRK", issueDate: "2026-10-21", lines: [line("PVM25", "500", "0")] }));
  keep("S11", await sale(w, { partnerCode: "DEBUY", issueDate: "2026-10-22", triangular: true, lines: [line("PVM13", "700", "0")] }));
  keep(
    "DS1",
    await sale(w, { type: "debit_note", creditedInvoiceId: ids.S0, partnerCode: "PIRK", issueDate: "2026-10-23", lines: [line("PVM1", "200", "21")] }),
  );
  keep("S12", await sale(w, { partnerCode: "PIRK", issueDate: "2026-10-24", lines: [line("PVM1", "1000", "21")] }));
  await w.api.sales.invoices.annul({ id: ids.S12 });
  keep(
    "P6",
    await purchase(w, {
      partnerCode: "USTIEK",
      documentNumber: "US-1025",
      documentDate: "2026-10-25",
      vatTreatment: "import",
      lines: [line("PVM14", "1000", "0")],
      customs: { declarationNumber: "26LTVR0000000000001", declarationDate: "2026-10-24", vatAmount: "210.00", customsValue: "1000.00" },
    }),
  );
  keep(
    "PD1",
    await purchase(w, {
      type: "debit_note",
      creditedInvoiceId: ids.PS0,
      partnerCode: "TIEK",
      documentNumber: "TD-1026",
      documentDate: "2026-10-26",
      vatTreatment: "standard",
      lines: [line("PVM1", "100", "21")],
    }),
  );
  return { w, ids, numbers };
}

/** The `<Invoice>` elements of an i.SAF file, as text. */
export const invoicesOf = (xml: string) => [...xml.matchAll(/<Invoice>([\s\S]*?)<\/Invoice>/g)].map((m) => m[1]);
/** The text of the first `<name>` element in `xml`, or undefined. */
export const elementText = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
/** Every `<DocumentTotal>` of an invoice as [TaxableValue, TaxCode, TaxPercentage (or "nil"), Amount]. */
export const totalsOf = (invoice: string) =>
  [...invoice.matchAll(/<DocumentTotal>([\s\S]*?)<\/DocumentTotal>/g)].map((m) => [
    elementText(m[1], "TaxableValue"),
    elementText(m[1], "TaxCode"),
    /<TaxPercentage xsi:nil="true"\/>/.test(m[1]) ? "nil" : elementText(m[1], "TaxPercentage"),
    elementText(m[1], "Amount"),
  ]);
export const decode = (base64: string) => Buffer.from(base64, "base64").toString("utf8");
