// FR0600 (declarations/lt/fr0600/compute) and FR0564 (declarations/lt/fr0564/generate) of the fixture month
// (./declarations-fixture.ts, issue 24). The expected boxes and lines are written by hand from the documents'
// amounts, never computed by the code under test; the reconciliation with the ledger lists no difference until a
// posting of no document lands on a VAT account.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { expectApiError } from "../support/expect.js";
import { type Harness, startHarness } from "../support/harness.js";
import { world } from "../support/world.js";
import { validateAgainstXsd } from "../support/xsd.js";
import { decode, elementText, type FixtureMonth, fixtureMonth, invoicesOf, purchase, sale, totalsOf, vatPayer } from "./declarations-fixture.js";

let h: Harness;
let m: FixtureMonth;

beforeAll(async () => {
  h = await startHarness();
  m = await fixtureMonth(h);
});
afterAll(() => h?.close());

/** `[box, amount in whole euros, exact EUR]` of every box, in form order. */
const boxesOf = (r: { boxes: { box: string; amount: string; exact: string }[] }) => r.boxes.map((b) => [b.box, b.amount, b.exact]);
const fieldsOf = (xml: string) => Object.fromEntries([...xml.matchAll(/<Field Name="([^"]+)">([^<]*)<\/Field>/g)].map((x) => [x[1], x[2]]));

describe("declarations/lt/fr0600/compute", () => {
  test("October 2026: every box from the documents, by hand", async () => {
    const r = await m.w.api.declarations.lt.fr0600.compute({ period: "2026-10" });
    expect(boxesOf(r)).toEqual([
      // S1 1000 + 200 + 100, S2 300, S9 307.59 (USD as posted), KS1 −100, DS1 200; S12 annulled: in no box
      ["11", "2008", "2007.59"],
      ["12", "500", "500.00"], // S10, domestic reverse charge at 0%
      ["13", "150", "150.00"], // S3
      ["14", "0", "0.00"],
      ["15", "0", "0.00"],
      ["16", "0", "0.00"],
      ["17", "400", "400.00"], // S4
      ["18", "1500", "1500.00"], // S5 800, S11 700 (triangular)
      ["19", "60", "60.00"], // S8
      ["20", "370", "370.00"], // S6 250 + S7 120
      ["21", "1000", "1000.00"], // P2
      ["22", "0", "0.00"],
      ["23", "700", "700.00"], // P3 400 + P4 300
      ["24", "400", "400.00"], // P3
      // P1 105 (its 21.00 not deductible), P2 210, P3 84, P4 63, P5 42, PK1 −10.50, PD1 21: 514.50 rounds half up
      ["25", "515", "514.50"],
      ["26", "210", "210.00"], // P6, VAT paid to customs
      ["27", "0", "0.00"],
      ["28", "100", "100.00"],
      ["29", "296", "295.59"], // S1 210, S9 64.59, KS1 −21, DS1 42
      ["29A", "24", "24.00"], // S1 12%
      ["30", "27", "27.00"], // S2, a 2025 supply at 9%
      ["31", "5", "5.00"], // S1 5%
      ["32", "147", "147.00"], // P3 84 + P4 63
      ["33", "42", "42.00"], // P5
      ["34", "210", "210.00"], // P2
      ["35", "725", "724.50"], // 25 + 26 + 27: 515 + 210 + 0
      // 27 + 29 + 29A + 30 + 31 + 32 + 33 + 34 − 35, from the rounded boxes: 0 + 296 + 24 + 27 + 5 + 147 + 42 + 210 − 725
      ["36", "26", "26.09"],
    ]);
    const box = (n: string) => r.boxes.find((b) => b.box === n)!;
    expect(box("29A")).toMatchObject({ verified: false, field: null });
    expect(box("29")).toMatchObject({ verified: true, field: "E29" });
    // Drill-down: classifiers and documents.
    expect(box("25").classifiers.map((c) => [c.classifier, c.amountKind, c.amount, c.documentCount])).toEqual([
      ["PVM1", "deductibleVat", "115.50", 3], // P1 105, PK1 −10.50, PD1 21
      ["PVM16", "deductibleVat", "210.00", 1],
      ["PVM20", "deductibleVat", "63.00", 1],
      ["PVM21", "deductibleVat", "84.00", 1],
      ["PVM25", "deductibleVat", "42.00", 1],
    ]);
    expect(box("29").documents.map((d) => [d.documentType, d.number, d.amount])).toEqual([
      ["sale_invoice", m.numbers.S1, "210.00"],
      ["sale_credit_note", m.numbers.KS1, "-21.00"],
      ["sale_invoice", m.numbers.S9, "64.59"],
      ["sale_debit_note", m.numbers.DS1, "42.00"],
    ]);
    expect(box("29").documentCount).toBe(4);
    expect(box("12").documents.map((d) => [d.documentType, d.number, d.amount])).toEqual([["sale_invoice", m.numbers.S10, "500.00"]]);
    expect(box("26").documents.map((d) => [d.documentType, d.number, d.classifier, d.amount])).toEqual([
      ["purchase_invoice", m.numbers.P6, "customs", "210.00"],
    ]);
    expect(box("25").documents.find((d) => d.id === m.ids.PD1)).toMatchObject({ documentType: "purchase_debit_note", amount: "21.00" });
    // The annulled S12 is in no box.
    expect(r.boxes.some((b) => b.documents.some((d) => d.id === m.ids.S12))).toBe(false);
    // 12% output VAT has no field in form version 02: no FFData, and why.
    expect(r.ffdata).toBeNull();
    expect(r.ffdataUnavailableReason).toContain("29A");
  });

  test("the reconciliation lists no difference; a posting of no document on output VAT is listed by its transaction", async () => {
    const r = await m.w.api.declarations.lt.fr0600.compute({ period: "2026-10", documentsPerBox: 0 });
    expect(r.reconciliation).toEqual({
      balanced: true,
      accounts: [
        // S1 239, S2 27, S9 64.59, KS1 −21, DS1 42 and the VAT calculated on P2 210, P3 84, P4 63, P5 42; S12's 210
        // and its reversal's −210 are on the ledger and net to nothing, as S12 declares nothing
        {
          accountCode: "4492",
          postingRules: ["sales.vatPayable", "purchases.reverseChargeVatOutput"],
          declared: "750.59",
          ledger: "750.59",
          difference: "0.00",
        },
        {
          accountCode: "2441",
          postingRules: ["purchases.vatReceivable", "purchases.reverseChargeVatInput"],
          declared: "724.50", // box 25's 514.50 and P6's 210.00 paid to customs
          ledger: "724.50",
          difference: "0.00",
        },
        { accountCode: "63081", postingRules: ["purchases.vatNonDeductible"], declared: "21.00", ledger: "21.00", difference: "0.00" },
      ],
      differences: [],
      differencesTruncated: false,
    });
    expect(r.boxes.every((b) => b.documents.length === 0)).toBe(true);

    const w = await vatPayer(h);
    await sale(w, {
      partnerCode: "PIRK",
      issueDate: "2026-10-05",
      lines: [{ description: "X", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21" }],
    });
    const manual = await w.api.ledger.journal.transactions.create({
      date: "2026-10-20",
      description: "VAT correction by hand",
      entries: [
        { accountCode: "6312", debit: "5.00" },
        { accountCode: "4492", credit: "5.00" },
      ],
    });
    const after = await w.api.declarations.lt.fr0600.compute({ period: "2026-10" });
    expect(after.reconciliation.balanced).toBe(false);
    expect(after.reconciliation.accounts.find((a) => a.accountCode === "4492")).toEqual({
      accountCode: "4492",
      postingRules: ["sales.vatPayable", "purchases.reverseChargeVatOutput"],
      declared: "21.00",
      ledger: "26.00",
      difference: "5.00",
    });
    expect(after.reconciliation.differences).toEqual([
      {
        accountCode: "4492",
        journalTransactionId: manual.id,
        documentType: null,
        documentId: null,
        documentNumber: null,
        declared: "0.00",
        ledger: "5.00",
        difference: "5.00",
      },
    ]);
  });

  test("what each document declares is stored when it posts, recomputed the same, and written by nothing else", async () => {
    const c = m.w.companyId;
    const rowsOf = (name: string) =>
      h
        .db("vat_declared_rows")
        .where({ company_id: c, document_id: m.ids[name] })
        .orderBy("ord")
        .select("side", "type", "annulled", "decl_date", "doc_no", "partner_code", "treatment", "classifier", "rate_pct", "base", "vat", "ded", "nonded");
    const accountsOf = (name: string) =>
      h.db("vat_declared_accounts").where({ company_id: c, document_id: m.ids[name] }).orderBy("account_code").select("account_code", "declared", "posted");
    // S9 in USD: its EUR as posted (the fixture's comment), not its own conversion.
    expect(await rowsOf("S9")).toEqual([
      expect.objectContaining({ side: "sale", classifier: "PVM1", rate_pct: "21.00", base: "307.59", vat: "64.59", ded: null, nonded: null, annulled: false }),
    ]);
    // P1: 105.00 deducted, 21.00 not, shared by net.
    expect(await rowsOf("P1")).toEqual([
      expect.objectContaining({ side: "purchase", treatment: "standard", classifier: "PVM1", base: "600.00", vat: "126.00", ded: "105.00", nonded: "21.00" }),
    ]);
    expect(await accountsOf("P1")).toEqual([
      { account_code: "2441", declared: "105.00", posted: "105.00" },
      { account_code: "63081", declared: "21.00", posted: "21.00" },
    ]);
    // P6: the VAT paid to customs as ord 0, deducted on 2441.
    expect((await rowsOf("P6")).map((r) => [r.classifier, r.vat, r.ded])).toEqual([
      ["customs", "210.00", "210.00"],
      ["PVM14", "0.00", "0.00"],
    ]);
    // KS1 declares −21.00 of output VAT (a debit of 4492); S12, annulled, declares nothing and its reversal nets its
    // posting to nothing.
    expect(await accountsOf("KS1")).toEqual([{ account_code: "4492", declared: "21.00", posted: "21.00" }]);
    expect((await rowsOf("S12")).map((r) => r.annulled)).toEqual([true]);
    expect(await accountsOf("S12")).toEqual([{ account_code: "4492", declared: "0.00", posted: "0.00" }]);

    // The store recomputes every document the same (the migration stores an existing database's documents with it).
    const all = async () => ({
      rows: await h.db("vat_declared_rows").where({ company_id: c }).orderBy(["document_id", "ord"]),
      accounts: await h.db("vat_declared_accounts").where({ company_id: c }).orderBy(["document_id", "account_code"]),
      // The month's sums, the stripes added up.
      sums: (
        await h.db.raw(
          `select month::text, side, classifier, rate_pct::text, sum(documents)::int as documents, sum(base)::numeric(17,2)::text as base, sum(vat)::numeric(17,2)::text as vat, sum(ded)::numeric(17,2)::text as ded
             from vat_declared_sums where company_id = ? group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
          [c],
        )
      ).rows,
      accountSums: (
        await h.db.raw(
          `select month::text, account_code, sum(declared)::numeric(17,2)::text as declared, sum(posted)::numeric(17,2)::text as posted, sum(differing)::int as differing
             from vat_declared_account_sums where company_id = ? group by 1, 2 order by 1, 2`,
          [c],
        )
      ).rows,
    });
    const before = await all();
    expect(before.rows.length).toBeGreaterThan(20);
    // October's PVM1 21% sales, by hand: S1 1000.00 (VAT 210.00), S9 307.59 (64.59), KS1 −100.00 (−21.00), DS1
    // 200.00 (42.00); S12, annulled, counts nothing.
    expect(before.sums).toContainEqual({
      month: "2026-10-01",
      side: "sale",
      classifier: "PVM1",
      rate_pct: "21.00",
      documents: 4,
      base: "1407.59",
      vat: "295.59",
      ded: "0.00",
    });
    expect(before.accountSums).toContainEqual({ month: "2026-10-01", account_code: "63081", declared: "21.00", posted: "21.00", differing: 0 });
    await h.db.raw(
      `select vat_declared_store(?::uuid, array(select id from sale_invoices where company_id = ?::uuid), array(select id from purchase_invoices where company_id = ?::uuid))`,
      [c, c, c],
    );
    expect(await all()).toEqual(before);

    // Nobody else writes them.
    for (const attempt of [
      () => h.db("vat_declared_rows").where({ company_id: c, document_id: m.ids.S1 }).update({ vat: "0.00" }),
      () => h.db("vat_declared_rows").where({ company_id: c, document_id: m.ids.S1 }).delete(),
      () => h.db("vat_declared_accounts").where({ company_id: c }).update({ declared: "0.00" }),
      () => h.db("vat_declared_accounts").insert({ ...before.accounts[0], account_code: "2410" }),
      () => h.db("vat_declared_sums").where({ company_id: c }).update({ vat: "0" }),
      () => h.db("vat_declared_account_sums").where({ company_id: c }).delete(),
      () => h.db.raw("truncate vat_declared_rows"),
    ]) {
      await expect(attempt()).rejects.toThrow(/kept by the documents' triggers only|cannot be changed or deleted/);
    }
    expect(await all()).toEqual(before);
  });

  test("a document whose posting differs from what it declares breaks the month's balance and is listed", async () => {
    const w = await vatPayer(h);
    const s = await sale(w, {
      partnerCode: "PIRK",
      issueDate: "2026-10-05",
      lines: [{ description: "X", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21" }],
    });
    const balanced = await w.api.declarations.lt.fr0600.compute({ period: "2026-10" });
    expect(balanced.reconciliation.balanced).toBe(true);
    // A stored pair made to differ (as a store of an earlier version, or a posting changed by hand, would leave it).
    await h.db.transaction(async (trx) => {
      await trx.raw("select set_config('vat.declared_writer', 'store', true)");
      await trx("vat_declared_accounts").where({ company_id: w.companyId, document_id: s.id, account_code: "4492" }).update({ declared: "-20.00" });
      await trx.raw(
        `insert into vat_declared_account_sums as t (company_id, month, account_code, stripe, declared, posted, differing)
         values (?, '2026-10-01', '4492', 15, 1.00, 0, 1)
         on conflict (company_id, month, account_code, stripe) do update set declared = t.declared + 1.00, differing = t.differing + 1`,
        [w.companyId],
      );
    });
    const r = await w.api.declarations.lt.fr0600.compute({ period: "2026-10" });
    expect(r.reconciliation.balanced).toBe(false);
    expect(r.reconciliation.accounts.find((a) => a.accountCode === "4492")).toEqual(
      expect.objectContaining({ declared: "20.00", ledger: "21.00", difference: "1.00" }),
    );
    expect(r.reconciliation.differences).toEqual([
      expect.objectContaining({ accountCode: "4492", documentType: "sale_invoice", documentId: s.id, declared: "20.00", ledger: "21.00", difference: "1.00" }),
    ]);
  });

  test("the 2026 rate change: a December 2025 supply invoiced on 5 January keeps 9% and is declared in January; a December purchase accounted for in January is January's", async () => {
    const w = await vatPayer(h);
    // Sales VAT rules (README): the rate by the supply date, the month by the invoice date (issued by the 10th).
    const s = await sale(w, {
      partnerCode: "PIRK",
      issueDate: "2026-01-05",
      supplyDate: "2025-12-20",
      lines: [{ description: "Gruodžio paslauga", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "9", vatClassifier: "PVM2" }],
    });
    const p = await purchase(w, {
      partnerCode: "TIEK",
      documentNumber: "T-1230",
      documentDate: "2025-12-30",
      accountingDate: "2026-01-05",
      vatTreatment: "standard",
      lines: [{ description: "Gruodžio prekės", quantity: "1", unitPriceExclVat: "200", vatRatePercent: "21", vatClassifier: "PVM1" }],
    });
    const amounts = (r: { boxes: { box: string; exact: string }[] }, boxes: string[]) => boxes.map((b) => [b, r.boxes.find((x) => x.box === b)!.exact]);
    // January: the sale's 100.00 in 11 and its VAT 9.00 in 30 (not 29); the purchase's VAT 42.00 deducted in 25.
    const january = await w.api.declarations.lt.fr0600.compute({ period: "2026-01" });
    expect(amounts(january, ["11", "25", "29", "29A", "30", "36"])).toEqual([
      ["11", "100.00"],
      ["25", "42.00"],
      ["29", "0.00"],
      ["29A", "0.00"],
      ["30", "9.00"],
      ["36", "-33.00"], // 9 − 42
    ]);
    expect(january.reconciliation.balanced).toBe(true);
    // December declares neither.
    const december = await w.api.declarations.lt.fr0600.compute({ period: "2025-12" });
    expect(amounts(december, ["11", "25", "30", "36"])).toEqual([
      ["11", "0.00"],
      ["25", "0.00"],
      ["30", "0.00"],
      ["36", "0.00"],
    ]);
    // i.SAF of January: the sale with its supply date as VATPointDate at 9%, the purchase registered on its accounting date.
    const xml = decode((await w.api.declarations.lt.isaf.generate({ period: "2026-01", dataType: "F" })).contentBase64);
    expect((await validateAgainstXsd(xml, "lt/isaf_1_2.xsd")).errors).toEqual([]);
    const invoices = new Map(invoicesOf(xml).map((inv) => [elementText(inv, "InvoiceNo")!, inv]));
    expect(elementText(invoices.get(s.number)!, "VATPointDate")).toBe("2025-12-20");
    expect(totalsOf(invoices.get(s.number)!)).toEqual([["100.00", "PVM2", "9.00", "9.00"]]);
    expect(elementText(invoices.get(p.number)!, "InvoiceDate")).toBe("2025-12-30");
    expect(elementText(invoices.get(p.number)!, "RegistrationAccountDate")).toBe("2026-01-05");
    expect(invoicesOf(decode((await w.api.declarations.lt.isaf.generate({ period: "2025-12", dataType: "F" })).contentBase64))).toEqual([]);
  });

  test("a month without 12%: FFData of form version 02, box 8 primary", async () => {
    const r = await m.w.api.declarations.lt.fr0600.compute({ period: "2026-09" });
    expect(r.ffdataUnavailableReason).toBeNull();
    const xml = decode(r.ffdata!.contentBase64);
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<FFData Version="1" CreatedByApp="[^"]+" CreatedByLogin="[^"]+" CreatedOn="\d{4}-\d{2}-\d{2}">/,
    );
    expect(xml).toContain('<Form FormDefId="{DFDCC8EC-FFAB-4AA2-92E3-E20980272B19}">');
    expect(xml).toContain('<Fields Count="40">');
    const fields = fieldsOf(xml);
    expect(Object.keys(fields)).toHaveLength(40);
    // S0 1000.00 + VAT 210.00; PS0 VAT 63.00 deducted: 36 = 210 − 63.
    expect(fields).toMatchObject({
      B_MM_PVM: "119511515",
      LT: "",
      B_ML_DataNuo: "2026-09-01",
      B_ML_DataIki: "2026-09-30",
      E8: "1",
      E9: "1",
      E11: "1000",
      E25: "63",
      E28: "100",
      E29: "210",
      E35: "63",
      E36: "147",
      E12: "0",
    });
    expect(fields.B_MM_Pavad).toBe("BANDYMAS UAB");
  });

  test("a classifier that maps to no box: 422 naming the documents", async () => {
    // A classifier added to the reference data without a row in the mapping table. Its own database (each process
    // reads a database's classifiers once), with the classifier there before the first document.
    const u = await startHarness();
    try {
      await u.db("vat_classifiers").insert({
        country_code: "LT",
        code: "PVM99",
        kind: "zero",
        rate: "0",
        valid_from: "2025-01-01",
        name: "Bandymas / Test",
        description: "A classifier without an FR0600 box",
        source: "test",
        default_for_rate: false,
        replaced_by: [],
      });
      const w = await vatPayer(u);
      await sale(w, {
        partnerCode: "PIRK",
        issueDate: "2026-10-05",
        lines: [{ description: "X", quantity: "1", unitPriceExclVat: "10", vatRatePercent: "21" }],
      });
      const unmapped = await sale(w, {
        partnerCode: "PIRK",
        issueDate: "2026-10-06",
        lines: [{ description: "X", quantity: "1", unitPriceExclVat: "10", vatRatePercent: "0", vatClassifier: "PVM99" }],
      });
      const error = await expectApiError(w.api.declarations.lt.fr0600.compute({ period: "2026-10" }), 422, "unprocessable", "fr0600.classifier_unmapped");
      expect(error.params).toEqual({ documents: [{ documentType: "sale_invoice", id: unmapped.id, number: unmapped.number, classifier: "PVM99" }] });
      expect(error.message).toContain(unmapped.number);
      // The month before is not refused.
      await w.api.declarations.lt.fr0600.compute({ period: "2026-09" });
    } finally {
      await u.close();
    }
  });

  test("a company without a VAT code, a company of another country", async () => {
    const noVat = await world(h);
    await expectApiError(noVat.api.declarations.lt.fr0600.compute({ period: "2026-10" }), 422, "unprocessable", "declaration.vat_code_missing");
    await expectApiError(noVat.api.declarations.lt.fr0564.generate({ period: "2026-10" }), 422, "unprocessable", "declaration.vat_code_missing");
    const lv = await world(h, { company: { countryCode: "LV", name: "Latvija SIA" }, chart: false });
    await expectApiError(lv.api.declarations.lt.fr0600.compute({ period: "2026-10" }), 422, "unprocessable", "jurisdiction.mismatch");
  });
});

describe("declarations/lt/fr0564/generate", () => {
  test("October 2026: one line per EU buyer's VAT code, goods and services, by hand", async () => {
    const r = await m.w.api.declarations.lt.fr0564.generate({ period: "2026-10" });
    // S6 services to ATBUY 250.00; S5 goods to DEBUY 800.00 and S11 triangular 700.00; S7 (services outside the EU)
    // and the rest are not here.
    expect(r.lines).toEqual([
      {
        lineNumber: 1,
        countryCode: "AT",
        vatCode: "U13585627",
        partnerCodes: ["ATBUY"],
        goods: "0",
        triangular: "0",
        services: "250",
        exact: { goods: "0.00", triangular: "0.00", services: "250.00" },
      },
      {
        lineNumber: 2,
        countryCode: "DE",
        vatCode: "136695976",
        partnerCodes: ["DEBUY"],
        goods: "800",
        triangular: "700",
        services: "0",
        exact: { goods: "800.00", triangular: "700.00", services: "0.00" },
      },
    ]);
    expect(r.totals).toEqual({ goods: "800", triangular: "700", services: "250" });
    expect(r.pages).toBe(1);
    const xml = decode(r.ffdata.contentBase64);
    expect(xml).toContain('<Form FormDefId="{69D689D5-B191-4B58-A03C-ED0A85F76C3E}">');
    expect(xml).toContain('<Page PageDefName="FR0564" PageNumber="1"><Fields Count="68">');
    const fields = fieldsOf(xml);
    expect(fields).toMatchObject({
      B_MM_PVM: "119511515",
      B_ML_Metai: "2026",
      B_ML_Menuo: "10",
      "E10-1": "1",
      "E11-1": "AT",
      "E12-1": "U13585627",
      "E18-1": "250",
      "E11-2": "DE",
      "E13-2": "800",
      "E14-2": "700",
      E15: "800",
      E16: "800",
      E17: "0",
      "E10-3": "",
    });
  });

  test("a credit note lowers its buyer's line in its own month; eleven buyers need a second page", async () => {
    const w = await vatPayer(h);
    const invoice = await sale(w, {
      partnerCode: "DEBUY",
      issueDate: "2026-09-10",
      lines: [{ description: "G", quantity: "1", unitPriceExclVat: "1000.40", vatRatePercent: "0", vatClassifier: "PVM13" }],
    });
    await sale(w, {
      type: "credit_note",
      creditedInvoiceId: invoice.id,
      partnerCode: "DEBUY",
      issueDate: "2026-10-02",
      lines: [{ description: "G", quantity: "1", unitPriceExclVat: "200.50", vatRatePercent: "0", vatClassifier: "PVM13" }],
    });
    const sep = await w.api.declarations.lt.fr0564.generate({ period: "2026-09" });
    expect(sep.lines.map((l) => [l.vatCode, l.goods, l.exact.goods])).toEqual([["136695976", "1000", "1000.40"]]);
    const oct = await w.api.declarations.lt.fr0564.generate({ period: "2026-10" });
    // −200.50 rounds half away from zero to −201.
    expect(oct.lines.map((l) => [l.vatCode, l.goods, l.exact.goods])).toEqual([["136695976", "-201", "-200.50"]]);

    // Ten more buyers (10, 20, …, 100 EUR of goods): eleven lines, nine on the first page, two on an FR0564P page.
    for (let i = 1; i <= 10; i++) {
      await w.api.partners.create({ code: `EU${i}`, name: `EU pirkėjas ${i}`, vatCode: `DE2000000${String(i).padStart(2, "0")}`, countryCode: "DE" });
      await sale(w, {
        partnerCode: `EU${i}`,
        issueDate: "2026-10-03",
        lines: [{ description: "G", quantity: "1", unitPriceExclVat: `${i}0`, vatRatePercent: "0", vatClassifier: "PVM13" }],
      });
    }
    const many = await w.api.declarations.lt.fr0564.generate({ period: "2026-10" });
    expect(many.lines.map((l) => [l.lineNumber, l.vatCode, l.goods])).toEqual([
      [1, "136695976", "-201"],
      ...Array.from({ length: 10 }, (_, i) => [i + 2, `2000000${String(i + 1).padStart(2, "0")}`, `${i + 1}0`]),
    ]);
    expect(many.totals.goods).toBe(String(-201 + 550));
    expect(many.pages).toBe(2);
    const xml = decode(many.ffdata.contentBase64);
    expect(xml).toContain('<ListPage>FR0564</ListPage></ListPages><Group Name="Priedas_FR0564P"><ListPages><ListPage>FR0564P</ListPage>');
    const [first, second] = xml.split('<Page PageDefName="FR0564P"');
    expect(first).toContain('<Fields Count="68">');
    expect(second).toMatch(/^ PageNumber="2"><Fields Count="106">/);
    // Page 1: lines 1–9 (−201 + 10 + … + 80 = 159); page 2: lines 10 and 11 (90 + 100 = 190) in its slots 1 and 2.
    expect(fieldsOf(first)).toMatchObject({ E15: "159", E16: "349", E17: "1", "E10-9": "9" });
    expect(fieldsOf(second)).toMatchObject({ E15: "190", LapoNr: "1", "E10-1": "10", "E13-1": "90", "E10-2": "11", "E13-2": "100", "E10-3": "" });
  });

  // Since issue 24's sales rules (src/sales/vat-rules.ts) the sale itself is refused, so FR0564's own refusal
  // (fr0564.buyer_vat_code_missing) guards documents written past the API only; the sale's refusal is tested here.
  test("a PVM13 sale to a buyer without an EU VAT code is refused at the sale: FR0564 never sees one", async () => {
    const w = await vatPayer(h);
    await expectApiError(
      w.api.sales.invoices.create({
        partnerCode: "USBUY",
        issueDate: "2026-10-05",
        lines: [{ description: "G", quantity: "1", unitPriceExclVat: "10", vatRatePercent: "0", vatClassifier: "PVM13" }],
      }),
      422,
      "unprocessable",
      "sale_invoice.classifier_buyer_mismatch",
    );
    expect((await w.api.declarations.lt.fr0564.generate({ period: "2026-10" })).lines).toEqual([]);
  });
});
