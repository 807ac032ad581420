// `npm run admin -- migrate-books --company <id> --file <package.json> [--dry-run]` (issue 13): the operator's way to
// the same validate/import as the API, without the HTTP body limit's round trip. The package is checked against the
// contract's schema (as the API checks a request body), then validated or imported in one transaction with the audit
// record (no API key: key_id is null) and the event. Progress goes to stderr, the result JSON to stdout (admin.ts).
// A package imported before is refused here as through the API (409 `migration.package_imported`; `repeatOf` in the
// file imports it once more on purpose).
import { statSync } from "node:fs";
import { recordAudit } from "../account/index.js";
import type { Db } from "../db/connection.js";
import { withTransaction } from "../db/transaction.js";
import { notFound } from "../shared/errors.js";
import { importBooks, localBooks, validateBooks } from "./books.js";
import { readPackageFile } from "./package-file.js";
import type { BooksResult } from "./types.js";

const PARTS = ["read", "contract", "checks", "master data", "opening", "journal", "invoices, assets", "stock", "commit"];

/** A bar on stderr: `[########------------] 40% journal`. */
function progressBar(total: number) {
  let done = 0;
  return (part: string) => {
    done++;
    const width = 24;
    const filled = Math.round((done / total) * width);
    process.stderr.write(`[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round((done / total) * 100)).padStart(3)}% ${part}\n`);
  };
}

export async function migrateBooks(db: Db, companyId: string, file: string, dryRun: boolean): Promise<BooksResult> {
  const step = progressBar(dryRun ? 3 : PARTS.length);
  statSync(file);
  step("read");
  const input = localBooks(readPackageFile(file));
  step("contract");
  const row = await db("companies").where({ id: companyId }).first("id", "account_id", "country_code", "base_currency", "invoice_currency");
  if (!row) throw notFound("The company", "company.not_found", { companyId });
  const company = { id: row.id, countryCode: row.country_code, baseCurrency: row.base_currency, invoiceCurrency: row.invoice_currency };
  if (dryRun) {
    const result = await validateBooks(db, company, input);
    step("checks");
    return result;
  }
  const result = await withTransaction(db, async (trx) => {
    const imported = await importBooks(trx, company, { keyId: null, requestId: "cli" }, input, step);
    await recordAudit(
      trx,
      { accountId: row.account_id, companyId, keyId: null, requestId: "cli", operationPath: "/v1/migration/books/import" },
      {
        operation: "migration.imported",
        targetIds: imported.openingBalances?.journalTransactionId ? [imported.openingBalances.journalTransactionId] : [],
        summary: imported,
      },
      imported,
    );
    return imported;
  });
  step("commit");
  return result;
}
