// Migration of historical books (issue 13): `migration/books/validate` and `migration/books/import`. Both check the
// whole package the same way (check.ts) and answer the same result; the import then writes it (write.ts) in the
// caller's one transaction, under a per-company lock, records the audit entry and emits `migration.imported`.
import { grants } from "../auth/scopes.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import { forbidden } from "../errors.js";
import { emitEvent } from "../events/emit.js";
import { planBooks } from "./check.js";
import type { BooksPackage, BooksResult } from "./types.js";
import { seriesResult, writeBooks, type Progress } from "./write.js";

/** The write scope of each section (spec: "Authentication", 4); `ledger:write` is the operations' own scope. */
const SECTION_SCOPES: [keyof BooksPackage, string][] = [
  ["partners", "partners:write"],
  ["items", "catalog:write"],
  ["openReceivables", "sales:write"],
  ["openPayables", "purchases:write"],
  ["assetGroups", "assets:write"],
  ["fixedAssets", "assets:write"],
  ["stock", "inventory:write"],
];

/** 403 naming the first scope a section present in the package needs and the key lacks. */
export function requireSectionScopes(held: readonly string[], pkg: BooksPackage): void {
  for (const [section, scope] of SECTION_SCOPES) {
    if (pkg[section] !== undefined && !grants(held, scope)) {
      throw forbidden(`This API key lacks the scope ${scope}, which the section ${section} needs.`, "auth.scope_missing", { requiredScope: scope, section });
    }
  }
}

/**
 * Serializes the imports of one company (rule 1). A transaction-level advisory lock: released at commit or rollback,
 * so it works behind a transaction-pooling PgBouncer and is gone when the process holding it dies.
 */
export async function lockCompanyBooks(trx: Db, companyId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtextextended('migration:books:' || ?::text, 0))", [companyId]);
}

/** Every check, nothing written (`dryRun: true`). */
export async function validateBooks(db: Db, company: CompanyContext, pkg: BooksPackage): Promise<BooksResult> {
  return (await planBooks(db, company, pkg)).result;
}

/** Everything in `trx`, or nothing (`dryRun: false`). */
export async function importBooks(trx: Db, company: CompanyContext, keyId: string | null, pkg: BooksPackage, progress?: Progress): Promise<BooksResult> {
  await lockCompanyBooks(trx, company.id);
  const plan = await planBooks(trx, company, pkg);
  progress?.("checks");
  const written = await writeBooks(trx, company.id, keyId, plan.writes, progress);
  const planned = plan.result;
  const result: BooksResult = {
    ...planned,
    dryRun: false,
    openingBalances: planned.openingBalances && { ...planned.openingBalances, journalTransactionId: written.openingId },
    numberSeries: seriesResult(planned.numberSeries, written.series),
  };
  await emitEvent(trx, company.id, "migration.imported", result);
  return result;
}
