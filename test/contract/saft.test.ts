// declarations/lt/saft (issue 27): a SAF-T LT 2.01 general ledger file (GL) written by the real worker in parts, each
// validated against the tax authority's XSD (test/fixtures/schemas/lt/SAFT_2_01.xsd, libxml2), and its figures —
// read back from the XML — compared with the product's own reports: every account's opening and closing balance
// with the trial balance of the range, every customer's and supplier's with the partner's lines, the entries'
// debits and credits with the journal's. A file written again (a worker that died mid-file) has the same bytes.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { XMLParser } from "fast-xml-parser";
import { createLogger } from "../../src/log.js";
import { pruneSaftFiles, runSaftJob } from "../../src/declarations/index.js";
import { vilniusDateTime } from "../../src/declarations/lt/saft.js";
import { startWorker, type Worker } from "../../src/worker.js";
import { bankTransaction, bankWorld, ibanOf, issuedSale, registeredPurchase } from "../support/bank.js";
import { expectApiError } from "../support/expect.js";
import { settledSaft } from "../support/saft.js";
import { startHarness, type Harness } from "../support/harness.js";
import { world, type World } from "../support/world.js";
import { validateAgainstXsd } from "../support/xsd.js";
import { ITEMS, WAREHOUSES } from "../support/inventory.js";
import { decode, elementText, type FixtureMonth, fixtureMonth, invoicesOf, purchase, sale, totalsOf } from "./declarations-fixture.js";

let h: Harness;
let worker: Worker;
const PART_SIZE = 3;
beforeAll(async () => {
  h = await startHarness({ config: { saftPartSize: PART_SIZE } });
  worker = await startWorker(h.connectionString, 2, createLogger("silent"), { db: h.db, config: h.config });
});
afterAll(async () => {
  await worker?.stop();
  await h.close();
});

const COMPANY = {
  address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" },
  phone: "+370 600 00000",
  contactPerson: { firstName: "Ona", lastName: "Onaitė", email: "ona@bandymas.lt" },
  vatCode: "LT100001919017",
  iban: "LT121000011101001000",
};
const address = (city: string) => ({ line1: "Laisvės al. 5", city, postalCode: "LT-44240", countryCode: "LT" });

/** A company ready for SAF-T with a customer PIRK, a supplier TIEK and a journal series. */
async function saftWorld(): Promise<World> {
  return world(h, {
    company: COMPANY,
    partners: [
      { code: "PIRK", name: "Pirkėjas UAB", registrationCode: "302222222", vatCode: "LT100004801610", address: address("Kaunas") },
      { code: "TIEK", name: "Tiekėjas & Co <UAB>", isSupplier: true, address: address("Klaipėda") },
    ],
    series: [{ documentType: "journal", prefix: "BZ", year: 2026 }],
  });
}

const line = (accountCode: string, side: "debit" | "credit", amount: string, partnerCode?: string) => ({
  accountCode,
  [side]: amount,
  ...(partnerCode ? { partnerCode } : {}),
});

/** Postings before, inside and after March 2026: opening balances, sales and purchases with partners, one in USD. */
async function postBooks(w: World): Promise<void> {
  const post = (date: string, entries: ReturnType<typeof line>[], description?: string) =>
    w.api.ledger.journal.transactions.create({ date, entries, ...(description ? { description } : {}) });
  await post("2026-02-10", [line("2710", "debit", "5000.00"), line("3010", "credit", "5000.00")], "Įnašas");
  await post("2026-02-20", [line("2410", "debit", "121.00", "PIRK"), line("5000", "credit", "100.00"), line("4492", "credit", "21.00")]);
  await post(
    "2026-03-01",
    [line("2410", "debit", "242.00", "PIRK"), line("5000", "credit", "200.00", "PIRK"), line("4492", "credit", "42.00")],
    "Pardavimas „A“ & <B>",
  );
  await post("2026-03-05", [line("2710", "debit", "121.00"), line("2410", "credit", "121.00", "PIRK")]);
  await post("2026-03-10", [line("6300", "debit", "80.00"), line("2441", "debit", "16.80"), line("4430", "credit", "96.80", "TIEK")]);
  await post("2026-03-15", [line("4430", "debit", "50.00", "TIEK"), line("2710", "credit", "50.00")]);
  await w.api.ledger.journal.transactions.create({
    date: "2026-03-20",
    entries: [
      { accountCode: "2710", debit: "100.00", currency: "USD", currencyAmount: "110.00", rate: "1.1" },
      { accountCode: "5000", credit: "100.00" },
    ],
  });
  await post("2026-03-31", [line("6300", "debit", "10.00"), line("2710", "credit", "10.00")]);
  await post("2026-04-01", [line("2710", "debit", "1.00"), line("5000", "credit", "1.00")]);
}

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => ["Account", "Customer", "Supplier", "Accounts", "Journal", "Transaction", "Line", "TaxCodeDetail", "Invoice", "Payment"].includes(name),
});

async function download(w: Pick<World, "api">, id: string, part: number) {
  const d = await w.api.declarations.lt.saft.download({ id, part });
  const xml = Buffer.from(d.contentBase64, "base64");
  return { ...d, xml, doc: parser.parse(xml.toString("utf8")).AuditFile };
}

/** A balance element pair as a signed amount, debit positive. */
const signed = (node: Record<string, string>, which: "Opening" | "Closing") =>
  node[`${which}DebitBalance`] !== undefined ? new Decimal(node[`${which}DebitBalance`]) : new Decimal(node[`${which}CreditBalance`]).negated();

describe("a general ledger file (GL)", () => {
  let w: World;
  beforeAll(async () => {
    w = await saftWorld();
    await w.api.ledger.accounts.update({ code: "271", name: "Mano bankai" });
    await w.api.ledger.accounts.update({ code: "2710", name: "Swedbank sąskaita" });
    await postBooks(w);
    await w.api.ledger.owners.create({
      code: "38001010000",
      name: "Jonas Jonaitis",
      countryCode: "LT",
      capitalAccountCode: "3010",
      sharesQuantity: "600",
      sharesAmount: "1800.00",
      sharesType: "ordinary",
      acquiredOn: "2020-05-04",
    });
  });

  test("written in parts by the worker, each valid against the XSD; its figures are the books'", async () => {
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
    expect(asked).toEqual({ id: expect.any(String), status: "queued" });
    const file = await settledSaft(w, asked.id);
    // March has 6 transactions: parts of 3.
    expect(file).toMatchObject({
      status: "ready",
      dataType: "GL",
      from: "2026-03-01",
      to: "2026-03-31",
      error: null,
      progress: { rowsWritten: 6, rowsTotal: 6 },
    });
    expect(file.parts.map((p) => p.partNumber)).toEqual([1, 2]);
    expect(file.expiresAt).not.toBeNull();

    const parts = [await download(w, asked.id, 1), await download(w, asked.id, 2)];
    for (const part of parts) {
      const result = await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd");
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      const meta = file.parts[part.partNumber - 1];
      expect(part).toMatchObject({ partNumber: meta.partNumber, parts: 2, sha256: meta.sha256, fileName: meta.fileName, contentType: "application/xml" });
      expect(part.xml.length).toBe(meta.bytes);
      expect(part.doc.Header).toMatchObject({
        AuditFileVersion: "2.01",
        DataType: "GL",
        NumberOfParts: "2",
        PartNumber: String(part.partNumber),
        SelectionCriteria: { SelectionStartDate: "2026-03-01", SelectionEndDate: "2026-03-31" },
        FiscalYearFrom: "2026-01-01",
        FiscalYearTo: "2026-12-31",
        DefaultCurrencyCode: "EUR",
      });
      expect(part.doc.Header.Company).toMatchObject({
        Name: "Bandymas UAB",
        Contact: { ContactPerson: { FirstName: "Ona", LastName: "Onaitė" }, Telephone: "+370 600 00000", Email: "ona@bandymas.lt" },
        Address: { City: "Vilnius", PostalCode: "LT-01103", Country: "LT", AddressType: "BA" },
      });
    }
    // The master files in part 1 only.
    expect(parts[1].doc.MasterFiles).toBeUndefined();
    const master = parts[0].doc.MasterFiles;

    // Every account's opening and closing balance is the trial balance's.
    const tb = await w.api.ledger.reports.trialBalance({ from: "2026-03-01", to: "2026-03-31" });
    const fromFile = Object.fromEntries(
      master.GeneralLedgerAccounts.Account.map((a: Record<string, string>) => [
        a.AccountID,
        [signed(a, "Opening").toFixed(2), signed(a, "Closing").toFixed(2)],
      ]),
    );
    const fromReport = Object.fromEntries(
      tb.rows.map((r) => [r.accountCode, [new Decimal(r.openingBalance).toFixed(2), new Decimal(r.closingBalance).toFixed(2)]]),
    );
    expect(fromFile).toEqual(fromReport);
    const bank = master.GeneralLedgerAccounts.Account.find((a: Record<string, string>) => a.AccountID === "2710");
    expect(bank).toMatchObject({ AccountTableID: "271", AccountType: "TT", OpeningDebitBalance: "5000.00", ClosingDebitBalance: "5161.00" });
    // The classifier's description of the id, whatever the company calls its accounts (the chart's 271 was renamed);
    // an id the sample chart has no account of (3011) is described by the account that maps to it.
    expect(bank.AccountTableDescription).toBe("Sąskaitos bankuose");
    expect(bank.AccountDescription).toBe("Swedbank sąskaita");
    const capital = master.GeneralLedgerAccounts.Account.find((a: Record<string, string>) => a.AccountID === "3010");
    expect(capital).toMatchObject({ AccountTableID: "3011", AccountTableDescription: "Įstatinis kapitalas – paprastosios akcijos" });

    // Customers and suppliers with their balances on each partner account.
    expect(master.Customers.Customer).toEqual([
      expect.objectContaining({
        CustomerID: "PIRK",
        Name: "Pirkėjas UAB",
        RegistrationNumber: "302222222",
        Address: expect.objectContaining({ City: "Kaunas", PostalCode: "LT-44240", AddressType: "BA" }),
        TaxRegistration: { TaxRegistrationNumber: "LT100004801610", TaxType: "PVM" },
        Accounts: [{ AccountID: "2410", OpeningDebitBalance: "121.00", ClosingDebitBalance: "242.00" }],
      }),
    ]);
    expect(master.Suppliers.Supplier).toEqual([
      expect.objectContaining({
        SupplierID: "TIEK",
        Name: "Tiekėjas & Co <UAB>",
        Accounts: [{ AccountID: "4430", OpeningDebitBalance: "0.00", ClosingCreditBalance: "46.80" }],
      }),
    ]);
    expect(master.Owners).toEqual({
      Owner: {
        OwnerID: "38001010000",
        OwnerName: "Jonas Jonaitis",
        AccountID: "3010",
        SharesQuantity: "600.000000",
        SharesAmount: "1800.00",
        SharesType: "PP",
        SharesAcquisitionDate: "2020-05-04",
      },
    });
    expect(master.TaxTable.TaxTableEntry.TaxCodeDetails.TaxCodeDetail.find((d: Record<string, string>) => d.TaxCode === "PVM1")).toMatchObject({
      TaxPercentage: "21.00",
      Country: "LT",
    });

    // The entries: each part's count and totals are its own lines'; together they are March's journal.
    const transactions = parts.flatMap((p) =>
      p.doc.GeneralLedgerEntries.Journals.Journal.flatMap(
        (j: { Transaction?: unknown[]; Transactions: { Transaction: unknown[] } }) => j.Transactions.Transaction,
      ),
    );
    for (const part of parts) {
      const entries = part.doc.GeneralLedgerEntries;
      const own = entries.Journals.Journal.flatMap(
        (j: { Transactions: { Transaction: { Lines: { Line: Record<string, { Amount: string }>[] } }[] } }) => j.Transactions.Transaction,
      );
      const sum = (side: string) =>
        own
          .flatMap((t: { Lines: { Line: Record<string, { Amount: string }>[] } }) => t.Lines.Line)
          .reduce((s: Decimal, l: Record<string, { Amount: string }>) => s.plus(l[side]?.Amount ?? 0), new Decimal(0));
      expect(Number(entries.NumberOfEntries)).toBe(own.length);
      expect(sum("DebitAmount").toFixed(2)).toBe(entries.TotalDebit);
      expect(sum("CreditAmount").toFixed(2)).toBe(entries.TotalCredit);
    }
    expect(transactions).toHaveLength(6);
    const journal = await h
      .db("journal_transactions")
      .where({ company_id: w.companyId })
      .whereBetween("date", ["2026-03-01", "2026-03-31"])
      .sum({ total: "total" });
    const fileTotal = parts.reduce((s, p) => s.plus(p.doc.GeneralLedgerEntries.TotalDebit), new Decimal(0));
    expect(fileTotal.toFixed(2)).toBe(new Decimal(journal[0].total).toFixed(2));
    expect(fileTotal.toFixed(2)).toBe(tb.totals.debit);

    // One transaction in full: its number, period, lines with partners, the escaped description.
    const sale = transactions.find((t) => (t as { Description: string }).Description === "Pardavimas „A“ & <B>") as Record<string, unknown>;
    expect(sale).toMatchObject({ Period: "3", PeriodYear: "2026", TransactionDate: "2026-03-01", GLPostingDate: "2026-03-01", CustomerID: "PIRK" });
    expect(sale.TransactionID).toMatch(/^BZ-\d+$/);
    // When it was posted, in Vilnius time: the database's formatting is the one the header's time uses.
    const posted = await h.db("journal_transactions").where({ company_id: w.companyId, number: sale.TransactionID }).first("created_at");
    expect(sale.SystemEntryDate).toBe(vilniusDateTime(posted.created_at));
    expect((sale.Lines as { Line: unknown[] }).Line).toEqual([
      expect.objectContaining({ RecordID: "1", AccountID: "2410", CustomerID: "PIRK", DebitAmount: { Amount: "242.00" } }),
      expect.objectContaining({ RecordID: "2", AccountID: "5000", CustomerID: "PIRK", CreditAmount: { Amount: "200.00" } }),
      expect.objectContaining({ RecordID: "3", AccountID: "4492", CustomerID: "", CreditAmount: { Amount: "42.00" } }),
    ]);
    const usd = transactions.find((t) => (t as { TransactionDate: string }).TransactionDate === "2026-03-20") as { Lines: { Line: unknown[] } };
    expect(usd.Lines.Line[0]).toMatchObject({ DebitAmount: { Amount: "100.00", CurrencyCode: "USD", CurrencyAmount: "110.00" } });
    const purchase = transactions.find((t) => (t as { TransactionDate: string }).TransactionDate === "2026-03-10") as Record<string, unknown>;
    expect(purchase.SupplierID).toBe("TIEK");

    // declaration.saft_ready carries the file as get shows it.
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "declaration.saft_ready" });
    expect(events.map((e) => e.data)).toEqual([file]);
  });

  test("written again (a worker that died mid-file), the file has the same bytes", async () => {
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
    const first = await settledSaft(w, asked.id);
    // As the recovery finds it: running, its first part stored and the second not.
    await h.db("saft_files").where({ company_id: w.companyId, id: asked.id }).update({ status: "running", finished_at: null, expires_at: null });
    await h.db("saft_file_parts").where({ company_id: w.companyId, file_id: asked.id, part_number: 2 }).delete();
    await runSaftJob(h.db, h.config, w.companyId, asked.id, 1);
    const again = await w.api.declarations.lt.saft.get({ id: asked.id });
    expect(again.status).toBe("ready");
    expect(again.parts).toEqual(first.parts);
  });

  test("an empty range: one part, no entries, valid", async () => {
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-06-01", to: "2026-06-30", dataType: "GL" });
    const file = await settledSaft(w, asked.id);
    expect(file).toMatchObject({ status: "ready", progress: { rowsWritten: 0, rowsTotal: 0 } });
    expect(file.parts).toHaveLength(1);
    const part = await download(w, asked.id, 1);
    expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    expect(part.doc.GeneralLedgerEntries).toMatchObject({ NumberOfEntries: "0", TotalDebit: "0.00", TotalCredit: "0.00" });
    expect(part.doc.GeneralLedgerEntries.Journals).toBeUndefined();
    // The balances carry through: opening = closing = the books at the end of April.
    const bank = part.doc.MasterFiles.GeneralLedgerAccounts.Account.find((a: Record<string, string>) => a.AccountID === "2710");
    expect(bank).toMatchObject({ OpeningDebitBalance: "5162.00", ClosingDebitBalance: "5162.00" });
  });

  test("download: 422 above the parts, 409 before it is ready, 404 for another company's file or an unknown id", async () => {
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
    await settledSaft(w, asked.id);
    const error = await expectApiError(w.api.declarations.lt.saft.download({ id: asked.id, part: 3 }), 422, "unprocessable", "saft.part_unknown");
    expect(error.params).toEqual({ parts: 2 });
    const [queued] = await h
      .db("saft_files")
      .insert({ company_id: w.companyId, data_type: "GL", date_from: "2026-01-01", date_to: "2026-01-31" })
      .returning("id");
    // Not a job of the worker's: the row alone, as generate leaves it before the worker takes it.
    const notReady = await expectApiError(w.api.declarations.lt.saft.download({ id: queued.id, part: 1 }), 409, "conflict", "saft.not_ready");
    expect(notReady.params).toEqual({ status: "queued" });
    await h.db("saft_files").where({ id: queued.id }).delete();
    const other = await saftWorld();
    await expectApiError(other.api.declarations.lt.saft.get({ id: asked.id }), 404, "not_found", "saft.not_found");
    await expectApiError(other.api.declarations.lt.saft.download({ id: asked.id, part: 1 }), 404, "not_found", "saft.not_found");
    await expectApiError(w.api.declarations.lt.saft.get({ id: "00000000-0000-4000-8000-000000000000" }), 404, "not_found", "saft.not_found");
  });

  test("a file past its keeping time is pruned with its parts", async () => {
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-04-01", to: "2026-04-30", dataType: "GL" });
    await settledSaft(w, asked.id);
    expect(await pruneSaftFiles(h.db)).toBe(0);
    await h
      .db("saft_files")
      .where({ company_id: w.companyId, id: asked.id })
      .update({ expires_at: h.db.raw("now() - interval '1 second'") });
    expect(await pruneSaftFiles(h.db)).toBe(1);
    expect(await h.db("saft_file_parts").where({ company_id: w.companyId, file_id: asked.id })).toEqual([]);
    await expectApiError(w.api.declarations.lt.saft.get({ id: asked.id }), 404, "not_found", "saft.not_found");
  });
});

describe("sales and purchase invoices (SI, PI) of the declarations' fixture month", () => {
  let m: FixtureMonth;
  beforeAll(async () => {
    m = await fixtureMonth(h);
    await m.w.api.account.companies.update({ id: m.w.companyId, contactPerson: { firstName: "Ona", lastName: "Onaitė", phone: "+370 600 00000" } });
  });

  /** Gives every partner of the fixture an address with city and postal code (in its own country). */
  async function completeAddresses() {
    for (const p of (await m.w.api.partners.list({})).rows) {
      await m.w.api.partners.update({ id: p.id, address: { ...address("Kaunas"), countryCode: p.countryCode ?? "LT" } });
    }
  }

  /** The invoices of every part of a ready file, each part validated against the XSD, with the part's own totals checked. */
  async function invoicesOfFile(id: string, section: "SalesInvoices" | "PurchaseInvoices") {
    const file = await settledSaft(m.w, id);
    expect(file.status).toBe("ready");
    const invoices: Record<string, unknown>[] = [];
    for (const meta of file.parts) {
      const part = await download(m.w, id, meta.partNumber);
      const result = await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd");
      expect(result.errors).toEqual([]);
      expect(part.sha256).toBe(meta.sha256);
      expect(part.doc.Header).toMatchObject({ DataType: section === "SalesInvoices" ? "SI" : "PI", PartNumber: String(meta.partNumber) });
      const own = part.doc.SourceDocuments[section];
      const lines = (own.Invoice as { Line: Record<string, { Amount: string } | string>[] }[]).flatMap((i) => i.Line);
      const sum = (indicator: string) =>
        lines.filter((l) => l.DebitCreditIndicator === indicator).reduce((s, l) => s.plus((l.InvoiceLineAmount as { Amount: string }).Amount), new Decimal(0));
      expect(Number(own.NumberOfEntries)).toBe(own.Invoice.length);
      expect(sum("D").toFixed(2)).toBe(own.TotalDebit);
      expect(sum("K").toFixed(2)).toBe(own.TotalCredit);
      if (meta.partNumber > 1) expect(part.doc.MasterFiles).toBeUndefined();
      invoices.push(...own.Invoice);
    }
    return { file, invoices, byNo: new Map(invoices.map((i) => [i.InvoiceNo as string, i as Record<string, any>])) };
  }

  /** i.SAF's (InvoiceNo, TaxCode, taxable value, VAT) of the month, without signs (SAF-T carries the side apart). */
  async function isafTotals(dataType: "S" | "P") {
    const isaf = await m.w.api.declarations.lt.isaf.generate({ period: "2026-10", dataType });
    return invoicesOf(decode(isaf.contentBase64))
      .flatMap((inv) =>
        totalsOf(inv).map(([base, code, , vat]) => [
          elementText(inv, "InvoiceNo"),
          code,
          new Decimal(base!).abs().toFixed(2),
          new Decimal(vat!).abs().toFixed(2),
        ]),
      )
      .sort();
  }
  const saftTotals = (invoices: Record<string, any>[]) =>
    invoices
      .flatMap((inv) =>
        [inv.DocumentTotals.TaxInformationTotals].flat().map((t: Record<string, any>) => [inv.InvoiceNo, t.TaxCode, t.TaxBase, t.TaxAmount.Amount]),
      )
      .sort();

  test("SI: only the customers must have addresses; every part valid; per invoice and classifier the i.SAF's amounts", async () => {
    const refused = await expectApiError(
      m.w.api.declarations.lt.saft.generate({ from: "2026-10-01", to: "2026-10-31", dataType: "SI" }),
      422,
      "unprocessable",
      "saft.partner_incomplete",
    );
    expect((refused.params as { partners: { code: string }[] }).partners.map((p) => p.code).sort()).toEqual(["ATBUY", "DEBUY", "PIRK", "PRIV", "USBUY"]);
    await completeAddresses();

    const asked = await m.w.api.declarations.lt.saft.generate({ from: "2026-10-01", to: "2026-10-31", dataType: "SI" });
    const { file, invoices, byNo } = await invoicesOfFile(asked.id, "SalesInvoices");
    // 14 sales documents in October, parts of 3.
    expect(file.progress).toEqual({ rowsWritten: 14, rowsTotal: 14 });
    expect(file.parts).toHaveLength(5);
    expect(invoices).toHaveLength(14);
    expect(saftTotals(invoices)).toEqual(await isafTotals("S"));

    const first = await download(m.w, asked.id, 1);
    expect(first.doc.MasterFiles.Suppliers).toBeUndefined();
    expect(first.doc.MasterFiles.GeneralLedgerAccounts).toBeUndefined();
    expect(first.doc.MasterFiles.Customers.Customer.map((c: Record<string, string>) => c.CustomerID).sort()).toEqual([
      "ATBUY",
      "DEBUY",
      "PIRK",
      "PRIV",
      "USBUY",
    ]);

    const inv = (name: string) => byNo.get(m.numbers[name])!;
    const tx = async (name: string) => {
      const [row] = await h
        .db("sale_invoices as s")
        .join("journal_transactions as t", function () {
          this.on("t.company_id", "s.company_id").andOn("t.id", "s.journal_transaction_id");
        })
        .where("s.id", m.ids[name])
        .select("t.number", "t.id");
      return row.number ?? row.id;
    };
    expect(inv("S1")).toMatchObject({
      CustomerInfo: { CustomerID: "PIRK", TaxRegistrationNumber: "LT212154314", TaxType: "PVM", Country: "LT" },
      AccountID: "2410",
      InvoiceDate: "2026-10-05",
      InvoiceType: "SF",
      GLPostingDate: "2026-10-05",
      TransactionID: await tx("S1"),
      GLTransactionID: await tx("S1"),
      DocumentTotals: { NetTotal: "1300.00", GrossTotal: "1539.00" },
    });
    expect(inv("S1").Line).toEqual([
      expect.objectContaining({
        LineNumber: "1",
        AccountID: "5000",
        Quantity: "2",
        UnitPrice: "500",
        TaxPointDate: "2026-10-05",
        InvoiceLineAmount: { Amount: "1000.00" },
        DebitCreditIndicator: "K",
        TaxInformation: { TaxType: "PVM", TaxCode: "PVM1", TaxPercentage: "21.00", TaxBase: "1000.00", TaxAmount: { Amount: "210.00" } },
      }),
      expect.objectContaining({ LineNumber: "2", TaxInformation: expect.objectContaining({ TaxCode: "PVM58", TaxAmount: { Amount: "24.00" } }) }),
      expect.objectContaining({ LineNumber: "3", TaxInformation: expect.objectContaining({ TaxCode: "PVM3", TaxAmount: { Amount: "5.00" } }) }),
    ]);
    // The supply date is the lines' tax point.
    expect(inv("S2").Line[0].TaxPointDate).toBe("2025-12-20");
    // The USD invoice: its EUR amounts as posted, its currency amount beside them.
    expect(inv("S9").Line[0]).toMatchObject({
      InvoiceLineAmount: { Amount: "307.59", CurrencyCode: "USD", CurrencyAmount: "333.33" },
      TaxInformation: { TaxBase: "307.59", TaxAmount: { Amount: "64.59" } },
    });
    expect(inv("S9").DocumentTotals).toMatchObject({ NetTotal: "307.59", GrossTotal: "372.18" });
    // A credit note: KS, its lines on the debit side, naming the invoice it credits; a debit note DS; annulled AN.
    expect(inv("KS1")).toMatchObject({ InvoiceType: "KS", References: { CreditNote: { Reference: m.numbers.S0 } } });
    expect(inv("KS1").Line[0]).toMatchObject({ DebitCreditIndicator: "D", InvoiceLineAmount: { Amount: "100.00" } });
    expect(inv("DS1")).toMatchObject({ InvoiceType: "DS", References: { CreditNote: { Reference: m.numbers.S0 } } });
    expect(inv("DS1").Line[0].DebitCreditIndicator).toBe("K");
    expect(inv("S12").InvoiceType).toBe("AN");
    // A partner without a VAT code: its registration code as MMR, or ND.
    expect(inv("S3").CustomerInfo).toMatchObject({ CustomerID: "PRIV", TaxRegistrationNumber: "ND", TaxType: "", Country: "LT" });
    expect(inv("S4").CustomerInfo).toMatchObject({ CustomerID: "USBUY", Country: "US" });
  });

  test("PI: every part valid; per invoice and classifier the i.SAF's amounts; written again, the same bytes", async () => {
    await completeAddresses();
    const asked = await m.w.api.declarations.lt.saft.generate({ from: "2026-10-01", to: "2026-10-31", dataType: "PI" });
    const { file, invoices, byNo } = await invoicesOfFile(asked.id, "PurchaseInvoices");
    expect(file.progress).toEqual({ rowsWritten: 8, rowsTotal: 8 });
    expect(file.parts).toHaveLength(3);
    expect(saftTotals(invoices)).toEqual(await isafTotals("P"));
    const first = await download(m.w, asked.id, 1);
    expect(first.doc.MasterFiles.Customers).toBeUndefined();
    expect(first.doc.MasterFiles.Suppliers.Supplier.map((c: Record<string, string>) => c.SupplierID).sort()).toEqual(["DETIEK", "TIEK", "USTIEK"]);

    const inv = (name: string) => byNo.get(m.numbers[name])!;
    // Two lines of one classifier share its stored VAT (105.00 deductible, 21.00 not) by their nets.
    expect(inv("P1")).toMatchObject({
      SupplierInfo: { SupplierID: "TIEK", TaxType: "PVM" },
      AccountID: "4430",
      InvoiceType: "SF",
      GLPostingDate: "2026-10-15",
    });
    expect(inv("P1").Line.map((l: Record<string, any>) => [l.DebitCreditIndicator, l.InvoiceLineAmount.Amount, l.TaxInformation.TaxAmount.Amount])).toEqual([
      ["D", "500.00", "105.00"],
      ["D", "100.00", "21.00"],
    ]);
    expect(inv("P1").DocumentTotals).toMatchObject({ NetTotal: "600.00", GrossTotal: "726.00" });
    // A reverse charge: the VAT the buyer calculates, and a payable without it.
    expect(inv("P2").DocumentTotals).toMatchObject({ TaxInformationTotals: { TaxCode: "PVM16", TaxBase: "1000.00" }, GrossTotal: "1000.00" });
    expect(inv("P2").SupplierInfo).toMatchObject({ TaxRegistrationNumber: "DE136695976", Country: "DE" });
    expect(inv("PK1")).toMatchObject({ InvoiceType: "KS", References: { CreditNote: { Reference: "T-0916" } } });
    expect(inv("PK1").Line[0].DebitCreditIndicator).toBe("K");

    // As a recovery finds it: part 2 not stored yet; the job writes every part again with the same bytes.
    await h.db("saft_files").where({ company_id: m.w.companyId, id: asked.id }).update({ status: "running", finished_at: null, expires_at: null });
    await h.db("saft_file_parts").where({ company_id: m.w.companyId, file_id: asked.id, part_number: 2 }).delete();
    await runSaftJob(h.db, h.config, m.w.companyId, asked.id, 1);
    const again = await m.w.api.declarations.lt.saft.get({ id: asked.id });
    expect(again.parts).toEqual(file.parts);
  });

  test("GL: a document's transaction carries what it declared on its partner's line; per document and classifier the i.SAF's", async () => {
    await completeAddresses();
    const asked = await m.w.api.declarations.lt.saft.generate({ from: "2026-10-01", to: "2026-10-31", dataType: "GL" });
    const file = await settledSaft(m.w, asked.id);
    expect(file.status).toBe("ready");
    const lines: Record<string, any>[] = [];
    for (const meta of file.parts) {
      const part = await download(m.w, asked.id, meta.partNumber);
      expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
      for (const journal of part.doc.GeneralLedgerEntries.Journals.Journal) {
        for (const t of journal.Transactions.Transaction) lines.push(...t.Lines.Line);
      }
    }
    const taxed = lines.filter((l) => l.TaxInformations);
    const fromGl = taxed
      .flatMap((l) => [l.TaxInformations.TaxInformation].flat().map((t: Record<string, any>) => [l.SourceDocumentID, t.TaxCode, t.TaxBase, t.TaxAmount.Amount]))
      .sort();
    expect(fromGl).toEqual([...(await isafTotals("S")), ...(await isafTotals("P"))].sort());
    // On the receivable of a sale, the payable of a purchase.
    const s1 = taxed.find((l) => l.SourceDocumentID === m.numbers.S1)!;
    expect(s1).toMatchObject({ AccountID: "2410", CustomerID: "PIRK", DebitAmount: { Amount: "1539.00" } });
    expect(s1.TaxInformations.TaxInformation).toEqual([
      { TaxType: "PVM", TaxCode: "PVM3", TaxPercentage: "5.00", TaxBase: "100.00", TaxAmount: { Amount: "5.00" } },
      { TaxType: "PVM", TaxCode: "PVM58", TaxPercentage: "12.00", TaxBase: "200.00", TaxAmount: { Amount: "24.00" } },
      { TaxType: "PVM", TaxCode: "PVM1", TaxPercentage: "21.00", TaxBase: "1000.00", TaxAmount: { Amount: "210.00" } },
    ]);
    expect(taxed.find((l) => l.SourceDocumentID === "T-1015")).toMatchObject({ AccountID: "4430", SupplierID: "TIEK", CreditAmount: { Amount: "726.00" } });
  });

  test("a range without documents: one part, no source documents, valid", async () => {
    const asked = await m.w.api.declarations.lt.saft.generate({ from: "2026-06-01", to: "2026-06-30", dataType: "SI" });
    const file = await settledSaft(m.w, asked.id);
    expect(file).toMatchObject({ status: "ready", progress: { rowsWritten: 0, rowsTotal: 0 } });
    const part = await download(m.w, asked.id, 1);
    expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    expect(part.doc.SourceDocuments).toBeUndefined();
  });
});

describe("payments (PA)", () => {
  test("each matched bank line as a payment with its journal lines; every part valid; totals the journal's", async () => {
    const w = await bankWorld(h);
    await w.api.account.companies.update({
      id: w.companyId,
      address: COMPANY.address,
      contactPerson: { firstName: "Ona", lastName: "Onaitė", phone: "+370 600 00000" },
    });
    for (const p of (await w.api.partners.list({})).rows) await w.api.partners.update({ id: p.id, address: address("Kaunas") });
    const sale = await issuedSale(w, "100");
    const purchase = await registeredPurchase(w, "200");
    const customerIban = ibanOf("LT", "7044060001234567");
    const paid = await bankTransaction(w, "121.00", { counterpartyIban: customerIban });
    await w.api.bank.transactions.match({ transactionId: paid.id, allocations: [{ saleInvoiceId: sale.id, amount: "121.00" }] });
    const out = await bankTransaction(w, "-242.00");
    await w.api.bank.transactions.match({ transactionId: out.id, allocations: [{ purchaseInvoiceId: purchase.id, amount: "242.00" }] });
    const fee = await bankTransaction(w, "-0.50");
    await w.api.bank.transactions.match({ transactionId: fee.id, allocations: [{ accountCode: "6314", amount: "-0.50" }] });
    // A day later, the fourth: parts of 3 make two.
    const later = await bankTransaction(w, "-1.00", { bookingDate: "2026-03-21" });
    await w.api.bank.transactions.match({ transactionId: later.id, allocations: [{ accountCode: "6314", amount: "-1.00" }] });

    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "PA" });
    const file = await settledSaft(w, asked.id);
    expect(file.error).toBeNull();
    expect(file).toMatchObject({ status: "ready", dataType: "PA", progress: { rowsWritten: 4, rowsTotal: 4 } });
    expect(file.parts).toHaveLength(2);
    const [part, second] = [await download(w, asked.id, 1), await download(w, asked.id, 2)];
    for (const p of [part, second]) expect((await validateAgainstXsd(p.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    expect(second.doc.MasterFiles).toBeUndefined();
    expect(second.doc.SourceDocuments.Payments).toMatchObject({ NumberOfEntries: "1", TotalDebit: "1.00", TotalCredit: "1.00" });
    expect(second.doc.SourceDocuments.Payments.Payment.map((p: Record<string, string>) => p.PaymentRefNo)).toEqual([later.bankReference]);
    expect(part.doc.Header.DataType).toBe("PA");
    expect(part.doc.MasterFiles.Customers.Customer.map((c: Record<string, string>) => c.CustomerID)).toEqual(["PIRKEJAS"]);
    expect(part.doc.MasterFiles.Suppliers.Supplier.map((c: Record<string, string>) => c.SupplierID)).toEqual(["TIEKEJAS"]);
    expect(part.doc.MasterFiles.TaxTable).toBeUndefined();

    const payments = part.doc.SourceDocuments.Payments;
    expect(payments).toMatchObject({ NumberOfEntries: "3", TotalDebit: "363.50", TotalCredit: "363.50" });
    const journal = await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "payment" }).orderBy(["date", "id"]);
    expect(journal).toHaveLength(4);
    const sum = await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "payment" }).sum({ total: "total" });
    expect(new Decimal(sum[0].total).toFixed(2)).toBe(new Decimal(payments.TotalDebit).plus("1.00").toFixed(2));
    const byRef = new Map(payments.Payment.map((p: Record<string, any>) => [p.PaymentRefNo, p]));
    const received = byRef.get(paid.bankReference) as Record<string, any>;
    const tx = journal.find((j) => j.source_id === paid.id)!;
    expect(received).toMatchObject({
      PeriodYear: "2026",
      TransactionID: tx.number ?? tx.id,
      TransactionDate: "2026-03-20",
      PaymentMethod: "BP",
      BankAccount: { IBANNumber: customerIban },
      GrossTotal: "121.00",
    });
    expect(received.Lines.Line).toEqual([
      expect.objectContaining({
        LineNumber: "1",
        AccountID: "2710",
        CustomerID: "",
        SupplierID: "",
        DebitCreditIndicator: "D",
        PaymentLineAmount: { Amount: "121.00" },
      }),
      expect.objectContaining({
        LineNumber: "2",
        SourceDocumentID: sale.number,
        AccountID: "2410",
        CustomerID: "PIRKEJAS",
        SupplierID: "",
        DebitCreditIndicator: "K",
        PaymentLineAmount: { Amount: "121.00" },
      }),
    ]);
    const sent = byRef.get(out.bankReference) as Record<string, any>;
    expect(sent.Lines.Line[1]).toMatchObject({ AccountID: "4430", CustomerID: "", SupplierID: "TIEKEJAS", DebitCreditIndicator: "D" });
    expect(sent.BankAccount).toBeUndefined();
    const charged = byRef.get(fee.bankReference) as Record<string, any>;
    expect(charged.Lines.Line.map((l: Record<string, any>) => [l.AccountID, l.DebitCreditIndicator, l.PaymentLineAmount.Amount])).toEqual([
      ["2710", "K", "0.50"],
      ["6314", "D", "0.50"],
    ]);
  });
});

describe("assets (AS)", () => {
  /**
   * Van A-1 bought from TIEK on 2026-01-10 (1,200.00, 12 months: 100.00 a month from February); trailer B-1 acquired
   * 2025-12-01 (600.00, 6 months: 100.00 a month from January), its cost posted by hand, disposed of on 2026-03-20.
   * Runs for January, February and March; March's first run reversed before the disposal and posted again (A-1 only).
   */
  async function assetsBooks() {
    const w = await world(h, {
      company: COMPANY,
      partners: [{ code: "TIEK", name: "Tiekėjas & Co <UAB>", isSupplier: true, address: address("Klaipėda") }],
      assetGroups: [{ code: "VANS", name: "Furgonai", assetAccountCode: "1230", depreciationAccountCode: "1237", defaultUsefulLifeMonths: 36 }],
    });
    const bought = await purchase(w, {
      partnerCode: "TIEK",
      documentNumber: "V-100",
      documentDate: "2026-01-10",
      vatTreatment: "standard",
      lines: [
        { description: "Ford Transit", quantity: "1", unitPriceExclVat: "1200", vatRatePercent: "21", vatClassifier: "PVM1", expenseAccountCode: "1230" },
      ],
    });
    const { journal_transaction_id: purchaseTx } = await h.db("purchase_invoices").where({ company_id: w.companyId, id: bought.id }).first();
    const van = await w.api.assets.assets.create({
      code: "A-1",
      name: "Ford Transit",
      groupCode: "VANS",
      acquisitionDate: "2026-01-10",
      acquisitionCost: "1200.00",
      usefulLifeMonths: 12,
      sourceTransactionId: purchaseTx,
    });
    await w.api.ledger.journal.transactions.create({ date: "2025-12-01", entries: [line("1230", "debit", "600.00"), line("3010", "credit", "600.00")] });
    const trailer = await w.api.assets.assets.create({
      code: "B-1",
      name: "Priekaba",
      groupCode: "VANS",
      acquisitionDate: "2025-12-01",
      acquisitionCost: "600.00",
      usefulLifeMonths: 6,
    });
    for (const month of ["2026-01", "2026-02", "2026-03"]) await w.api.assets.depreciation.post({ month });
    await w.api.assets.depreciation.reverse({ month: "2026-03" });
    await w.api.assets.assets.dispose({ assetId: trailer.id, date: "2026-03-20", proceeds: "450.00", accountCode: "2710" });
    await w.api.assets.depreciation.post({ month: "2026-03" });
    return { w, van, trailer, purchaseTx };
  }

  test("the register's valuations and the range's acquisitions, depreciation and disposals; valid; the ledger's balances", async () => {
    const { w, purchaseTx } = await assetsBooks();
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-01-01", to: "2026-03-31", dataType: "AS" });
    const file = await settledSaft(w, asked.id);
    expect(file.error).toBeNull();
    // A-1's acquisition; January: B-1; February: A-1, B-1; the disposal; March (run 2): A-1. Parts of 3.
    expect(file).toMatchObject({ status: "ready", dataType: "AS", progress: { rowsWritten: 6, rowsTotal: 6 } });
    expect(file.parts).toHaveLength(2);
    const parts = [await download(w, asked.id, 1), await download(w, asked.id, 2)];
    for (const part of parts) expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    expect(parts[1].doc.MasterFiles).toBeUndefined();
    const assets = [parts[0].doc.MasterFiles.Assets.Asset].flat();
    const [a1, b1] = assets;
    expect(a1).toMatchObject({
      AssetID: "A-1",
      AccountID: "1230",
      DateOfAcquisition: "2026-01-10",
      StartUpDate: "2026-01-10",
      Suppliers: { Supplier: [{ SupplierName: "Tiekėjas & Co <UAB>", SupplierID: "TIEK", PostalAddress: expect.objectContaining({ City: "Klaipėda" }) }] },
      Valuations: {
        Valuation: {
          AssetValuationType: "IS",
          ValuationClass: "VANS",
          AccountID: "1230",
          AcquisitionAndProductionCostsBegin: "0.00",
          AcquisitionAndProductionCostsEnd: "1200.00",
          AssetLifeMonth: "12",
          BookValueBegin: "0.00",
          DepreciationMethod: "T",
          DepreciationForPeriod: "200.00",
          AccountID2: "1237",
          AccumulatedDepreciation: "200.00",
          BookValueEnd: "1000.00",
        },
      },
      DepreciationDate: "2026-02-01",
    });
    expect(b1.Suppliers).toBeUndefined();
    expect(b1.Valuations.Valuation).toMatchObject({
      AcquisitionAndProductionCostsBegin: "600.00",
      AcquisitionAndProductionCostsEnd: "0.00",
      AssetDisposal: "600.00",
      AssetDisposalDate: "2026-03-20",
      BookValueBegin: "600.00",
      DepreciationForPeriod: "200.00",
      AccumulatedDepreciation: "0.00",
      BookValueEnd: "0.00",
    });
    // The register at the end is the ledger's: the cost and accumulated-depreciation accounts' closing balances.
    const tb = await w.api.ledger.reports.trialBalance({ from: "2026-01-01", to: "2026-03-31" });
    const closing = (code: string) => new Decimal(tb.rows.find((r) => r.accountCode === code)!.closingBalance);
    const sum = (field: string) => assets.reduce((s: Decimal, a: Record<string, any>) => s.plus(a.Valuations.Valuation[field]), new Decimal(0));
    expect(sum("AcquisitionAndProductionCostsEnd").toFixed(2)).toBe(closing("1230").toFixed(2));
    expect(sum("AccumulatedDepreciation").negated().toFixed(2)).toBe(closing("1237").toFixed(2));

    const transactions = parts.flatMap((p) => [p.doc.SourceDocuments.AssetTransactions.AssetTransaction].flat());
    expect(parts.map((p) => p.doc.SourceDocuments.AssetTransactions.NumberOfAssetTransactions)).toEqual(["3", "3"]);
    const number = async (id: string) => {
      const t = await h.db("journal_transactions").where({ company_id: w.companyId, id }).first();
      return t.number ?? t.id;
    };
    const runTx = async (month: string) => {
      const [rt] = await h
        .db("asset_depreciation_run_transactions as rt")
        .join("asset_depreciation_runs as r", function () {
          this.on("r.company_id", "rt.company_id").andOn("r.month", "rt.month").andOn("r.run_no", "rt.run_no");
        })
        .where({ "rt.company_id": w.companyId, "rt.month": `${month}-01` })
        .whereNull("r.reversed_at")
        .orderBy("rt.part");
      return number(rt.journal_transaction_id);
    };
    const brief = (t: Record<string, any>) => [
      t.AssetTransactionID,
      t.AssetTransactionType,
      t.AssetTransactionDate,
      t.TransactionID,
      t.AssetTransactionValuations.AssetTransactionValuation.BookValueOnTransaction,
      t.AssetTransactionValuations.AssetTransactionValuation.AssetTransactionAmount,
      t.AssetTransactionValuations.AssetTransactionValuation.DebitCreditIndicator,
    ];
    const disposed = await h.db("fixed_assets").where({ company_id: w.companyId, code: "B-1" }).first();
    expect(transactions.map(brief)).toEqual(
      [
        ["A-1-I", "I", "2026-01-10", await number(purchaseTx), "1200.00", "1200.00", "D"],
        ["B-1-NUS-2026-01", "NUS", "2026-01-31", await runTx("2026-01"), "500.00", "100.00", "K"],
        ["A-1-NUS-2026-02", "NUS", "2026-02-28", await runTx("2026-02"), "1100.00", "100.00", "K"],
        ["B-1-NUS-2026-02", "NUS", "2026-02-28", await runTx("2026-02"), "400.00", "100.00", "K"],
        ["B-1-NUR", "NUR", "2026-03-20", await number(disposed.disposal_transaction_id), "400.00", "450.00", "K"],
        ["A-1-NUS-2026-03", "NUS", "2026-03-31", await runTx("2026-03"), "1000.00", "100.00", "K"],
      ].slice(0, 6),
    );
    expect(transactions[0].Supplier).toEqual([expect.objectContaining({ SupplierID: "TIEK", SupplierName: "Tiekėjas & Co <UAB>" })]);

    // In the whole file (F), the same assets and asset transactions, after the ledger and the purchase.
    const whole = await w.api.declarations.lt.saft.generate({ from: "2026-01-01", to: "2026-03-31", dataType: "F" });
    const f = await settledSaft(w, whole.id);
    expect(f.error).toBeNull();
    const docs = [];
    for (const meta of f.parts) {
      const part = await download(w, whole.id, meta.partNumber);
      expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
      docs.push(part.doc);
    }
    expect(docs[0].MasterFiles.Assets).toEqual(parts[0].doc.MasterFiles.Assets);
    expect(Object.keys(docs[0].MasterFiles)).toEqual(["GeneralLedgerAccounts", "Suppliers", "TaxTable", "Assets"]);
    const inWhole = docs.flatMap((d) => (d.SourceDocuments?.AssetTransactions ? [d.SourceDocuments.AssetTransactions.AssetTransaction].flat() : []));
    expect(inWhole).toEqual(transactions);
    expect(docs.some((d) => d.SourceDocuments?.PurchaseInvoices)).toBe(true);
    expect(docs.some((d) => d.SourceDocuments?.SalesInvoices)).toBe(false);
  });
});

describe("movements of goods (MG)", () => {
  test("products, stock per warehouse with its purchase lots, every stock operation of the range; valid; the ledger's stock", async () => {
    const w = await world(h, {
      company: COMPANY,
      partners: [
        { code: "PIRK", name: "Pirkėjas UAB", registrationCode: "302222222", address: address("Kaunas") },
        { code: "TIEK", name: "Tiekėjas UAB", registrationCode: "303333333", isSupplier: true, address: address("Klaipėda") },
      ],
      items: ITEMS,
      warehouses: WAREHOUSES,
    });
    // February: 10 received at 4.00. March: 5 bought at 5.00, 12 sold (10 at 4.00, 2 at 5.00), 1 moved to FILIAL, 1 written off.
    await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-02-10",
      counterAccountCode: "4430",
      lines: [{ itemCode: "PREKE", quantity: "10", unitCost: "4" }],
    });
    const bought = await purchase(w, {
      partnerCode: "TIEK",
      documentNumber: "T-0302",
      documentDate: "2026-03-02",
      vatTreatment: "standard",
      lines: [{ itemCode: "PREKE", quantity: "5", unitPriceExclVat: "5", vatRatePercent: "21", vatClassifier: "PVM1", warehouseCode: "CENTR" }],
    });
    const sold = await sale(w, {
      partnerCode: "PIRK",
      issueDate: "2026-03-05",
      lines: [{ itemCode: "PREKE", quantity: "12", unitPriceExclVat: "10", vatRatePercent: "21", warehouseCode: "CENTR" }],
    });
    await w.api.inventory.stock.transfer({
      fromWarehouseCode: "CENTR",
      toWarehouseCode: "FILIAL",
      date: "2026-03-06",
      lines: [{ itemCode: "PREKE", quantity: "1" }],
    });
    await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-07", lines: [{ itemCode: "PREKE", quantity: "1" }] });

    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "MG" });
    const file = await settledSaft(w, asked.id);
    expect(file.error).toBeNull();
    expect(file).toMatchObject({ status: "ready", dataType: "MG", progress: { rowsWritten: 4, rowsTotal: 4 } });
    expect(file.parts).toHaveLength(2);
    const parts = [await download(w, asked.id, 1), await download(w, asked.id, 2)];
    for (const part of parts) expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    const master = parts[0].doc.MasterFiles;
    expect(parts[1].doc.MasterFiles).toBeUndefined();
    expect([master.Products.Product].flat()).toEqual([
      expect.objectContaining({ ProductCode: "PREKE", GoodsServicesID: "PR", Description: "Prekė", ValuationMethod: "FIFO", UOMBase: "vnt." }),
    ]);
    const entries = [master.PhysicalStock.PhysicalStockEntry].flat();
    expect(
      entries.map((e: Record<string, any>) => [
        e.WarehouseID,
        e.ProductCode,
        e.OpeningStockQuantity,
        e.OpeningStockValue,
        e.ClosingStockQuantity,
        e.ClosingStockValue,
      ]),
    ).toEqual([
      ["CENTR", "PREKE", "10", "40.00", "1", "5.00"],
      ["FILIAL", "PREKE", "0", "0.00", "1", "5.00"],
    ]);
    expect(entries[0].PhysicalStockAcquisitions.PhysicalStockAcquisition).toEqual({
      Supplier: [{ RegistrationNumber: "303333333", Name: "Tiekėjas UAB" }],
      DateOfAcquisition: "2026-03-02",
      InvoiceNo: "T-0302",
      InvoiceDate: "2026-03-02",
      GLPostingDate: "2026-03-02",
      AcquiredQuantity: "5",
      StockRemainderQuantity: "1",
      StockRemainderAmount: "5.00",
    });
    // The unit moved to FILIAL is the same purchase's lot: its supplier and invoice, bought on 2 March.
    expect(entries[1].PhysicalStockAcquisitions.PhysicalStockAcquisition).toEqual({
      Supplier: [{ RegistrationNumber: "303333333", Name: "Tiekėjas UAB" }],
      DateOfAcquisition: "2026-03-02",
      InvoiceNo: "T-0302",
      InvoiceDate: "2026-03-02",
      GLPostingDate: "2026-03-02",
      AcquiredQuantity: "1",
      StockRemainderQuantity: "1",
      StockRemainderAmount: "5.00",
    });
    // The stock at `to` is the ledger's: the inventory account's closing balance.
    const tb = await w.api.ledger.reports.trialBalance({ from: "2026-03-01", to: "2026-03-31" });
    const closing = entries.reduce((s: Decimal, e: Record<string, any>) => s.plus(e.ClosingStockValue), new Decimal(0));
    expect(closing.toFixed(2)).toBe(new Decimal(tb.rows.find((r) => r.accountCode === "2040")!.closingBalance).toFixed(2));

    const goods = parts.map((p) => p.doc.SourceDocuments.MovementOfGoods);
    expect(goods.map((g) => [g.NumberOfMovementLines, g.TotalQuantityReceived, g.TotalQuantityIssued])).toEqual([
      ["4", "6", "13"],
      ["1", "0", "1"],
    ]);
    const movements = goods.flatMap((g) => [g.StockMovement].flat());
    const brief = (m: Record<string, any>) => [
      m.MovementDate,
      m.MovementType,
      m.DocumentReference?.DocumentNumber ?? null,
      [m.Lines.Line]
        .flat()
        .map((l: Record<string, string>) => [
          l.AccountID,
          l.CustomerID,
          l.SupplierID,
          l.ProductCode,
          l.Quantity,
          l.BookValue,
          l.MovementSubType,
          l.DebitCreditIndicator,
        ]),
    ];
    expect(movements.map(brief)).toEqual([
      ["2026-03-02", "PIR", "T-0302", [["2040", "", "TIEK", "PREKE", "5", "25.00", "purchase_invoice", "D"]]],
      ["2026-03-05", "PARD", sold.number, [["2040", "PIRK", "", "PREKE", "12", "50.00", "sale_invoice", "K"]]],
      [
        "2026-03-06",
        "VP",
        null,
        [
          ["2040", "", "", "PREKE", "1", "5.00", "transfer", "K"],
          ["2040", "", "", "PREKE", "1", "5.00", "transfer", "D"],
        ],
      ],
      ["2026-03-07", "N", null, [["2040", "", "", "PREKE", "1", "5.00", "write_off", "K"]]],
    ]);
    // A movement that posted names its journal transaction as the GL file does.
    const purchaseTx = await h
      .db("purchase_invoices as p")
      .join("journal_transactions as t", "t.id", "p.journal_transaction_id")
      .where("p.id", bought.id)
      .first("t.number", "t.id");
    expect(movements[0].GLTransactionID).toBe(purchaseTx.number ?? purchaseTx.id);

    // The whole file (F): the general ledger, then each source document section the range has (no payments or assets
    // here), its parts numbered on; every master file in part 1.
    const whole = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "F" });
    const f = await settledSaft(w, whole.id);
    expect(f.error).toBeNull();
    const journal = await h.db("journal_transactions").where({ company_id: w.companyId }).whereBetween("date", ["2026-03-01", "2026-03-31"]);
    // 3 journal transactions (a transfer posts nothing), 1 sale, 1 purchase, 4 stock operations (2 parts of 3).
    expect(journal).toHaveLength(3);
    expect(f).toMatchObject({ status: "ready", dataType: "F", progress: { rowsWritten: 9, rowsTotal: 9 } });
    const fParts = [];
    for (const meta of f.parts) {
      const part = await download(w, whole.id, meta.partNumber);
      expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
      expect(part.doc.Header).toMatchObject({ DataType: "F", NumberOfParts: "5", PartNumber: String(meta.partNumber) });
      expect(part.fileName).toBe(`SAFT_F_${part.doc.Header.Company.RegistrationNumber}_2026-03-01_2026-03-31_${meta.partNumber}of5.xml`);
      fParts.push(part.doc);
    }
    const sections = fParts.map((d) => [
      Object.keys(d).filter((k) => k !== "Header" && !k.startsWith("@_")),
      d.SourceDocuments ? Object.keys(d.SourceDocuments) : [],
    ]);
    expect(sections).toEqual([
      [["MasterFiles", "GeneralLedgerEntries"], []],
      [["SourceDocuments"], ["SalesInvoices"]],
      [["SourceDocuments"], ["PurchaseInvoices"]],
      [["SourceDocuments"], ["MovementOfGoods"]],
      [["SourceDocuments"], ["MovementOfGoods"]],
    ]);
    expect(Object.keys(fParts[0].MasterFiles)).toEqual([
      "GeneralLedgerAccounts",
      "Customers",
      "Suppliers",
      "TaxTable",
      "UOMTable",
      "MovementTypeTable",
      "Products",
      "PhysicalStock",
    ]);
    // The sections are those of the data types' own files.
    expect(fParts[3].SourceDocuments.MovementOfGoods.StockMovement).toEqual(goods[0].StockMovement);
    expect(fParts[0].GeneralLedgerEntries.NumberOfEntries).toBe("3");
    expect(fParts[0].MasterFiles.PhysicalStock).toEqual(master.PhysicalStock);
  });
});

describe("a range with nothing in it", () => {
  test.each(["F", "GL", "SI", "PI", "PA", "MG", "AS"] as const)("%s: one part, valid, its sections empty or left out", async (dataType) => {
    const w = await saftWorld();
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-06-01", to: "2026-06-30", dataType });
    const file = await settledSaft(w, asked.id);
    expect(file).toMatchObject({ status: "ready", dataType, error: null, progress: { rowsWritten: 0, rowsTotal: 0 } });
    expect(file.parts).toHaveLength(1);
    const part = await download(w, asked.id, 1);
    expect((await validateAgainstXsd(part.xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    expect(part.doc.Header).toMatchObject({ DataType: dataType, NumberOfParts: "1", PartNumber: "1" });
    expect(part.doc.SourceDocuments).toBeUndefined();
    if (dataType === "F" || dataType === "GL") expect(part.doc.GeneralLedgerEntries).toMatchObject({ NumberOfEntries: "0" });
    else expect(part.doc.GeneralLedgerEntries).toBeUndefined();
  });
});

describe("refused before anything is queued", () => {
  const filesOf = (companyId: string) => h.db("saft_files").where({ company_id: companyId });

  test.each([
    { name: "to before from", body: { from: "2026-03-31", to: "2026-03-01" }, key: "saft.range_invalid" },
    { name: "more than 10 years", body: { from: "2015-01-01", to: "2025-01-02" }, key: "saft.range_invalid" },
  ])("$name -> 422 $key", async ({ body, key }) => {
    const w = await saftWorld();
    await expectApiError(w.api.declarations.lt.saft.generate({ ...body, dataType: "GL" }), 422, "unprocessable", key);
    expect(await filesOf(w.companyId)).toEqual([]);
  });

  test("a company without a contact person, telephone or postal code -> 422 saft.company_incomplete naming them", async () => {
    const w = await world(h, { company: { address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" } } });
    const error = await expectApiError(
      w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" }),
      422,
      "unprocessable",
      "saft.company_incomplete",
    );
    expect(error.params).toEqual({ fields: ["contactPerson", "contactPerson.phone"] });
    await w.api.account.companies.update({ id: w.companyId, contactPerson: { firstName: "Ona", lastName: "Onaitė", phone: "+370 611 11111" } });
    const ok = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
    expect((await settledSaft(w, ok.id)).status).toBe("ready");
  });

  test("a partner of the file without an address -> 422 saft.partner_incomplete naming it; one the file does not name is no matter", async () => {
    const w = await world(h, {
      company: COMPANY,
      partners: [
        { code: "BEADR", name: "Be adreso UAB" },
        { code: "KITAS", name: "Kitas UAB" },
      ],
    });
    await w.api.ledger.journal.transactions.create({ date: "2026-03-02", entries: [line("2410", "debit", "10.00", "BEADR"), line("5000", "credit", "10.00")] });
    const error = await expectApiError(
      w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" }),
      422,
      "unprocessable",
      "saft.partner_incomplete",
    );
    expect(error.params).toEqual({
      partners: [{ code: "BEADR", name: "Be adreso UAB", missing: ["address.city", "address.postalCode", "address.countryCode"] }],
    });
    expect(await filesOf(w.companyId)).toEqual([]);
    // partners/list finds the partners to complete; once BEADR has an address, the file is written.
    const incomplete = (value: boolean) => w.api.partners.list({ filter: [{ field: "addressComplete", op: "eq", value }] });
    expect((await incomplete(false)).rows.map((p) => p.code)).toEqual(["BEADR", "KITAS"]);
    expect((await incomplete(true)).rows).toEqual([]);
    const [beadr] = (await incomplete(false)).rows;
    await w.api.partners.update({ id: beadr.id, address: address("Šiauliai") });
    expect((await incomplete(true)).rows.map((p) => p.code)).toEqual(["BEADR"]);
    const ok = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
    expect((await settledSaft(w, ok.id)).status).toBe("ready");
  });

  test("a company registered outside Lithuania -> 422 jurisdiction.mismatch", async () => {
    const w = await world(h, { company: { countryCode: "LV", code: "40003000000" } });
    await expectApiError(
      w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" }),
      422,
      "unprocessable",
      "jurisdiction.mismatch",
    );
    expect(await filesOf(w.companyId)).toEqual([]);
  });
});
