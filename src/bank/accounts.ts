// Bank accounts: a name, an IBAN (ISO 13616 checked), a BIC, a currency and the ledger account its money posts to
// (default the `bank.account` posting rule's). Unique per company, IBAN and currency (constraint
// bank_accounts_iban_currency_key): a multi-currency account — one IBAN, statements in EUR and USD — is one bank
// account per currency.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { BankAccountsRow, LedgerAccountsRow } from "../db/rows.js";
import { uniqueViolation } from "../db/transaction.js";
import { ibanProblem } from "../shared/identifiers.js";
import { accountForRule } from "../ledger/index.js";
import { ApiError, conflict, notFound } from "../shared/errors.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { isKnownCurrency } from "../shared/currencies.js";

export type BankAccount = components["schemas"]["Bank.BankAccount"];
type CreateInput = components["schemas"]["Bank.BankAccountCreateRequest"];
type UpdateInput = components["schemas"]["Bank.BankAccountUpdateRequest"];

export function bankAccountToApi(row: BankAccountsRow): BankAccount {
  return {
    id: row.id,
    name: row.name,
    iban: row.iban,
    bic: row.bic,
    currency: row.currency,
    ledgerAccountCode: row.ledger_account_code,
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const ibanTaken = (iban: string, currency: string) =>
  conflict(`Another bank account of the company has the IBAN ${iban} in ${currency}.`, "bank_account.iban_taken", { iban, currency });

function checkIban(iban: string): void {
  const problem = ibanProblem(iban);
  if (problem) throw new ApiError("unprocessable", `The IBAN ${iban} ${problem}.`, { key: "iban.invalid", params: { iban }, fieldErrors: { iban: [problem] } });
}

async function checkLedgerAccount(db: Db, companyId: string, code: string): Promise<void> {
  const account = await db<LedgerAccountsRow>("ledger_accounts").where({ company_id: companyId, code }).forShare().first("is_postable");
  if (!account?.is_postable) {
    const problem = account ? "takes no postings (a header account)" : "does not exist";
    throw new ApiError("unprocessable", `The ledger account ${code} ${problem}.`, {
      key: "bank_account.ledger_account_invalid",
      params: { ledgerAccountCode: code },
      fieldErrors: { ledgerAccountCode: [`account ${code} ${problem}`] },
    });
  }
}

async function mapIbanTaken<T>(iban: string, currency: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (uniqueViolation(error) === "bank_accounts_iban_currency_key") throw ibanTaken(iban, currency);
    throw error;
  }
}

export async function createBankAccount(trx: Db, companyId: string, input: CreateInput): Promise<BankAccount> {
  checkIban(input.iban);
  const currency = input.currency ?? "EUR";
  if (!isKnownCurrency(currency)) {
    throw new ApiError("unprocessable", `${currency} is not an ISO 4217 currency code.`, {
      key: "currency.unknown",
      params: { currency },
      fieldErrors: { currency: ["is not an ISO 4217 currency code"] },
    });
  }
  const ledgerAccountCode = input.ledgerAccountCode ?? (await accountForRule(trx, companyId, "bank.account"));
  await checkLedgerAccount(trx, companyId, ledgerAccountCode);
  const [row]: BankAccountsRow[] = await mapIbanTaken(input.iban, currency, () =>
    trx("bank_accounts")
      .insert({
        company_id: companyId,
        name: input.name,
        iban: input.iban,
        bic: input.bic ?? null,
        currency,
        ledger_account_code: ledgerAccountCode,
        active: input.active ?? true,
      })
      .returning("*"),
  );
  return bankAccountToApi(row);
}

/** The bank account `id` of the company; 404 `bank_account.not_found` (also for another company's id). */
export async function findBankAccount(db: Db, companyId: string, id: string, forUpdate = false): Promise<BankAccountsRow> {
  const query = db<BankAccountsRow>("bank_accounts").where({ company_id: companyId, id }).first();
  const row = await (forUpdate ? query.forUpdate() : query);
  if (!row) throw notFound("The bank account", "bank_account.not_found", { id });
  return row;
}

export async function getBankAccount(db: Db, companyId: string, id: string): Promise<BankAccount> {
  return bankAccountToApi(await findBankAccount(db, companyId, id));
}

export async function updateBankAccount(trx: Db, companyId: string, input: UpdateInput): Promise<BankAccount> {
  const current = await findBankAccount(trx, companyId, input.id, true);
  if (input.iban !== undefined) checkIban(input.iban);
  if (input.ledgerAccountCode !== undefined) await checkLedgerAccount(trx, companyId, input.ledgerAccountCode);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.iban !== undefined ? { iban: input.iban } : {}),
    ...(input.bic !== undefined ? { bic: input.bic } : {}),
    ...(input.ledgerAccountCode !== undefined ? { ledger_account_code: input.ledgerAccountCode } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
  };
  const [row]: BankAccountsRow[] = await mapIbanTaken(input.iban ?? current.iban, current.currency, () =>
    trx("bank_accounts")
      .where({ company_id: companyId, id: current.id })
      .update({ ...changes, updated_at: trx.fn.now() })
      .returning("*"),
  );
  return bankAccountToApi(row);
}

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    name: { column: "name", type: "string" },
    iban: { column: "iban", type: "string" },
    currency: { column: "currency", type: "string" },
    ledgerAccountCode: { column: "ledger_account_code", type: "string", sort: false },
    active: { column: "active", type: "boolean" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "name", dir: "asc" }],
};

export async function listBankAccounts(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<BankAccountsRow>(db, () => db("bank_accounts").where("company_id", companyId), listSpec, request, ["*"]);
  return { ...result, rows: result.rows.map(bankAccountToApi) };
}
