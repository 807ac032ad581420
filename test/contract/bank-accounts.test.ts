// bank/accounts/*: create (IBAN checked, unique per company and currency, ledger account postable, default from the
// `bank.account` rule), get, list, update; tenancy and scopes. Every case reads the stored rows back.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { expectApiError, invalid } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { bankWorld, ibanOf, newIban } from "../support/bank.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness(process.env.BANK_DEBUG ? { log: (await import("pino")).pino({ level: "error" }) } : {});
}, 180_000);
afterAll(() => h.close());

const stored = (companyId: string) =>
  h.db("bank_accounts").where({ company_id: companyId }).orderBy("created_at").select("name", "iban", "bic", "currency", "ledger_account_code", "active");

describe("bank accounts", () => {
  test("create defaults the ledger account from bank.account and EUR; get, list, update", async () => {
    const w = await bankWorld(h);
    expect(w.account).toMatchObject({ name: "Swedbank EUR", bic: "HABALT22", currency: "EUR", ledgerAccountCode: "2710", active: true });
    await w.api.ledger.postingRules.update({ rule: "bank.account", accountCode: "2711" });
    const usd = await w.api.bank.accounts.create({ name: "SEB USD", iban: ibanOf("LT", "7044060009876543"), currency: "USD" });
    expect(usd).toMatchObject({ currency: "USD", ledgerAccountCode: "2711", bic: null });
    expect(await w.api.bank.accounts.get({ id: usd.id })).toEqual(usd);

    const list = await w.api.bank.accounts.list({ sort: [{ field: "name", dir: "asc" }] });
    expect([list.total, list.rows.map((a) => a.name)]).toEqual([2, ["SEB USD", "Swedbank EUR"]]);
    expect((await w.api.bank.accounts.list({ filter: [{ field: "currency", op: "eq", value: "USD" }] })).rows.map((a) => a.id)).toEqual([usd.id]);

    await new Promise((r) => setTimeout(r, 20));
    const updated = await w.api.bank.accounts.update({ id: usd.id, name: "SEB doleriai", bic: null, active: false, ledgerAccountCode: "2710" });
    expect(updated).toMatchObject({ name: "SEB doleriai", active: false, ledgerAccountCode: "2710", iban: usd.iban });
    expect(updated.updatedAt > usd.updatedAt).toBe(true);
    expect(await stored(w.companyId)).toEqual([
      { name: "Swedbank EUR", iban: w.account.iban, bic: "HABALT22", currency: "EUR", ledger_account_code: "2710", active: true },
      { name: "SEB doleriai", iban: usd.iban, bic: null, currency: "USD", ledger_account_code: "2710", active: false },
    ]);
  });

  test.each([
    ["an IBAN failing mod 97", { iban: "LT217300010075123456" }, 422, "unprocessable", "iban.invalid", "iban"],
    ["an IBAN of the wrong length for LT", { iban: ibanOf("LT", "730001007512345") }, 422, "unprocessable", "iban.invalid", "iban"],
    ["a header ledger account", { ledgerAccountCode: "271" }, 422, "unprocessable", "bank_account.ledger_account_invalid", "ledgerAccountCode"],
    ["a ledger account that does not exist", { ledgerAccountCode: "2799" }, 422, "unprocessable", "bank_account.ledger_account_invalid", "ledgerAccountCode"],
    ["an unknown currency", { currency: "XYZ" }, 422, "unprocessable", "currency.unknown", "currency"],
    ["a malformed BIC", { bic: "HABA" }, 400, "validation", "request.invalid", "bic"],
  ])("%s -> %p naming the field, nothing stored", async (_name, over, status, code, key, field) => {
    const w = await bankWorld(h);
    const error = await expectApiError(w.api.bank.accounts.create(invalid({ name: "X", iban: newIban(), ...over })), status, code, key);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await stored(w.companyId)).toHaveLength(1);
  });

  test("a bank account is unique per company, IBAN and currency (409): a multi-currency IBAN has one per currency; not across companies; update to a taken IBAN is 409 too", async () => {
    const w = await bankWorld(h);
    const iban = w.account.iban;
    const again = await expectApiError(w.api.bank.accounts.create({ name: "Again", iban }), 409, "conflict", "bank_account.iban_taken");
    expect(again.params).toEqual({ iban, currency: "EUR" });
    // The USD side of the same multi-currency account is a bank account of its own; a second USD one is not.
    const usd = await w.api.bank.accounts.create({ name: "Swedbank USD", iban, currency: "USD", ledgerAccountCode: "2711" });
    expect(usd).toMatchObject({ iban, currency: "USD", ledgerAccountCode: "2711" });
    const usdAgain = await expectApiError(w.api.bank.accounts.create({ name: "USD again", iban, currency: "USD" }), 409, "conflict", "bank_account.iban_taken");
    expect(usdAgain.params).toEqual({ iban, currency: "USD" });
    const other = await bankWorld(h);
    expect((await other.api.bank.accounts.create({ name: "Same IBAN elsewhere", iban })).iban).toBe(iban);

    // Update: an EUR account may not take an IBAN that has an EUR account; a GBP account may take it.
    const second = await w.api.bank.accounts.create({ name: "Second", iban: newIban() });
    await expectApiError(w.api.bank.accounts.update({ id: second.id, iban }), 409, "conflict", "bank_account.iban_taken");
    const gbp = await w.api.bank.accounts.create({ name: "GBP", iban: newIban(), currency: "GBP" });
    expect(await w.api.bank.accounts.update({ id: gbp.id, iban })).toMatchObject({ iban, currency: "GBP" });
    expect((await stored(w.companyId)).map((a) => [a.name, a.iban, a.currency])).toEqual([
      ["Swedbank EUR", iban, "EUR"],
      ["Swedbank USD", iban, "USD"],
      ["Second", second.iban, "EUR"],
      ["GBP", iban, "GBP"],
    ]);

    // The rule is the database's too (constraint bank_accounts_iban_currency_key), whoever writes the row.
    const row = await h
      .db("bank_accounts")
      .where({ company_id: w.companyId, id: usd.id })
      .first("company_id", "name", "iban", "currency", "ledger_account_code");
    await expect(h.db("bank_accounts").insert({ ...row, name: "Direct" })).rejects.toMatchObject({
      code: "23505",
      constraint: "bank_accounts_iban_currency_key",
    });
    await h.db("bank_accounts").insert({ ...row, name: "Direct CHF", currency: "CHF" });
    expect(await h.db("bank_accounts").where({ company_id: w.companyId, iban }).orderBy("currency").pluck("currency")).toEqual(["CHF", "EUR", "GBP", "USD"]);
  });

  test("another company's account is 404 on get and update; scopes: bank:read reads, only bank:write writes", async () => {
    const w = await bankWorld(h);
    const other = await bankWorld(h);
    await expectApiError(other.api.bank.accounts.get({ id: w.account.id }), 404, "not_found", "bank_account.not_found");
    await expectApiError(other.api.bank.accounts.update({ id: w.account.id, name: "Mine" }), 404, "not_found", "bank_account.not_found");
    expect((await other.api.bank.accounts.list({})).rows.map((a) => a.id)).toEqual([other.account.id]);

    const read = await w.api.account.apiKeys.create({ name: "r", scopes: ["bank:read"] });
    const sales = await w.api.account.apiKeys.create({ name: "s", scopes: ["sales:write"] });
    const reader = h.sdk(read.key, w.companyId);
    expect((await reader.bank.accounts.list({})).total).toBe(1);
    await expectApiError(reader.bank.accounts.create({ name: "X", iban: newIban() }), 403, "forbidden", "auth.scope_missing");
    await expectApiError(h.sdk(sales.key, w.companyId).bank.accounts.list({}), 403, "forbidden", "auth.scope_missing");
    expect((await stored(w.companyId)).map((a) => a.name)).toEqual(["Swedbank EUR"]);
    expect((await stored(other.companyId)).map((a) => a.name)).toEqual(["Swedbank EUR"]);
  });
});
