// bank/statements/import (camt.053.001.02 and .001.08 built here), bank/transactions/import, list, get, ignore:
// what each entry becomes, batch entries split into their details (or kept whole with every detail's text), a
// foreign payment's instructed amount, reversals, several statements per file, a statement of a USD account, a
// multi-currency account's EUR and USD statements in one file going to its two bank accounts, debit balances,
// re-imports that find only duplicates, and the refusals (balances, IBAN, a currency without a bank account,
// currency, namespace, hostile XML, characters XML forbids, size, a body built to make a pattern backtrack) that
// leave nothing stored.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { expectApiError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { AT_ONCE_MS } from "../support/timing.js";
import { bankWorld, ibanOf, newIban, type BankWorld } from "../support/bank.js";
import { base64, buildCamt, type CamtStatementSpec } from "../support/camt.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const CUSTOMER_IBAN = ibanOf("LT", "7044060001234567");
const SUPPLIER_IBAN = ibanOf("LT", "4010051000000001");

/**
 * Two statements of the account: March (a payment in, a payment out, a batch of three, a reversal, a pending entry)
 * and April (a payment a US customer sent in USD, booked in EUR).
 */
const statements = (iban: string): CamtStatementSpec[] => [
  {
    id: "2026-03-EUR",
    iban,
    opening: "1000.00",
    entries: [
      {
        amount: "121.00",
        ref: "SWB-0001",
        bookingDate: "2026-03-02",
        valueDate: "2026-03-02",
        details: [{ name: "Pirkėjas UAB", iban: CUSTOMER_IBAN, ustrd: "Apmokėjimas už SF-12 & SF-13", rf: "RF18539007547034", e2e: "E2E-1" }],
      },
      { amount: "-60.50", ref: "SWB-0002", bookingDate: "2026-03-03", details: [{ name: "Tiekėjas UAB", iban: SUPPLIER_IBAN, ustrd: "PR-7" }] },
      {
        amount: "300.00",
        ref: "SWB-0003",
        bookingDate: "2026-03-04",
        details: [
          { amount: "100.00", name: "Jonas Jonaitis", ustrd: "SF-20" },
          { amount: "150.00", name: "Ona Onaitė", ustrd: "SF-21", ref: "SWB-0003-B" },
          { amount: "50.00", name: "Petras Petraitis", ustrd: "SF-22" },
        ],
      },
      {
        amount: "-121.00",
        ref: "SWB-0004",
        bookingDate: "2026-03-05",
        reversal: true,
        details: [{ name: "Pirkėjas UAB", iban: CUSTOMER_IBAN, ustrd: "Grąžinta" }],
      },
      { amount: "-2.10", bookingDate: "2026-03-31", details: [{ ustrd: "Paslaugų mokestis" }] },
      { amount: "500.00", ref: "SWB-PENDING", status: "PDNG", bookingDate: "2026-03-31" },
    ],
  },
  {
    id: "2026-04-EUR",
    iban,
    opening: "1237.40",
    openingCode: "PRCD",
    entries: [
      {
        amount: "250.00",
        ref: "SWB-APR-1",
        bookingDate: "2026-04-10",
        details: [{ name: "Acme Inc.", ustrd: "INV 77", instructed: { amount: "270.00", currency: "USD" } }],
      },
    ],
  },
];

const storedRows = (w: BankWorld) =>
  h
    .db("bank_transactions")
    .where({ company_id: w.companyId })
    .orderBy([{ column: "booking_date" }, { column: "amount" }])
    .select(
      "booking_date",
      "value_date",
      "amount",
      "currency",
      "counterparty_name",
      "counterparty_iban",
      "remittance_information",
      "creditor_reference",
      "end_to_end_id",
      "bank_reference",
      "is_reversal",
      "status",
    );

const importFile = (w: BankWorld, xml: string, over: Record<string, unknown> = {}) =>
  w.api.bank.statements.import({ bankAccountId: w.account.id, format: "camt.053", contentBase64: base64(xml), ...over });
type ImportResult = Awaited<ReturnType<typeof importFile>>;
/** The result without its per-statement breakdown, for the tests about what the entries became. */
const totals = ({ byStatement: _, ...rest }: ImportResult) => rest;
/** The company's stored statements by reference: their ids, for the breakdown's `statementId`. */
const statementIds = async (w: BankWorld) =>
  Object.fromEntries((await h.db("bank_statements").where({ company_id: w.companyId }).select("statement_ref", "id")).map((r) => [r.statement_ref, r.id]));

describe("camt.053 import", () => {
  test.each(["02", "08"] as const)(
    "camt.053.001.%s: every booked entry and every detail of a batch becomes a transaction; a re-import finds only duplicates",
    async (version) => {
      const w = await bankWorld(h);
      const xml = buildCamt(version, statements(w.account.iban));
      const result = await importFile(w, xml);
      const ids = await statementIds(w);
      // (The created transactions' ids, in the file's order: test/contract/sdk.test.ts.)
      const summary = (ref: string, openingBalance: string, closingBalance: string, imported: number, duplicates: number, statementId: string | null) => ({
        statementRef: ref,
        iban: w.account.iban,
        currency: "EUR",
        bankAccountId: w.account.id,
        statementId,
        fromDate: "2026-03-01",
        toDate: "2026-03-31",
        openingBalance,
        closingBalance,
        imported,
        duplicates,
        transactionIds: imported ? expect.any(Array) : [],
      });
      expect(result).toEqual({
        statements: 2,
        imported: 8,
        duplicates: 0,
        currency: "EUR",
        openingBalance: "1000.00",
        closingBalance: "1487.40",
        byStatement: [
          summary("2026-03-EUR", "1000.00", "1237.40", 7, 0, ids["2026-03-EUR"]),
          summary("2026-04-EUR", "1237.40", "1487.40", 1, 0, ids["2026-04-EUR"]),
        ],
      });
      expect(await storedRows(w)).toEqual([
        {
          booking_date: "2026-03-02",
          value_date: "2026-03-02",
          amount: "121.00",
          currency: "EUR",
          counterparty_name: "Pirkėjas UAB",
          counterparty_iban: CUSTOMER_IBAN,
          remittance_information: "Apmokėjimas už SF-12 & SF-13",
          creditor_reference: "RF18539007547034",
          end_to_end_id: "E2E-1",
          bank_reference: "SWB-0001",
          is_reversal: false,
          status: "unmatched",
        },
        {
          booking_date: "2026-03-03",
          value_date: "2026-03-03",
          amount: "-60.50",
          currency: "EUR",
          counterparty_name: "Tiekėjas UAB",
          counterparty_iban: SUPPLIER_IBAN,
          remittance_information: "PR-7",
          creditor_reference: null,
          end_to_end_id: null,
          bank_reference: "SWB-0002",
          is_reversal: false,
          status: "unmatched",
        },
        {
          booking_date: "2026-03-04",
          value_date: "2026-03-04",
          amount: "50.00",
          currency: "EUR",
          counterparty_name: "Petras Petraitis",
          counterparty_iban: null,
          remittance_information: "SF-22",
          creditor_reference: null,
          end_to_end_id: null,
          bank_reference: "SWB-0003/3",
          is_reversal: false,
          status: "unmatched",
        },
        {
          booking_date: "2026-03-04",
          value_date: "2026-03-04",
          amount: "100.00",
          currency: "EUR",
          counterparty_name: "Jonas Jonaitis",
          counterparty_iban: null,
          remittance_information: "SF-20",
          creditor_reference: null,
          end_to_end_id: null,
          bank_reference: "SWB-0003/1",
          is_reversal: false,
          status: "unmatched",
        },
        {
          booking_date: "2026-03-04",
          value_date: "2026-03-04",
          amount: "150.00",
          currency: "EUR",
          counterparty_name: "Ona Onaitė",
          counterparty_iban: null,
          remittance_information: "SF-21",
          creditor_reference: null,
          end_to_end_id: null,
          bank_reference: "SWB-0003-B",
          is_reversal: false,
          status: "unmatched",
        },
        {
          booking_date: "2026-03-05",
          value_date: "2026-03-05",
          amount: "-121.00",
          currency: "EUR",
          counterparty_name: "Pirkėjas UAB",
          counterparty_iban: CUSTOMER_IBAN,
          remittance_information: "Grąžinta",
          creditor_reference: null,
          end_to_end_id: null,
          bank_reference: "SWB-0004",
          is_reversal: true,
          status: "unmatched",
        },
        {
          booking_date: "2026-03-31",
          value_date: "2026-03-31",
          amount: "-2.10",
          currency: "EUR",
          counterparty_name: null,
          counterparty_iban: null,
          remittance_information: "Paslaugų mokestis",
          creditor_reference: null,
          end_to_end_id: null,
          bank_reference: null,
          is_reversal: false,
          status: "unmatched",
        },
        {
          booking_date: "2026-04-10",
          value_date: "2026-04-10",
          amount: "250.00",
          currency: "EUR",
          counterparty_name: "Acme Inc.",
          counterparty_iban: null,
          remittance_information: "INV 77",
          creditor_reference: null,
          end_to_end_id: null,
          bank_reference: "SWB-APR-1",
          is_reversal: false,
          status: "unmatched",
        },
      ]);
      // The USD the customer sent is kept with the EUR booked; no other transaction has an original amount.
      expect(
        await h
          .db("bank_transactions")
          .where({ company_id: w.companyId })
          .whereNotNull("original_amount")
          .select("bank_reference", "original_amount", "original_currency"),
      ).toEqual([{ bank_reference: "SWB-APR-1", original_amount: "270.0000", original_currency: "USD" }]);
      const [foreign] = (await w.api.bank.transactions.list({ filter: [{ field: "bankReference", op: "eq", value: "SWB-APR-1" }] })).rows;
      expect(foreign).toMatchObject({ amount: "250.00", currency: "EUR", originalAmount: "270.00", originalCurrency: "USD" });
      const stored = await h
        .db("bank_statements")
        .where({ company_id: w.companyId })
        .orderBy("statement_ref")
        .select("format", "statement_ref", "opening_balance", "closing_balance", "currency", "imported");
      expect(stored).toEqual([
        {
          format: `camt.053.001.${version}`,
          statement_ref: "2026-03-EUR",
          opening_balance: "1000.00",
          closing_balance: "1237.40",
          currency: "EUR",
          imported: 7,
        },
        {
          format: `camt.053.001.${version}`,
          statement_ref: "2026-04-EUR",
          opening_balance: "1237.40",
          closing_balance: "1487.40",
          currency: "EUR",
          imported: 1,
        },
      ]);

      // Nothing new: no statement is stored again, so the breakdown names none.
      expect(await importFile(w, xml)).toEqual({
        statements: 2,
        imported: 0,
        duplicates: 8,
        currency: "EUR",
        openingBalance: "1000.00",
        closingBalance: "1487.40",
        byStatement: [summary("2026-03-EUR", "1000.00", "1237.40", 0, 7, null), summary("2026-04-EUR", "1237.40", "1487.40", 0, 1, null)],
      });
      expect(await storedRows(w)).toHaveLength(8);
      expect(await h.db("bank_statements").where({ company_id: w.companyId })).toHaveLength(2);
    },
  );

  test("the other version of the same statements is a duplicate too: the bank's references and the fingerprints are the same", async () => {
    const w = await bankWorld(h);
    await importFile(w, buildCamt("02", statements(w.account.iban)));
    expect(await importFile(w, buildCamt("08", statements(w.account.iban)))).toMatchObject({ imported: 0, duplicates: 8 });
    // Two equal entries without a reference are two transactions, found again as two.
    const twice = [
      {
        id: "S",
        iban: w.account.iban,
        opening: "0",
        entries: [
          { amount: "-1.50", details: [{ ustrd: "Kava" }] },
          { amount: "-1.50", details: [{ ustrd: "Kava" }] },
        ],
      },
    ];
    expect(await importFile(w, buildCamt("08", twice))).toMatchObject({ imported: 2, duplicates: 0 });
    expect(await importFile(w, buildCamt("08", twice))).toMatchObject({ imported: 0, duplicates: 2 });
  });

  const refusals: [string, (iban: string) => string, number, string, string, Record<string, unknown>][] = [
    [
      "balances that do not add up",
      (iban) =>
        buildCamt("02", [
          {
            id: "BAD",
            iban,
            opening: "100.00",
            closing: "150.00",
            entries: [
              { amount: "20.00", ref: "X1" },
              { amount: "-5.00", ref: "X2" },
            ],
          },
        ]),
      422,
      "unprocessable",
      "bank.statement_unbalanced",
      { statement: 1, statementId: "BAD", openingBalance: "100.00", entriesTotal: "15.00", expectedClosingBalance: "115.00", closingBalance: "150.00" },
    ],
    [
      "a statement of another IBAN (the second of two)",
      (iban) =>
        buildCamt("08", [
          { iban, opening: "0", entries: [{ amount: "1.00", ref: "Y1" }] },
          { iban: ibanOf("LT", "7300010000000042"), opening: "0", entries: [{ amount: "2.00", ref: "Y2" }] },
        ]),
      422,
      "unprocessable",
      "bank.statement_iban_mismatch",
      { statement: 2, statementIban: ibanOf("LT", "7300010000000042") },
    ],
    [
      "a camt.052 file",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [] }]).replace("camt.053.001.02", "camt.052.001.02"),
      422,
      "unprocessable",
      "bank.statement_unsupported",
      { namespace: "camt.052.001.02" },
    ],
    [
      "a DOCTYPE with nested entities (billion laughs)",
      (iban) =>
        buildCamt("02", [{ iban, opening: "0", entries: [] }]).replace(
          "<Document",
          `<!DOCTYPE Document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Document`,
        ),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "XML that is not well-formed",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [] }]).replace("</BkToCstmrStmt>", ""),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "an amount with three decimals",
      (iban) => buildCamt("08", [{ iban, opening: "0", closing: "1.005", entries: [] }]).replace(">1.01<", ">1.005<"),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "a booking date out of range",
      (iban) => buildCamt("08", [{ iban, opening: "0", entries: [{ amount: "1.00", bookingDate: "1899-12-31" }] }]),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "a booking date that does not exist (31 February)",
      (iban) => buildCamt("08", [{ iban, opening: "0", entries: [{ amount: "1.00", bookingDate: "2026-02-31" }] }]),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "an entry whose currency is not a code",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [{ amount: "1.00", currency: "eur" }] }]),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "elements nested 150 deep",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [] }]).replace("</BkToCstmrStmt>", `${"<X>".repeat(150)}${"</X>".repeat(150)}</BkToCstmrStmt>`),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "an element named constructor",
      (iban) =>
        buildCamt("02", [{ iban, opening: "0", entries: [] }]).replace(
          "</BkToCstmrStmt>",
          "<constructor>x</constructor><__proto__>y</__proto__></BkToCstmrStmt>",
        ),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "a batch whose details do not add up",
      (iban) => buildCamt("08", [{ iban, opening: "0", entries: [{ amount: "10.00", details: [{ amount: "4.00" }, { amount: "5.00" }] }] }]),
      422,
      "unprocessable",
      "bank.statement_invalid",
      {},
    ],
    [
      "a statement in a currency the company has no bank account of this IBAN in (the second of two)",
      (iban) =>
        buildCamt("02", [
          { iban, opening: "0", entries: [{ amount: "1.00", ref: "C1" }] },
          { id: "S-USD", iban, currency: "USD", opening: "0", entries: [{ amount: "2.00", ref: "C2" }] },
        ]),
      422,
      "unprocessable",
      "bank.statement_account_missing",
      { statement: 2, statementId: "S-USD", currency: "USD" },
    ],
    [
      "a USD statement with an entry booked in EUR",
      (iban) => buildCamt("08", [{ id: "S-USD", iban, currency: "USD", opening: "0", entries: [{ amount: "5.00", currency: "EUR", ref: "C5" }] }]),
      422,
      "unprocessable",
      "bank.statement_currency_mismatch",
      { statement: 1, statementId: "S-USD", path: "/Document/BkToCstmrStmt/Stmt[1]/Ntry[1]/Amt", currency: "EUR", accountCurrency: "USD" },
    ],
    [
      "an entry in another currency after a pending one: the path counts the file's entries",
      (iban) =>
        buildCamt("08", [
          {
            id: "S-EUR",
            iban,
            opening: "0",
            entries: [
              { amount: "7.00", ref: "P1", status: "PDNG" },
              { amount: "5.00", currency: "USD", ref: "C6" },
            ],
          },
        ]),
      422,
      "unprocessable",
      "bank.statement_currency_mismatch",
      { statement: 1, path: "/Document/BkToCstmrStmt/Stmt[1]/Ntry[2]/Amt", currency: "USD", accountCurrency: "EUR" },
    ],
    [
      "an entry booked in another currency than the account",
      (iban) =>
        buildCamt("08", [
          {
            id: "S-EUR",
            iban,
            opening: "0",
            entries: [
              { amount: "1.00", ref: "C3" },
              { amount: "5.00", currency: "USD", ref: "C4" },
            ],
          },
        ]),
      422,
      "unprocessable",
      "bank.statement_currency_mismatch",
      { statement: 1, statementId: "S-EUR", path: "/Document/BkToCstmrStmt/Stmt[1]/Ntry[2]/Amt", currency: "USD", accountCurrency: "EUR" },
    ],
    [
      "a closing balance in another currency than the account",
      (iban) =>
        buildCamt("02", [{ iban, opening: "0", entries: [] }]).replace(
          '<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">',
          '<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="GBP">',
        ),
      422,
      "unprocessable",
      "bank.statement_currency_mismatch",
      { statement: 1, path: "/Document/BkToCstmrStmt/Stmt[1]/Bal[CLBD]/Amt", currency: "GBP", accountCurrency: "EUR" },
    ],
    [
      "a statement currency that is no ISO 4217 code",
      (iban) => buildCamt("02", [{ iban, currency: "QQQ", opening: "0", entries: [] }]),
      422,
      "unprocessable",
      "currency.unknown",
      { currency: "QQQ", path: "/Document/BkToCstmrStmt/Stmt[1]/Acct/Ccy" },
    ],
    [
      "an entry currency that is no ISO 4217 code",
      (iban) => buildCamt("08", [{ iban, opening: "0", entries: [{ amount: "1.00", currency: "QQQ" }] }]),
      422,
      "unprocessable",
      "currency.unknown",
      { currency: "QQQ", path: "/Document/BkToCstmrStmt/Stmt[1]/Ntry[1]/Amt/@Ccy" },
    ],
    [
      "a raw U+0000 in a counterparty's name (PostgreSQL text cannot hold it)",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [{ amount: "1.00", ref: "N1", details: [{ name: "Jonas\u0000Jonaitis" }] }] }]),
      422,
      "unprocessable",
      "bank.statement_invalid",
      { path: expect.stringMatching(/^line 2, column [0-9]+$/), problem: "holds the character U+0000, which XML does not allow" },
    ],
    [
      "a raw escape character (U+001B) in the remittance text",
      (iban) => buildCamt("08", [{ iban, opening: "0", entries: [{ amount: "1.00", details: [{ ustrd: "SF-1\u001b[2J" }] }] }]),
      422,
      "unprocessable",
      "bank.statement_invalid",
      { problem: "holds the character U+001B, which XML does not allow" },
    ],
    [
      "an end tag that closes another element than the open one",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [{ amount: "1.00", details: [{ name: "Jonas" }] }] }]).replace("</Nm>", "</Name>"),
      422,
      "unprocessable",
      "bank.statement_invalid",
      { problem: "has the end tag </Name> where </Nm> closes the open element" },
    ],
    [
      "a reference to an entity XML does not predefine (no DTD defines it)",
      (iban) => buildCamt("08", [{ iban, opening: "0", entries: [{ amount: "1.00", details: [{ name: "Jonas X" }] }] }]).replace("Jonas X", "Jonas&nbsp;X"),
      422,
      "unprocessable",
      "bank.statement_invalid",
      { problem: "refers to the entity &nbsp; which is not defined (only &amp; &lt; &gt; &quot; &apos; are)" },
    ],
    [
      "a bare & in a name",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [{ amount: "1.00", details: [{ name: "A and B" }] }] }]).replace("A and B", "A & B"),
      422,
      "unprocessable",
      "bank.statement_invalid",
      { problem: "holds an & that starts no reference (write &amp;)" },
    ],
    [
      "a second element after the root",
      (iban) => `${buildCamt("02", [{ iban, opening: "0", entries: [] }])}<Document/>`,
      422,
      "unprocessable",
      "bank.statement_invalid",
      { problem: "has more after the root element" },
    ],
    [
      "a character reference to U+0001",
      (iban) => buildCamt("02", [{ iban, opening: "0", entries: [{ amount: "1.00", details: [{ name: "Jonas X" }] }] }]).replace("Jonas X", "Jonas&#x1;"),
      422,
      "unprocessable",
      "bank.statement_invalid",
      { problem: "holds the character reference &#x1;, to U+0001, which XML does not allow" },
    ],
  ];
  test.each(refusals)("%s: refused with the key named, nothing stored", async (_name, file, status, code, key, params) => {
    const w = await bankWorld(h);
    await importFile(w, buildCamt("02", [{ iban: w.account.iban, opening: "0", entries: [{ amount: "9.99", ref: "BEFORE" }] }]));
    const error = await expectApiError(importFile(w, file(w.account.iban)), status, code, key);
    expect(error.params).toMatchObject(params);
    expect((await storedRows(w)).map((r) => r.bank_reference)).toEqual(["BEFORE"]);
    expect(await h.db("bank_statements").where({ company_id: w.companyId })).toHaveLength(1);
  });

  test("a body of 900 KB of line breaks and one stray character is answered at once (400), without backtracking; base64 with CRLF line breaks is read", async () => {
    const w = await bankWorld(h);
    // The pattern this replaced took time quadratic in the run of line breaks: minutes for this body.
    for (const contentBase64 of [`${"\n".repeat(900_000)}!`, `${"\r\n".repeat(450_000)}=!`, `QUJD${"\n".repeat(900_000)}==*`]) {
      const started = Date.now();
      const error = await expectApiError(importFile(w, "", { contentBase64 }), 400, "validation", "bank.statement_invalid");
      expect([Date.now() - started < AT_ONCE_MS, error.fieldErrors]).toEqual([true, { contentBase64: ["is not base64"] }]);
    }
    const mime = `${base64(buildCamt("02", [{ iban: w.account.iban, opening: "0", entries: [{ amount: "3.00", ref: "CRLF-1" }] }])).replace(/.{76}/g, "$&\r\n")}\r\n`;
    expect(await importFile(w, "", { contentBase64: mime })).toMatchObject({ imported: 1, closingBalance: "3.00" });
    expect((await storedRows(w)).map((r) => [r.bank_reference, r.amount])).toEqual([["CRLF-1", "3.00"]]);
  });

  test("a file above 10 MB is 413, content that is not base64 is 400; another company's bank account is 404", async () => {
    const w = await bankWorld(h);
    // Just under 10 MB decoded, written as MIME base64 (a line break every 76 characters): more characters than the
    // decoded size allows without line breaks, still read (refused only for what it holds, not for its size).
    const mime = Buffer.alloc(10 * 1024 * 1024 - 64, 0x20)
      .toString("base64")
      .replace(/.{76}/g, "$&\r\n");
    expect(mime.length).toBeGreaterThan(14_000_000);
    await expectApiError(importFile(w, "", { contentBase64: mime }), 422, "unprocessable", "bank.statement_invalid");
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20).toString("base64");
    await expectApiError(
      w.api.bank.statements.import({ bankAccountId: w.account.id, format: "camt.053", contentBase64: big }),
      413,
      "payload_too_large",
      "request.body_too_large",
    );
    expect(await h.db("bank_transactions").where({ company_id: w.companyId })).toEqual([]);
    const notBase64 = await expectApiError(importFile(w, "", { contentBase64: "<Document/>" }), 400, "validation", "bank.statement_invalid");
    expect(Object.keys(notBase64.fieldErrors ?? {})).toEqual(["contentBase64"]);
    const other = await bankWorld(h);
    await expectApiError(
      importFile(other, buildCamt("02", [{ iban: w.account.iban, opening: "0", entries: [{ amount: "1.00" }] }]), { bankAccountId: w.account.id }),
      404,
      "not_found",
      "bank_account.not_found",
    );
    expect(await h.db("bank_transactions").whereIn("company_id", [w.companyId, other.companyId])).toEqual([]);
  });
  test("a file as banks write it — namespace prefixes, indentation, comments, CDATA, character references — reads as the same statements", async () => {
    const plain = await bankWorld(h);
    await importFile(plain, buildCamt("02", statements(plain.account.iban)));
    const w = await bankWorld(h);
    const xml = buildCamt("02", statements(w.account.iban))
      .replace('xmlns="urn:iso', 'xmlns:ns2="urn:iso')
      .replace(/<(\/?)([A-Za-z])/g, "<$1ns2:$2")
      .replace(/></g, ">\n    <")
      .replace("?>", "?>\n<!-- Swedbank, eksportuota 2026-04-01 -->")
      .replace("<ns2:BkToCstmrStmt>", "<ns2:BkToCstmrStmt><!-- pradžia -->")
      .replace("Apmokėjimas už SF-12 &amp; SF-13", "<![CDATA[Apmokėjimas už SF-12 & SF-13]]>")
      .replace("<ns2:Nm>Tiekėjas UAB</ns2:Nm>", "<ns2:Nm>Ti&#x65;k&#279;jas UAB</ns2:Nm>");
    expect([xml.includes("<ns2:Ntry>"), xml.includes("CDATA"), xml.includes("&#279;"), xml.split("\n").length > 200]).toEqual([true, true, true, true]);
    expect(totals(await importFile(w, xml))).toEqual({
      statements: 2,
      imported: 8,
      duplicates: 0,
      currency: "EUR",
      openingBalance: "1000.00",
      closingBalance: "1487.40",
    });
    const rows = await storedRows(w);
    expect(rows).toEqual(await storedRows(plain));
    expect(rows.map((r) => r.counterparty_name).filter((n) => n?.startsWith("Ti"))).toEqual(["Tiekėjas UAB"]);
  });
});

describe("camt.053 entries, statements and balances", () => {
  test.each(["02", "08"] as const)(
    "camt.053.001.%s: a batch whose details do not all state an amount stays one transaction keeping every detail's name, text and references; one detail with its amount describes its entry",
    async (version) => {
      const w = await bankWorld(h);
      const file = buildCamt(version, [
        {
          iban: w.account.iban,
          opening: "0",
          entries: [
            {
              amount: "80.00",
              ref: "SWB-B2",
              bookingDate: "2026-03-06",
              details: [
                { name: "Jonas Jonaitis", ustrd: "SF-30", e2e: "E-30" },
                { name: "Ona Onaitė", ustrd: "SF-31", rf: "RF18539007547034", e2e: "E-31" },
              ],
            },
            {
              amount: "70.00",
              ref: "SWB-B3",
              bookingDate: "2026-03-07",
              details: [
                { amount: "30.00", name: "Petras Petraitis", ustrd: "SF-40" },
                { name: "Petras Petraitis", ustrd: "SF-41" },
              ],
            },
            {
              amount: "15.00",
              ref: "SWB-B4",
              bookingDate: "2026-03-08",
              details: [{ amount: "15.00", name: "Jonas Jonaitis", iban: CUSTOMER_IBAN, ustrd: "SF-50" }],
            },
          ],
        },
      ]);
      expect(totals(await importFile(w, file))).toEqual({
        statements: 1,
        imported: 3,
        duplicates: 0,
        currency: "EUR",
        openingBalance: "0.00",
        closingBalance: "165.00",
      });
      expect(
        (await storedRows(w)).map((r) => [
          r.amount,
          r.counterparty_name,
          r.counterparty_iban,
          r.remittance_information,
          r.creditor_reference,
          r.end_to_end_id,
          r.bank_reference,
        ]),
      ).toEqual([
        ["80.00", null, null, "Jonas Jonaitis SF-30; Ona Onaitė SF-31 E-31", "RF18539007547034", "E-30", "SWB-B2"],
        ["70.00", "Petras Petraitis", null, "30.00 SF-40; SF-41", null, null, "SWB-B3"],
        ["15.00", "Jonas Jonaitis", CUSTOMER_IBAN, "SF-50", null, null, "SWB-B4"],
      ]);
    },
  );

  test("identical entries without a reference in two statements of one file stay two transactions; a re-import finds both", async () => {
    const w = await bankWorld(h);
    const coffee = { amount: "-1.50", bookingDate: "2026-03-31", details: [{ ustrd: "Kava" }] };
    const file = buildCamt("08", [
      { id: "A", iban: w.account.iban, opening: "10.00", entries: [coffee] },
      { id: "B", iban: w.account.iban, opening: "8.50", entries: [coffee] },
    ]);
    expect(totals(await importFile(w, file))).toEqual({
      statements: 2,
      imported: 2,
      duplicates: 0,
      currency: "EUR",
      openingBalance: "10.00",
      closingBalance: "7.00",
    });
    expect((await storedRows(w)).map((r) => [r.amount, r.remittance_information])).toEqual([
      ["-1.50", "Kava"],
      ["-1.50", "Kava"],
    ]);
    expect(await importFile(w, file)).toMatchObject({ imported: 0, duplicates: 2 });
    expect(await storedRows(w)).toHaveLength(2);
  });

  test("an overdrawn account: debit (DBIT) balances keep their sign; figures that do not add up are named with their signs", async () => {
    const w = await bankWorld(h);
    const overdrawn = buildCamt("08", [
      {
        id: "OVERDRAFT",
        iban: w.account.iban,
        opening: "-500.00",
        entries: [
          { amount: "200.00", ref: "D1" },
          { amount: "-50.00", ref: "D2" },
        ],
      },
    ]);
    expect(overdrawn).toContain('<Amt Ccy="EUR">500.00</Amt><CdtDbtInd>DBIT</CdtDbtInd>');
    expect(totals(await importFile(w, overdrawn))).toEqual({
      statements: 1,
      imported: 2,
      duplicates: 0,
      currency: "EUR",
      openingBalance: "-500.00",
      closingBalance: "-350.00",
    });
    expect(await h.db("bank_statements").where({ company_id: w.companyId }).select("statement_ref", "opening_balance", "closing_balance")).toEqual([
      { statement_ref: "OVERDRAFT", opening_balance: "-500.00", closing_balance: "-350.00" },
    ]);
    // The bank says the account is back in credit (350.00 CRDT); -350.00 + 150.00 is -200.00.
    const wrong = buildCamt("02", [
      { id: "BAD-DBIT", iban: w.account.iban, opening: "-350.00", closing: "350.00", entries: [{ amount: "150.00", ref: "D3" }] },
    ]);
    const error = await expectApiError(importFile(w, wrong), 422, "unprocessable", "bank.statement_unbalanced");
    expect(error.params).toEqual({
      statement: 1,
      statementId: "BAD-DBIT",
      openingBalance: "-350.00",
      entriesTotal: "150.00",
      expectedClosingBalance: "-200.00",
      closingBalance: "350.00",
    });
    expect((await storedRows(w)).map((r) => [r.bank_reference, r.amount])).toEqual([
      ["D2", "-50.00"],
      ["D1", "200.00"],
    ]);
  });

  test("a USD bank account takes its USD statement: transactions in USD, no original amount", async () => {
    const w = await bankWorld(h);
    const usd = await w.api.bank.accounts.create({ name: "Swedbank USD", iban: newIban(), currency: "USD", ledgerAccountCode: "2711" });
    const file = buildCamt("02", [
      {
        id: "2026-03-USD",
        iban: usd.iban,
        currency: "USD",
        opening: "0",
        openingCode: "PRCD",
        entries: [{ amount: "250.00", ref: "SWB-USD-1", bookingDate: "2026-03-10", details: [{ name: "Acme Inc.", ustrd: "INV 77" }] }],
      },
    ]);
    expect(totals(await importFile(w, file, { bankAccountId: usd.id }))).toEqual({
      statements: 1,
      imported: 1,
      duplicates: 0,
      currency: "USD",
      openingBalance: "0.00",
      closingBalance: "250.00",
    });
    expect(
      await h
        .db("bank_transactions")
        .where({ company_id: w.companyId })
        .select("bank_account_id", "amount", "currency", "original_amount", "original_currency"),
    ).toEqual([{ bank_account_id: usd.id, amount: "250.00", currency: "USD", original_amount: null, original_currency: null }]);
    expect(await h.db("bank_statements").where({ company_id: w.companyId }).select("bank_account_id", "currency")).toEqual([
      { bank_account_id: usd.id, currency: "USD" },
    ]);
  });

  test("the same Idempotency-Key replays the import's answer; without one, the same file is a re-import of duplicates", async () => {
    const w = await bankWorld(h);
    const body = {
      bankAccountId: w.account.id,
      format: "camt.053" as const,
      contentBase64: base64(buildCamt("02", [{ iban: w.account.iban, opening: "0", entries: [{ amount: "12.00", ref: "I1" }, { amount: "-2.00" }] }])),
    };
    const first = await w.api.bank.statements.import.withResponse(body, { idempotencyKey: "statement-1" });
    expect(totals(first.data)).toEqual({ statements: 1, imported: 2, duplicates: 0, currency: "EUR", openingBalance: "0.00", closingBalance: "10.00" });
    const again = await w.api.bank.statements.import.withResponse(body, { idempotencyKey: "statement-1" });
    expect([again.response.headers.get("x-idempotent-replay"), again.data]).toEqual(["true", first.data]);
    expect(totals(await w.api.bank.statements.import(body))).toEqual({
      statements: 1,
      imported: 0,
      duplicates: 2,
      currency: "EUR",
      openingBalance: "0.00",
      closingBalance: "10.00",
    });
    expect((await storedRows(w)).map((r) => r.amount)).toEqual(["-2.00", "12.00"]);
    expect(await h.db("bank_statements").where({ company_id: w.companyId }).pluck("imported")).toEqual([2]);
  });
});

/**
 * A multi-currency account's March statements in EUR and USD (one IBAN, as Swedbank, SEB and Luminor export them in
 * one file) and its April EUR statement after them. The USD statement repeats an EUR entry without a reference and an
 * EUR bank reference: in another bank account they are other transactions.
 */
const multiCurrency = (iban: string): CamtStatementSpec[] => [
  {
    id: "2026-03-EUR",
    iban,
    opening: "1000.00",
    entries: [
      { amount: "121.00", ref: "SWB-E1", bookingDate: "2026-03-02", details: [{ name: "Pirkėjas UAB", iban: CUSTOMER_IBAN, ustrd: "SF-12" }] },
      { amount: "-1.50", bookingDate: "2026-03-31", details: [{ ustrd: "Kava" }] },
      { amount: "-0.35", ref: "SWB-FEE", bookingDate: "2026-03-31", details: [{ ustrd: "Mokestis" }] },
    ],
  },
  {
    id: "2026-03-USD",
    iban,
    currency: "USD",
    opening: "500.00",
    openingCode: "PRCD",
    entries: [
      { amount: "250.00", ref: "SWB-U1", bookingDate: "2026-03-10", details: [{ name: "Acme Inc.", ustrd: "INV 77" }] },
      { amount: "-1.50", bookingDate: "2026-03-31", details: [{ ustrd: "Kava" }] },
      { amount: "-0.35", ref: "SWB-FEE", bookingDate: "2026-03-31", details: [{ ustrd: "Mokestis" }] },
    ],
  },
  { id: "2026-04-EUR", iban, opening: "1119.15", entries: [{ amount: "60.00", ref: "SWB-E2", bookingDate: "2026-04-02" }] },
];

/** The company's transactions with their bank account and statement, EUR first. */
const routedRows = (w: BankWorld) =>
  h
    .db("bank_transactions as t")
    .join("bank_statements as s", function () {
      this.on("s.company_id", "t.company_id").andOn("s.id", "t.statement_id");
    })
    .where("t.company_id", w.companyId)
    .orderBy([{ column: "t.currency" }, { column: "t.booking_date" }, { column: "t.amount" }])
    .select("t.bank_account_id", "s.statement_ref", "t.amount", "t.currency", "t.bank_reference");

describe("multi-currency accounts", () => {
  test.each(["02", "08"] as const)(
    "camt.053.001.%s: a file with the EUR and USD statements of one IBAN imports into its EUR and USD bank accounts; a re-import finds only duplicates; balances are the named account's",
    async (version) => {
      const w = await bankWorld(h);
      const eur = w.account;
      const usd = await w.api.bank.accounts.create({ name: "Swedbank USD", iban: eur.iban, currency: "USD", ledgerAccountCode: "2711" });
      const xml = buildCamt(version, multiCurrency(eur.iban));
      const result = await importFile(w, xml);
      const ids = await statementIds(w);
      const summary = (
        ref: string,
        account: { id: string; currency: string },
        openingBalance: string,
        closingBalance: string,
        imported: number,
        duplicates: number,
        statementId: string | null,
      ) => ({
        statementRef: ref,
        iban: eur.iban,
        currency: account.currency,
        bankAccountId: account.id,
        statementId,
        fromDate: "2026-03-01",
        toDate: "2026-03-31",
        openingBalance,
        closingBalance,
        imported,
        duplicates,
        transactionIds: imported ? expect.any(Array) : [],
      });
      // The balances are the EUR account's: its first statement's opening, its last one's closing; never the USD ones.
      expect(result).toEqual({
        statements: 3,
        imported: 7,
        duplicates: 0,
        currency: "EUR",
        openingBalance: "1000.00",
        closingBalance: "1179.15",
        byStatement: [
          summary("2026-03-EUR", eur, "1000.00", "1119.15", 3, 0, ids["2026-03-EUR"]),
          summary("2026-03-USD", usd, "500.00", "748.15", 3, 0, ids["2026-03-USD"]),
          summary("2026-04-EUR", eur, "1119.15", "1179.15", 1, 0, ids["2026-04-EUR"]),
        ],
      });
      expect(await routedRows(w)).toEqual([
        { bank_account_id: eur.id, statement_ref: "2026-03-EUR", amount: "121.00", currency: "EUR", bank_reference: "SWB-E1" },
        { bank_account_id: eur.id, statement_ref: "2026-03-EUR", amount: "-1.50", currency: "EUR", bank_reference: null },
        { bank_account_id: eur.id, statement_ref: "2026-03-EUR", amount: "-0.35", currency: "EUR", bank_reference: "SWB-FEE" },
        { bank_account_id: eur.id, statement_ref: "2026-04-EUR", amount: "60.00", currency: "EUR", bank_reference: "SWB-E2" },
        { bank_account_id: usd.id, statement_ref: "2026-03-USD", amount: "250.00", currency: "USD", bank_reference: "SWB-U1" },
        { bank_account_id: usd.id, statement_ref: "2026-03-USD", amount: "-1.50", currency: "USD", bank_reference: null },
        { bank_account_id: usd.id, statement_ref: "2026-03-USD", amount: "-0.35", currency: "USD", bank_reference: "SWB-FEE" },
      ]);
      expect(
        await h
          .db("bank_statements")
          .where({ company_id: w.companyId })
          .orderBy("statement_ref")
          .select("bank_account_id", "statement_ref", "currency", "opening_balance", "closing_balance", "imported", "duplicates"),
      ).toEqual([
        {
          bank_account_id: eur.id,
          statement_ref: "2026-03-EUR",
          currency: "EUR",
          opening_balance: "1000.00",
          closing_balance: "1119.15",
          imported: 3,
          duplicates: 0,
        },
        {
          bank_account_id: usd.id,
          statement_ref: "2026-03-USD",
          currency: "USD",
          opening_balance: "500.00",
          closing_balance: "748.15",
          imported: 3,
          duplicates: 0,
        },
        {
          bank_account_id: eur.id,
          statement_ref: "2026-04-EUR",
          currency: "EUR",
          opening_balance: "1119.15",
          closing_balance: "1179.15",
          imported: 1,
          duplicates: 0,
        },
      ]);
      const usdList = await w.api.bank.transactions.list({ filter: [{ field: "bankAccountId", op: "eq", value: usd.id }], totals: ["amount"] });
      expect([usdList.total, usdList.totals, [...new Set(usdList.rows.map((r) => r.currency))]]).toEqual([3, { amount: "248.15" }, ["USD"]]);

      // The same file named by the USD account: the same routing, nothing new, the USD balances on top.
      expect(await importFile(w, xml, { bankAccountId: usd.id })).toEqual({
        statements: 3,
        imported: 0,
        duplicates: 7,
        currency: "USD",
        openingBalance: "500.00",
        closingBalance: "748.15",
        byStatement: [
          summary("2026-03-EUR", eur, "1000.00", "1119.15", 0, 3, null),
          summary("2026-03-USD", usd, "500.00", "748.15", 0, 3, null),
          summary("2026-04-EUR", eur, "1119.15", "1179.15", 0, 1, null),
        ],
      });
      // A file of the USD statement alone, named by the EUR account: no balance of the EUR account to give.
      const usdOnly = buildCamt(version, [multiCurrency(eur.iban)[1]]);
      expect(await importFile(w, usdOnly)).toEqual({
        statements: 1,
        imported: 0,
        duplicates: 3,
        currency: "EUR",
        openingBalance: null,
        closingBalance: null,
        byStatement: [summary("2026-03-USD", usd, "500.00", "748.15", 0, 3, null)],
      });
      expect(await routedRows(w)).toHaveLength(7);
      expect(await h.db("bank_statements").where({ company_id: w.companyId })).toHaveLength(3);
    },
  );

  test("without a USD bank account of the IBAN the file is refused (422 naming the IBAN and the currency) and nothing is stored; once it exists the file imports", async () => {
    const w = await bankWorld(h);
    // Neither a USD account of another IBAN nor another company's USD account of this IBAN takes the USD statement.
    await w.api.bank.accounts.create({ name: "Luminor USD", iban: newIban(), currency: "USD", ledgerAccountCode: "2711" });
    const other = await bankWorld(h);
    await other.api.bank.accounts.create({ name: "Svetima USD", iban: w.account.iban, currency: "USD", ledgerAccountCode: "2711" });
    const xml = buildCamt("02", multiCurrency(w.account.iban));

    const error = await expectApiError(importFile(w, xml), 422, "unprocessable", "bank.statement_account_missing");
    expect(error.params).toEqual({ statement: 2, statementId: "2026-03-USD", iban: w.account.iban, currency: "USD" });
    expect(error.message).toContain(`no USD bank account with that IBAN: create one (bank/accounts/create with iban ${w.account.iban} and currency USD)`);
    // The EUR statements before and after it are not imported either.
    expect(await h.db("bank_transactions").whereIn("company_id", [w.companyId, other.companyId])).toEqual([]);
    expect(await h.db("bank_statements").whereIn("company_id", [w.companyId, other.companyId])).toEqual([]);

    const usd = await w.api.bank.accounts.create({ name: "Swedbank USD", iban: w.account.iban, currency: "USD", ledgerAccountCode: "2711" });
    expect(totals(await importFile(w, xml))).toEqual({
      statements: 3,
      imported: 7,
      duplicates: 0,
      currency: "EUR",
      openingBalance: "1000.00",
      closingBalance: "1179.15",
    });
    expect((await routedRows(w)).map((r) => [r.bank_account_id === usd.id ? "USD account" : "EUR account", r.currency])).toEqual([
      ["EUR account", "EUR"],
      ["EUR account", "EUR"],
      ["EUR account", "EUR"],
      ["EUR account", "EUR"],
      ["USD account", "USD"],
      ["USD account", "USD"],
      ["USD account", "USD"],
    ]);
  });
});

describe("transactions", () => {
  test("a row in another currency than the account is refused; a foreign payment's own amount is kept as originalAmount", async () => {
    const w = await bankWorld(h);
    expect(
      await w.api.bank.transactions.import({
        bankAccountId: w.account.id,
        transactions: [{ bookingDate: "2026-03-02", amount: "92.50", originalAmount: "100.00", originalCurrency: "USD", bankReference: "FX-1" }],
      }),
    ).toEqual({ imported: 1, duplicates: 0 });
    const [row] = (await w.api.bank.transactions.list({})).rows;
    expect(row).toMatchObject({ amount: "92.50", currency: "EUR", originalAmount: "100.00", originalCurrency: "USD" });
    const mismatch = await expectApiError(
      w.api.bank.transactions.import({
        bankAccountId: w.account.id,
        transactions: [
          { bookingDate: "2026-03-03", amount: "5.00" },
          { bookingDate: "2026-03-03", amount: "100.00", currency: "USD" },
        ],
      }),
      422,
      "unprocessable",
      "bank.transaction_currency_mismatch",
    );
    expect([mismatch.params, Object.keys(mismatch.fieldErrors ?? {})]).toEqual([{ currency: "USD", accountCurrency: "EUR" }, ["transactions[1].currency"]]);
    const unknown = await expectApiError(
      w.api.bank.transactions.import({
        bankAccountId: w.account.id,
        transactions: [{ bookingDate: "2026-03-03", amount: "5.00", originalAmount: "5.00", originalCurrency: "QQQ" }],
      }),
      422,
      "unprocessable",
      "currency.unknown",
    );
    expect(Object.keys(unknown.fieldErrors ?? {})).toEqual(["transactions[0].originalCurrency"]);
    const half = await expectApiError(
      w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [{ bookingDate: "2026-03-03", amount: "5.00", originalAmount: "5.00" }] }),
      400,
      "validation",
      "request.invalid",
    );
    expect(Object.keys(half.fieldErrors ?? {})).toEqual(["transactions[0]"]);
    expect(await h.db("bank_transactions").where({ company_id: w.companyId }).select("amount", "currency", "original_amount", "original_currency")).toEqual([
      { amount: "92.50", currency: "EUR", original_amount: "100.0000", original_currency: "USD" },
    ]);
  });

  test("JSON import with duplicates; list filters, sorts and totals the amount; get; ignore", async () => {
    const w = await bankWorld(h);
    const rows = [
      {
        bookingDate: "2026-03-02",
        amount: "100.00",
        counterpartyName: "Pirkėjas UAB",
        counterpartyIban: CUSTOMER_IBAN,
        remittanceInformation: "SF-1",
        bankReference: "R-1",
      },
      { bookingDate: "2026-03-03", amount: "-40.25", counterpartyName: "Tiekėjas UAB", remittanceInformation: "PR-9" },
      { bookingDate: "2026-03-04", amount: "-0.35", remittanceInformation: "Mokestis" },
    ];
    expect(await w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: rows })).toEqual({ imported: 3, duplicates: 0 });
    expect(
      await w.api.bank.transactions.import({
        bankAccountId: w.account.id,
        transactions: [...rows, { bookingDate: "2026-03-05", amount: "7.00", bankReference: "R-2" }],
      }),
    ).toEqual({ imported: 1, duplicates: 3 });

    const all = await w.api.bank.transactions.list({ totals: ["amount"] });
    expect([all.total, all.totals, all.rows.map((r) => r.amount)]).toEqual([4, { amount: "66.40" }, ["7.00", "-0.35", "-40.25", "100.00"]]);
    const out = await w.api.bank.transactions.list({
      filter: [{ field: "amount", op: "lte", value: 0 }],
      sort: [{ field: "amount", dir: "asc" }],
      totals: ["amount"],
    });
    expect([out.rows.map((r) => r.remittanceInformation), out.totals]).toEqual([["PR-9", "Mokestis"], { amount: "-40.60" }]);
    const byName = await w.api.bank.transactions.list({
      filter: [
        { field: "counterpartyName", op: "contains", value: "pirkėjas" },
        { field: "bankAccountId", op: "eq", value: w.account.id },
      ],
    });
    const [incoming] = byName.rows;
    expect(incoming).toMatchObject({
      amount: "100.00",
      currency: "EUR",
      counterpartyIban: CUSTOMER_IBAN,
      bankReference: "R-1",
      status: "unmatched",
      journalTransactionId: null,
      allocations: [],
      statementId: null,
    });
    expect(await w.api.bank.transactions.get({ id: incoming.id })).toEqual(incoming);

    const fee = out.rows[1];
    const ignored = await w.api.bank.transactions.ignore({ id: fee.id, reason: "Banko mokestis apskaitytas atskirai" });
    expect(ignored).toMatchObject({ status: "ignored", ignoredReason: "Banko mokestis apskaitytas atskirai" });
    expect((await w.api.bank.transactions.list({ filter: [{ field: "status", op: "eq", value: "ignored" }] })).rows.map((r) => r.id)).toEqual([fee.id]);
    expect(await h.db("bank_transactions").where({ company_id: w.companyId, id: fee.id }).first("status", "ignored_reason")).toEqual({
      status: "ignored",
      ignored_reason: "Banko mokestis apskaitytas atskirai",
    });
  });

  test("tenancy and scopes: another company's transaction is 404; bank:read lists but cannot import or ignore", async () => {
    const w = await bankWorld(h);
    await w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [{ bookingDate: "2026-03-02", amount: "5.00" }] });
    const [tx] = (await w.api.bank.transactions.list({})).rows;
    const other = await bankWorld(h);
    await expectApiError(other.api.bank.transactions.get({ id: tx.id }), 404, "not_found", "bank_transaction.not_found");
    await expectApiError(other.api.bank.transactions.ignore({ id: tx.id }), 404, "not_found", "bank_transaction.not_found");
    await expectApiError(
      other.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [{ bookingDate: "2026-03-02", amount: "5.00" }] }),
      404,
      "not_found",
      "bank_account.not_found",
    );
    expect((await other.api.bank.transactions.list({})).total).toBe(0);

    const read = await w.api.account.apiKeys.create({ name: "r", scopes: ["bank:read"] });
    const reader = h.sdk(read.key, w.companyId);
    expect((await reader.bank.transactions.list({})).total).toBe(1);
    await expectApiError(reader.bank.transactions.ignore({ id: tx.id }), 403, "forbidden", "auth.scope_missing");
    await expectApiError(
      reader.bank.transactions.import({ bankAccountId: w.account.id, transactions: [{ bookingDate: "2026-03-02", amount: "6.00" }] }),
      403,
      "forbidden",
      "auth.scope_missing",
    );
    expect(await h.db("bank_transactions").where({ company_id: w.companyId }).select("status", "amount")).toEqual([{ status: "unmatched", amount: "5.00" }]);
  });
});
