// bank/statements/import and bank/transactions/import against what issue 22 found: texts cut short (a reference
// cut to 140 characters equalled another's and a transaction was taken for a duplicate; names and texts were cut
// silently), a bank's reference that names two transactions, and bytes that are not valid in the file's encoding
// (stored as U+FFFD). Over-long texts are refused naming their element, texts within the schema's types are stored
// whole, a duplicate is only ever the transaction it repeats, bytes are decoded strictly (with the encoding a byte
// order mark or the XML declaration names), and every refusal leaves nothing stored.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { expectApiError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { bankWorld, type BankWorld } from "../support/bank.js";
import { base64, buildCamt, type CamtEntry, type CamtStatementSpec } from "../support/camt.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const STMT = "/Document/BkToCstmrStmt/Stmt[1]";
const importBytes = (w: BankWorld, bytes: Buffer) =>
  w.api.bank.statements.import({ bankAccountId: w.account.id, format: "camt.053", contentBase64: bytes.toString("base64") });
const importFile = (w: BankWorld, xml: string) => w.api.bank.statements.import({ bankAccountId: w.account.id, format: "camt.053", contentBase64: base64(xml) });
const stored = (w: BankWorld) =>
  h
    .db("bank_transactions")
    .where({ company_id: w.companyId })
    .orderBy([{ column: "booking_date" }, { column: "bank_reference" }, { column: "amount" }])
    .select("amount", "bank_reference", "counterparty_name", "remittance_information", "creditor_reference", "end_to_end_id");
/** What the company holds: its transactions' amounts and references, and its statements' references. */
const holdings = async (w: BankWorld) => ({
  transactions: (await stored(w)).map((r) => [r.amount, r.bank_reference]),
  statements: await h.db("bank_statements").where({ company_id: w.companyId }).orderBy("statement_ref").pluck("statement_ref"),
});
const statement = (iban: string, entries: CamtEntry[], over: Partial<CamtStatementSpec> = {}): CamtStatementSpec => ({
  id: "S-1",
  iban,
  opening: "0",
  entries,
  ...over,
});

describe("texts longer than their ISO 20022 type", () => {
  test("two references sharing their first 140 characters are refused naming the first (Max35Text), not stored as one transaction; 35-character ones sharing 34 are two", async () => {
    const w = await bankWorld(h);
    const shared = "R".repeat(140);
    const file = buildCamt("02", [
      statement(w.account.iban, [
        { amount: "3.00", ref: `${shared}1` },
        { amount: "4.00", ref: `${shared}2` },
      ]),
    ]);
    const error = await expectApiError(importFile(w, file), 422, "unprocessable", "bank.statement_text_too_long");
    const path = `${STMT}/Ntry[1]/AcctSvcrRef`;
    expect([error.params, error.fieldErrors]).toEqual([
      { path, length: 141, maxLength: 35 },
      { [path]: ["is 141 characters long; camt.053 allows at most 35 (Max35Text)"] },
    ]);
    expect(await holdings(w)).toEqual({ transactions: [], statements: [] });

    // Within the type, stored whole: the statement's 7.00 is what is stored, and the next one's 9.00 is new.
    const ref = (n: number) => `${"R".repeat(34)}${n}`;
    const march = buildCamt("02", [
      statement(
        w.account.iban,
        [
          { amount: "3.00", ref: ref(1) },
          { amount: "4.00", ref: ref(2) },
        ],
        { id: "S-MAR" },
      ),
    ]);
    expect(await importFile(w, march)).toMatchObject({ imported: 2, duplicates: 0, openingBalance: "0.00", closingBalance: "7.00" });
    const april = buildCamt("02", [statement(w.account.iban, [{ amount: "9.00", ref: ref(3), bookingDate: "2026-04-02" }], { id: "S-APR", opening: "7.00" })]);
    expect(await importFile(w, april)).toMatchObject({ imported: 1, duplicates: 0, closingBalance: "16.00" });
    expect(await holdings(w)).toEqual({
      transactions: [
        ["3.00", ref(1)],
        ["4.00", ref(2)],
        ["9.00", ref(3)],
      ],
      statements: ["S-APR", "S-MAR"],
    });
    const [{ sum }] = await h.db("bank_transactions").where({ company_id: w.companyId }).sum("amount as sum");
    expect(new Decimal(sum).toFixed(2)).toBe("16.00");
  });

  const long = (n: number) => "x".repeat(n);
  /** A batch of 80 details without amounts (one transaction): `name text` each, `; ` between them. */
  const bigBatch = Array.from({ length: 80 }, (_, i) => ({ name: `${i} ${long(130)}`, ustrd: long(140) }));
  const bigBatchText = bigBatch.map((d) => `${d.name} ${d.ustrd}`).join("; ");
  const detailPath = `${STMT}/Ntry[1]/NtryDtls/TxDtls[1]`;
  const cases: [string, "02" | "08", CamtEntry, string, number, number][] = [
    ["the entry's AcctSvcrRef", "08", { amount: "1.00", ref: long(36) }, `${STMT}/Ntry[1]/AcctSvcrRef`, 36, 35],
    ["a detail's own AcctSvcrRef", "02", { amount: "1.00", details: [{ ref: long(36) }] }, `${detailPath}/Refs/AcctSvcrRef`, 36, 35],
    ["the debtor's name (v02 Dbtr/Nm)", "02", { amount: "1.00", details: [{ name: long(141) }] }, `${detailPath}/RltdPties/Dbtr/Nm`, 141, 140],
    ["the debtor's name (v08 Dbtr/Pty/Nm)", "08", { amount: "1.00", details: [{ name: long(141) }] }, `${detailPath}/RltdPties/Dbtr/Pty/Nm`, 141, 140],
    ["the creditor's name of money out", "02", { amount: "-1.00", details: [{ name: long(141) }] }, `${detailPath}/RltdPties/Cdtr/Nm`, 141, 140],
    ["an unstructured text (Ustrd)", "08", { amount: "1.00", details: [{ ustrd: long(141) }] }, `${detailPath}/RmtInf/Ustrd[1]`, 141, 140],
    [
      "a creditor reference (Strd/CdtrRefInf/Ref)",
      "02",
      { amount: "1.00", details: [{ rf: long(36) }] },
      `${detailPath}/RmtInf/Strd[1]/CdtrRefInf/Ref`,
      36,
      35,
    ],
    ["an end-to-end id", "08", { amount: "1.00", details: [{ e2e: long(36) }] }, `${detailPath}/Refs/EndToEndId`, 36, 35],
    [
      "the third detail's name in a batch split into its details",
      "08",
      {
        amount: "3.00",
        ref: "B-1",
        details: [
          { amount: "1.00", name: "A" },
          { amount: "1.00", name: "B" },
          { amount: "1.00", name: long(141) },
        ],
      },
      `${STMT}/Ntry[1]/NtryDtls/TxDtls[3]/RltdPties/Dbtr/Pty/Nm`,
      141,
      140,
    ],
    [
      "the texts of a batch kept as one transaction, together above 10,000 characters",
      "02",
      { amount: "80.00", ref: "B-2", details: bigBatch },
      `${STMT}/Ntry[1]/NtryDtls`,
      bigBatchText.length,
      10_000,
    ],
  ];
  test.each(cases)("%s (camt.053.001.%s) over its type: 422 naming the element, nothing stored", async (_name, version, entry, path, length, maxLength) => {
    const w = await bankWorld(h);
    await importFile(w, buildCamt(version, [statement(w.account.iban, [{ amount: "9.99", ref: "BEFORE" }], { id: "BEFORE" })]));
    const error = await expectApiError(
      importFile(w, buildCamt(version, [statement(w.account.iban, [entry], { opening: "9.99" })])),
      422,
      "unprocessable",
      "bank.statement_text_too_long",
    );
    expect([error.params, Object.keys(error.fieldErrors ?? {})]).toEqual([{ path, length, maxLength }, [path]]);
    expect(await holdings(w)).toEqual({ transactions: [["9.99", "BEFORE"]], statements: ["BEFORE"] });
  });

  test("a statement id longer than Max35Text is refused naming Stmt/Id", async () => {
    const w = await bankWorld(h);
    const error = await expectApiError(
      importFile(w, buildCamt("02", [statement(w.account.iban, [{ amount: "1.00", ref: "I-1" }], { id: long(36) })])),
      422,
      "unprocessable",
      "bank.statement_text_too_long",
    );
    expect(error.params).toEqual({ path: `${STMT}/Id`, length: 36, maxLength: 35 });
    expect(await holdings(w)).toEqual({ transactions: [], statements: [] });
  });

  test("texts at their types' bounds are stored whole — characters counted as code points — and a batch's texts together above 1,000 characters too", async () => {
    const w = await bankWorld(h);
    // 140 characters outside the Basic Multilingual Plane: 280 UTF-16 units, 560 bytes.
    const name = "𝔸".repeat(140);
    const texts = ["a".repeat(140), "b".repeat(140)];
    const batch = Array.from({ length: 12 }, (_, i) => ({ name: `Mokėtojas ${String(i).padStart(2, "0")}`, ustrd: `SF-${i} ${"ė".repeat(100)}` }));
    const file = buildCamt("08", [
      statement(
        w.account.iban,
        [
          { amount: "5.00", ref: "Q".repeat(35), bookingDate: "2026-03-01", details: [{ name, ustrd: texts[0], rf: "R".repeat(35), e2e: "E".repeat(35) }] },
          { amount: "12.00", ref: "BATCH-12", bookingDate: "2026-03-02", details: batch },
        ],
        { id: "S".repeat(35) },
      ),
    ]).replace(`<Ustrd>${texts[0]}</Ustrd>`, `<Ustrd>${texts[0]}</Ustrd><Ustrd>${texts[1]}</Ustrd>`);
    expect(await importFile(w, file)).toMatchObject({ imported: 2, duplicates: 0 });
    const remittance = batch.map((d) => `${d.name} ${d.ustrd}`).join("; ");
    expect(remittance.length).toBeGreaterThan(1_400);
    expect(await stored(w)).toEqual([
      {
        amount: "5.00",
        bank_reference: "Q".repeat(35),
        counterparty_name: name,
        remittance_information: texts.join(" "),
        creditor_reference: "R".repeat(35),
        end_to_end_id: "E".repeat(35),
      },
      {
        amount: "12.00",
        bank_reference: "BATCH-12",
        counterparty_name: null,
        remittance_information: remittance,
        creditor_reference: null,
        end_to_end_id: null,
      },
    ]);
    expect(await h.db("bank_statements").where({ company_id: w.companyId }).pluck("statement_ref")).toEqual(["S".repeat(35)]);
  });

  test("bank/transactions/import holds its bounds: 140 for bankReference (camt.053 refuses above 35, its ISO type), 140 for a name, 10,000 for the text (400 above)", async () => {
    const w = await bankWorld(h);
    const row = (over: Record<string, string>) => ({ bookingDate: "2026-03-02", amount: "1.00", ...over });
    const tooLong = await expectApiError(
      w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [row({ bankReference: "J".repeat(141) })] }),
      400,
      "validation",
      "request.invalid",
    );
    expect(Object.keys(tooLong.fieldErrors ?? {})).toEqual(["transactions[0].bankReference"]);
    await expectApiError(
      w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [row({ counterpartyName: "n".repeat(141) })] }),
      400,
      "validation",
      "request.invalid",
    );
    await expectApiError(
      w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [row({ remittanceInformation: "t".repeat(10_001) })] }),
      400,
      "validation",
      "request.invalid",
    );
    expect(await stored(w)).toEqual([]);
    const text = "t".repeat(10_000);
    expect(
      await w.api.bank.transactions.import({
        bankAccountId: w.account.id,
        transactions: [row({ bankReference: "J".repeat(140), counterpartyName: "n".repeat(140), remittanceInformation: text })],
      }),
    ).toEqual({ imported: 1, duplicates: 0 });
    expect(await stored(w)).toEqual([
      {
        amount: "1.00",
        bank_reference: "J".repeat(140),
        counterparty_name: "n".repeat(140),
        remittance_information: text,
        creditor_reference: null,
        end_to_end_id: null,
      },
    ]);
  });
});

describe("a bank's reference names one transaction", () => {
  test("twice in one statement: refused naming the second entry (the first is no duplicate of it), nothing stored", async () => {
    const w = await bankWorld(h);
    const file = buildCamt("02", [
      statement(w.account.iban, [
        { amount: "3.00", ref: "SAME" },
        { amount: "4.00", ref: "SAME" },
      ]),
    ]);
    const error = await expectApiError(importFile(w, file), 422, "unprocessable", "bank.transaction_reference_conflict");
    const path = `${STMT}/Ntry[2]/AcctSvcrRef`;
    expect([error.params, Object.keys(error.fieldErrors ?? {})]).toEqual([
      { path, bankReference: "SAME", amount: "4.00", bookingDate: "2026-03-15", otherPath: `${STMT}/Ntry[1]/AcctSvcrRef` },
      [path],
    ]);
    expect(await holdings(w)).toEqual({ transactions: [], statements: [] });
  });

  test("stored before with another amount: refused naming the entry and the stored transaction; with the same amount and date it is a duplicate", async () => {
    const w = await bankWorld(h);
    await importFile(w, buildCamt("08", [statement(w.account.iban, [{ amount: "3.00", ref: "R-1" }], { id: "FIRST" })]));
    const [first] = (await w.api.bank.transactions.list({})).rows;
    const other = buildCamt("08", [
      statement(
        w.account.iban,
        [
          { amount: "2.00", ref: "R-2" },
          { amount: "4.00", ref: "R-1" },
        ],
        { id: "SECOND", opening: "3.00" },
      ),
    ]);
    const error = await expectApiError(importFile(w, other), 422, "unprocessable", "bank.transaction_reference_conflict");
    const path = `${STMT}/Ntry[2]/AcctSvcrRef`;
    expect([error.params, Object.keys(error.fieldErrors ?? {})]).toEqual([
      { path, bankReference: "R-1", amount: "4.00", bookingDate: "2026-03-15", transactionId: first.id },
      [path],
    ]);
    expect(await holdings(w)).toEqual({ transactions: [["3.00", "R-1"]], statements: ["FIRST"] });
    const movedDate = buildCamt("08", [statement(w.account.iban, [{ amount: "3.00", ref: "R-1", bookingDate: "2026-03-16" }], { id: "THIRD" })]);
    await expectApiError(importFile(w, movedDate), 422, "unprocessable", "bank.transaction_reference_conflict");

    const same = buildCamt("02", [
      statement(
        w.account.iban,
        [
          { amount: "3.00", ref: "R-1" },
          { amount: "2.00", ref: "R-2" },
        ],
        { id: "AGAIN" },
      ),
    ]);
    expect(await importFile(w, same)).toMatchObject({ imported: 1, duplicates: 1 });
    expect(await holdings(w)).toEqual({
      transactions: [
        ["3.00", "R-1"],
        ["2.00", "R-2"],
      ],
      statements: ["AGAIN", "FIRST"],
    });
  });

  test("in two statements of one file: the same amount and date is the entry sent again (a duplicate); another amount is refused", async () => {
    const w = await bankWorld(h);
    const file = (amount: string) =>
      buildCamt("02", [
        statement(w.account.iban, [{ amount: "5.00", ref: "T-1" }], { id: "A" }),
        statement(
          w.account.iban,
          [
            { amount, ref: "T-1" },
            { amount: "1.00", ref: "T-2" },
          ],
          { id: "B", opening: "5.00" },
        ),
      ]);
    const error = await expectApiError(importFile(w, file("6.00")), 422, "unprocessable", "bank.transaction_reference_conflict");
    expect(error.params).toMatchObject({ path: "/Document/BkToCstmrStmt/Stmt[2]/Ntry[1]/AcctSvcrRef", otherPath: `${STMT}/Ntry[1]/AcctSvcrRef` });
    expect(await holdings(w)).toEqual({ transactions: [], statements: [] });
    expect(await importFile(w, file("5.00"))).toMatchObject({ imported: 2, duplicates: 1 });
    expect(await holdings(w)).toEqual({
      transactions: [
        ["5.00", "T-1"],
        ["1.00", "T-2"],
      ],
      statements: ["A", "B"],
    });
  });

  test.each(["02", "08"] as const)(
    "camt.053.001.%s: a batch whose details repeat the entry's reference stores each detail (`<ref>/<n>` after the first); a re-import finds them all",
    async (version) => {
      const w = await bankWorld(h);
      const file = buildCamt(version, [
        statement(w.account.iban, [
          {
            amount: "10.00",
            ref: "X",
            details: [
              { amount: "4.00", ref: "X", name: "A" },
              { amount: "5.00", ref: "X", name: "B" },
              { amount: "1.00", name: "C" },
            ],
          },
        ]),
      ]);
      expect(await importFile(w, file)).toMatchObject({ imported: 3, duplicates: 0, closingBalance: "10.00" });
      expect((await stored(w)).map((r) => [r.amount, r.bank_reference, r.counterparty_name])).toEqual([
        ["4.00", "X", "A"],
        ["5.00", "X/2", "B"],
        ["1.00", "X/3", "C"],
      ]);
      expect(await importFile(w, file)).toMatchObject({ imported: 0, duplicates: 3 });
      expect(await stored(w)).toHaveLength(3);
    },
  );

  test("bank/transactions/import: a reference two rows give is refused naming the second; one stored with another amount is refused; the same transaction is a duplicate", async () => {
    const w = await bankWorld(h);
    const row = (amount: string, bankReference: string) => ({ bookingDate: "2026-03-02", amount, bankReference });
    const twice = await expectApiError(
      w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [row("3.00", "J-1"), row("4.00", "J-2"), row("3.00", "J-1")] }),
      422,
      "unprocessable",
      "bank.transaction_reference_conflict",
    );
    expect([twice.params, Object.keys(twice.fieldErrors ?? {})]).toEqual([
      { path: "transactions[2].bankReference", bankReference: "J-1", amount: "3.00", bookingDate: "2026-03-02", otherPath: "transactions[0].bankReference" },
      ["transactions[2].bankReference"],
    ]);
    expect(await stored(w)).toEqual([]);
    expect(await w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [row("3.00", "J-1")] })).toEqual({ imported: 1, duplicates: 0 });
    const changed = await expectApiError(
      w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [row("7.00", "J-7"), row("-3.00", "J-1")] }),
      422,
      "unprocessable",
      "bank.transaction_reference_conflict",
    );
    expect(Object.keys(changed.fieldErrors ?? {})).toEqual(["transactions[1].bankReference"]);
    expect((await stored(w)).map((r) => [r.amount, r.bank_reference])).toEqual([["3.00", "J-1"]]);
    expect(await w.api.bank.transactions.import({ bankAccountId: w.account.id, transactions: [row("7.00", "J-7"), row("3.00", "J-1")] })).toEqual({
      imported: 1,
      duplicates: 1,
    });
  });
});

describe("bytes and encodings", () => {
  /** A file whose debtor's name holds `bytes` where `@@` stands, and where in the file they are. */
  const withBytes = (iban: string, bytes: number[], atEnd = false) => {
    const xml = buildCamt("02", [statement(iban, [{ amount: "1.00", ref: "U-1", details: [{ name: "Jonas @@ Jonaitis" }] }])]);
    const text = Buffer.from(atEnd ? xml.replace("@@", "") : xml, "utf8");
    const at = atEnd ? text.length : text.indexOf("@@");
    return { at, file: atEnd ? Buffer.concat([text, Buffer.from(bytes)]) : Buffer.concat([text.subarray(0, at), Buffer.from(bytes), text.subarray(at + 2)]) };
  };
  const invalidUtf8: [string, number[], boolean][] = [
    ["a byte that starts nothing (0xFF)", [0xff], false],
    ["a continuation byte alone (0x80)", [0x80], false],
    ["a two-byte sequence cut short (0xC3 then a space)", [0xc3], false],
    ["an overlong form of / (0xC0 0xAF)", [0xc0, 0xaf], false],
    ["a surrogate (U+D800 as 0xED 0xA0 0x80)", [0xed, 0xa0, 0x80], false],
    ["a code point above U+10FFFF (0xF4 0x90 0x80 0x80)", [0xf4, 0x90, 0x80, 0x80], false],
    ["a sequence cut short by the end of the file", [0xe2, 0x82], true],
  ];
  test.each(invalidUtf8)("invalid UTF-8, %s: 422 naming the byte offset, nothing stored", async (_name, bytes, atEnd) => {
    const w = await bankWorld(h);
    const { at, file } = withBytes(w.account.iban, bytes, atEnd);
    const error = await expectApiError(importBytes(w, file), 422, "unprocessable", "bank.statement_invalid");
    expect(error.params).toMatchObject({ path: `byte ${at}`, byteOffset: at, encoding: "utf-8" });
    expect(error.fieldErrors).toEqual({
      contentBase64: [expect.stringMatching(new RegExp(`^byte ${at} \\(line [0-9]+\\) holds bytes that are not UTF-8 \\(0x`))],
    });
    expect(await holdings(w)).toEqual({ transactions: [], statements: [] });
  });

  test("an XML declaration naming windows-1257 (a Baltic bank's encoding) is honoured: ė is the byte 0xEB; a byte it does not define is refused with its offset", async () => {
    const w = await bankWorld(h);
    const xml = buildCamt("02", [
      statement(w.account.iban, [{ amount: "1.00", ref: "W-1", details: [{ name: "Pirk\u00ebjas UAB", ustrd: "U\u00fe SF-12" }] }]),
    ]).replace('encoding="UTF-8"', 'encoding="windows-1257"');
    // Latin-1 writes U+00EB and U+00FE as the bytes 0xEB and 0xFE: ė and ž in windows-1257.
    expect(await importBytes(w, Buffer.from(xml, "latin1"))).toMatchObject({ imported: 1 });
    expect((await stored(w)).map((r) => [r.counterparty_name, r.remittance_information])).toEqual([["Pirkėjas UAB", "Už SF-12"]]);

    const other = await bankWorld(h);
    const bad = Buffer.from(
      buildCamt("02", [statement(other.account.iban, [{ amount: "1.00", details: [{ name: "A\u00a1B" }] }])]).replace(
        'encoding="UTF-8"',
        'encoding="windows-1257"',
      ),
      "latin1",
    );
    const error = await expectApiError(importBytes(other, bad), 422, "unprocessable", "bank.statement_invalid");
    expect(error.params).toMatchObject({ byteOffset: bad.indexOf(0xa1), encoding: "windows-1257" });
    expect(await holdings(other)).toEqual({ transactions: [], statements: [] });
  });

  test("a byte order mark names UTF-16 or UTF-8; UTF-16 declared without one, or an encoding nobody knows, is refused", async () => {
    const w = await bankWorld(h);
    const xml = (iban: string, ref: string) => buildCamt("08", [statement(iban, [{ amount: "2.00", ref, details: [{ name: "Pirkėjas UAB" }] }], { id: ref })]);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(xml(w.account.iban, "BOM-16").replace('encoding="UTF-8"', 'encoding="UTF-16"'), "utf16le"),
    ]);
    expect(await importBytes(w, utf16)).toMatchObject({ imported: 1 });
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml(w.account.iban, "BOM-8"), "utf8")]);
    expect(await importBytes(w, utf8)).toMatchObject({ imported: 1 });
    expect((await stored(w)).map((r) => [r.bank_reference, r.counterparty_name])).toEqual([
      ["BOM-16", "Pirkėjas UAB"],
      ["BOM-8", "Pirkėjas UAB"],
    ]);

    const noBom = await expectApiError(
      importFile(w, xml(w.account.iban, "NO-BOM").replace('encoding="UTF-8"', 'encoding="UTF-16"')),
      422,
      "unprocessable",
      "bank.statement_invalid",
    );
    expect([noBom.params, Object.keys(noBom.fieldErrors ?? {})]).toEqual([
      { path: "byte 0", problem: "declares UTF-16 without a byte order mark", byteOffset: 0, encoding: "utf-16le" },
      ["contentBase64"],
    ]);
    const unknown = await expectApiError(
      importFile(w, xml(w.account.iban, "UNKNOWN").replace('encoding="UTF-8"', 'encoding="x-klingon"')),
      422,
      "unprocessable",
      "bank.statement_unsupported",
    );
    expect(unknown.params).toEqual({ encoding: "x-klingon" });
    expect(await holdings(w)).toEqual({
      transactions: [
        ["2.00", "BOM-16"],
        ["2.00", "BOM-8"],
      ],
      statements: ["BOM-16", "BOM-8"],
    });
  });
});
