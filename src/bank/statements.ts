// bank/statements/import: a camt.053 file's statements checked (IBAN, currency, balances), each routed to the bank
// account of its IBAN and currency, and their transactions stored once. All or nothing: the whole import runs in the
// request's transaction, so a statement that fails leaves nothing.
import { randomUUID } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { plainQuery } from "../db/prepared.js";
import type { BankAccountsRow } from "../db/rows.js";
import { formatDecimal } from "../shared/decimal.js";
import { ApiError } from "../shared/errors.js";
import { findBankAccount } from "./accounts.js";
import { parseCamt053, type CamtStatement } from "./camt.js";
import { dedupeKeys, refuseRepeatedReferences, storeRows } from "./transactions.js";

type ImportInput = components["schemas"]["Bank.StatementImportRequest"];
type ImportResult = components["schemas"]["Bank.StatementImportResult"];

/** The largest file accepted, decoded (issue 12). */
export const MAX_STATEMENT_BYTES = 10 * 1024 * 1024;

// Base64 once the line breaks MIME writes are taken out. Checked in two linear steps: one pattern that allowed the
// line breaks itself (`^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$`) backtracked quadratically on a long run of line breaks
// followed by anything else — a 1 MB body held the event loop for minutes. The character classes of this pattern
// and `=` are disjoint, so it never backtracks.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const ZERO = /^-?0\.00$/;

function decode(contentBase64: string): Buffer {
  const compact = contentBase64.replace(/[\r\n]+/g, "");
  if (!BASE64.test(compact)) {
    throw new ApiError("validation", "contentBase64 is not base64.", { key: "bank.statement_invalid", fieldErrors: { contentBase64: ["is not base64"] } });
  }
  // The decoded size follows from the text's length; refuse before decoding anything too large.
  if (Math.floor((compact.replace(/=+$/, "").length * 3) / 4) > MAX_STATEMENT_BYTES) {
    throw new ApiError("payload_too_large", `The statement file exceeds ${MAX_STATEMENT_BYTES} bytes (10 MB).`, {
      key: "request.body_too_large",
      params: { maxBytes: MAX_STATEMENT_BYTES },
    });
  }
  return Buffer.from(compact, "base64");
}

const money = (v: { toFixed(n: number): string }) => formatDecimal(v.toFixed(2), "money");
const label = (s: CamtStatement, i: number) => `Statement ${i + 1} (${s.ref ?? "no id"})`;

function refuseOtherIban(statements: CamtStatement[], iban: string): void {
  statements.forEach((s, i) => {
    if (s.iban !== iban) {
      throw new ApiError("unprocessable", `${label(s, i)} is of the account ${s.iban ?? "(no IBAN)"}, not ${iban}.`, {
        key: "bank.statement_iban_mismatch",
        params: { statement: i + 1, statementId: s.ref, statementIban: s.iban, accountIban: iban },
      });
    }
  });
}

/** What can be checked in the file alone: each statement in one currency, its balances adding up. */
function checkStatement(s: CamtStatement, i: number): void {
  // A bank account holds one currency, posted to one ledger account: a statement (Acct/Ccy) goes to the bank account
  // of its IBAN and currency, and its balances and booked amounts are in that currency. What a foreign payment
  // instructed in its own currency is kept as the transaction's original amount.
  const foreign = s.foreignCurrency;
  if (foreign) {
    throw new ApiError(
      "unprocessable",
      `${label(s, i)} is in ${s.currency} but states ${foreign.currency} at ${foreign.path}; its balances and booked amounts must be in ${s.currency}.`,
      {
        key: "bank.statement_currency_mismatch",
        params: { statement: i + 1, statementId: s.ref, path: foreign.path, currency: foreign.currency, accountCurrency: s.currency },
      },
    );
  }
  const expected = s.openingBalance.plus(s.entriesTotal);
  if (!expected.equals(s.closingBalance)) {
    throw new ApiError(
      "unprocessable",
      `${label(s, i)}: the opening balance ${money(s.openingBalance)} plus the entries ${money(s.entriesTotal)} is ${money(expected)}, not the closing balance ${money(s.closingBalance)}.`,
      {
        key: "bank.statement_unbalanced",
        params: {
          statement: i + 1,
          statementId: s.ref,
          openingBalance: money(s.openingBalance),
          entriesTotal: money(s.entriesTotal),
          expectedClosingBalance: money(expected),
          closingBalance: money(s.closingBalance),
        },
      },
    );
  }
}

/**
 * The company's bank accounts of `iban`, one per currency, locked in id order: every import takes the locks of an
 * IBAN's accounts in the same order, so that an import naming the EUR account and one naming the USD account of the
 * same multi-currency file do not deadlock.
 */
async function lockAccountsOfIban(trx: Db, companyId: string, iban: string): Promise<Map<string, BankAccountsRow>> {
  const rows = await trx<BankAccountsRow>("bank_accounts").where({ company_id: companyId, iban }).orderBy("id").forUpdate();
  return new Map(rows.map((a) => [a.currency, a]));
}

/**
 * The bank account each statement goes to, locked: the company's account of the named one's IBAN in the statement's
 * currency; 422 `bank.statement_account_missing` for a statement in a currency the company has no account of.
 */
async function targetAccounts(
  trx: Db,
  companyId: string,
  named: { id: string; iban: string; currency: string },
  statements: CamtStatement[],
): Promise<BankAccountsRow[]> {
  const accounts = await lockAccountsOfIban(trx, companyId, named.iban);
  if (accounts.get(named.currency)?.id !== named.id) {
    // Its IBAN changed since it was read (a concurrent update committed): judge the file by the account as it is now.
    refuseOtherIban(statements, (await findBankAccount(trx, companyId, named.id, true)).iban);
  }
  return statements.map((s, i) => {
    const account = accounts.get(s.currency);
    if (!account) {
      throw new ApiError(
        "unprocessable",
        `${label(s, i)} is of the account ${s.iban} in ${s.currency}, and the company has no ${s.currency} bank account with that IBAN: create one (bank/accounts/create with iban ${s.iban} and currency ${s.currency}), then import the file again. Nothing was imported.`,
        { key: "bank.statement_account_missing", params: { statement: i + 1, statementId: s.ref, iban: s.iban, currency: s.currency } },
      );
    }
    return account;
  });
}

// The statement rows' figures once the transactions are in; a statement that brought nothing new (a re-import)
// leaves no record. It answers the transactions the import created: the file's rows (bank account, dedupe key: the
// unique index) stored under one of its new statements; the rows' keys give them the file's order.
const SETTLE_STATEMENTS_SQL = `
  with figures as (select * from unnest($2::uuid[], $3::int[], $4::int[]) as f(id, imported, duplicates)),
  emptied as (delete from bank_statements s using figures f where s.company_id = $1 and s.id = f.id and f.imported = 0),
  settled as (update bank_statements s set imported = f.imported, duplicates = f.duplicates from figures f where s.company_id = $1 and s.id = f.id and f.imported > 0)
  select t.id, t.statement_id, t.dedupe_key
    from unnest($5::uuid[], $6::text[]) as r(bank_account_id, dedupe_key)
    join bank_transactions t on t.company_id = $1 and t.bank_account_id = r.bank_account_id and t.dedupe_key = r.dedupe_key
   where t.statement_id = any($2::uuid[])`;

/**
 * Imports a camt.053 file. Its statements are of the named bank account's IBAN; each goes to the company's bank
 * account of that IBAN in the statement's currency — the named one for its own currency, another one (a
 * multi-currency account's USD side) for another: 422 `bank.statement_account_missing` when the company has none.
 * All or nothing: it runs in the request's transaction. The file is read before any lock is taken; the rows of all
 * statements are written by one statement.
 */
export async function importStatement(trx: Db, companyId: string, keyId: string, input: ImportInput): Promise<ImportResult> {
  const named = await findBankAccount(trx, companyId, input.bankAccountId);
  const { version, statements } = parseCamt053(decode(input.contentBase64));
  refuseOtherIban(statements, named.iban);
  statements.forEach(checkStatement);

  const targets = await targetAccounts(trx, companyId, named, statements);

  // Entries of no amount move nothing and are not kept.
  const rowsOf = statements.map((s) => s.transactions.filter((t) => !ZERO.test(t.amount)));
  const rows = rowsOf.flat();
  // Numbered over the whole file: identical entries in two of its statements stay two transactions.
  const keys = dedupeKeys(rows);
  const bankAccountIds = rowsOf.flatMap((r, i) => r.map(() => targets[i].id));
  refuseRepeatedReferences(
    rows,
    keys,
    bankAccountIds,
    rowsOf.flatMap((r, i) => r.map(() => i)),
  );

  const statementIds = statements.map(() => randomUUID());
  await trx("bank_statements").insert(
    statements.map((s, i) => ({
      company_id: companyId,
      id: statementIds[i],
      bank_account_id: targets[i].id,
      format: version,
      statement_ref: s.ref,
      from_date: s.fromDate,
      to_date: s.toDate,
      opening_balance: s.openingBalance.toFixed(2),
      closing_balance: s.closingBalance.toFixed(2),
      currency: s.currency,
      imported: 0,
      duplicates: 0,
      created_by_key_id: keyId,
    })),
  );
  const counts = await storeRows(trx, companyId, {
    rows,
    keys,
    bankAccountIds,
    statementIds: rowsOf.flatMap((r, i) => r.map(() => statementIds[i])),
  });
  const statementOf = rowsOf.flatMap((r, i) => r.map(() => i));
  const byStatement = statements.map((s, i) => {
    const imported = counts.get(statementIds[i]) ?? 0;
    return {
      statementRef: s.ref,
      iban: s.iban!,
      currency: s.currency,
      bankAccountId: targets[i].id,
      statementId: imported > 0 ? statementIds[i] : null,
      fromDate: s.fromDate,
      toDate: s.toDate,
      openingBalance: money(s.openingBalance),
      closingBalance: money(s.closingBalance),
      imported,
      duplicates: rowsOf[i].length - imported,
      transactionIds: [] as string[],
    };
  });
  const created = await plainQuery<{ id: string; statement_id: string; dedupe_key: string }>(trx, SETTLE_STATEMENTS_SQL, [
    companyId,
    statementIds,
    byStatement.map((s) => s.imported),
    byStatement.map((s) => s.duplicates),
    bankAccountIds,
    keys,
  ]);
  // In the file's order: a row's dedupe key is unique within its statement's (new) rows.
  const createdId = new Map(created.map((t) => [`${t.statement_id} ${t.dedupe_key}`, t.id]));
  keys.forEach((key, n) => {
    const id = createdId.get(`${statementIds[statementOf[n]]} ${key}`);
    if (id !== undefined) byStatement[statementOf[n]].transactionIds.push(id);
  });

  const own = byStatement.filter((s) => s.bankAccountId === named.id);
  return {
    statements: statements.length,
    imported: byStatement.reduce((n, s) => n + s.imported, 0),
    duplicates: byStatement.reduce((n, s) => n + s.duplicates, 0),
    currency: named.currency,
    openingBalance: own.length ? own[0].openingBalance : null,
    closingBalance: own.length ? own[own.length - 1].closingBalance : null,
    byStatement,
  };
}
