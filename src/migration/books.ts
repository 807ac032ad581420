// Migration of historical books (issue 13): `migration/books/validate` and `migration/books/import`. Both check the
// whole package the same way (check.ts) and answer the same result; the import then writes it (write.ts) in the
// caller's one transaction, under a per-company lock, records the import of the package (migration_imports, issue
// 22), the audit entry, and emits `migration.imported`.
//
// The package itself is reached only through a BooksInput (issue 22, item 4): its digest (sections, lookups,
// fingerprint: digest.ts) and its checks against the service's data. For a request body both are computed in the
// worker thread that parsed it (src/handlers/migration/books/offload.ts), so that a 32 MB package never occupies the
// event loop; for the operator CLI, in the process (localBooks).
import { grants } from "../auth/scopes.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import { plainQuery } from "../db/prepared.js";
import { violatedConstraint } from "../db/transaction.js";
import { conflict, forbidden } from "../shared/errors.js";
import { emitEvent } from "../events/index.js";
import { checkBooks, type Plan } from "./check.js";
import { loadContext, type BooksContext } from "./context.js";
import { booksDigest } from "./digest.js";
import type { BooksDigest, BooksPackage, BooksResult } from "./types.js";
import { seriesResult, writeBooks, type Progress } from "./write.js";

/** A package as the operations see it: its digest, and its checks run where the package is. */
export interface BooksInput {
  digest: BooksDigest;
  /** checkBooks on the package (`writes: false`: the result only, for validate). */
  check(company: CompanyContext, ctx: BooksContext, writes: boolean): Promise<CheckOutcome>;
}

export interface CheckOutcome {
  result: BooksResult;
  writes: Plan["writes"] | null;
}

/** checkBooks' outcome as plain data (what a worker thread answers). */
export function checkOutcome(company: CompanyContext, pkg: BooksPackage, ctx: BooksContext, writes: boolean): CheckOutcome {
  const plan = checkBooks(company, pkg, ctx);
  return { result: plan.result, writes: writes ? plan.writes : null };
}

/** A package held in this process (the operator CLI). */
export function localBooks(pkg: BooksPackage): BooksInput {
  return { digest: booksDigest(pkg), check: async (company, ctx, writes) => checkOutcome(company, pkg, ctx, writes) };
}

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
export function requireSectionScopes(held: readonly string[], sections: readonly (keyof BooksPackage)[]): void {
  for (const [section, scope] of SECTION_SCOPES) {
    if (sections.includes(section) && !grants(held, scope)) {
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
export async function validateBooks(db: Db, company: CompanyContext, input: BooksInput): Promise<BooksResult> {
  const ctx = await loadContext(db, company.id, input.digest.lookups);
  return (await input.check(company, ctx, false)).result;
}

/** Who imports: the API key (null from the CLI) and the request (`cli` from the CLI). */
export interface Importer {
  keyId: string | null;
  requestId: string;
}

/** Everything in `trx`, or nothing (`dryRun: false`). */
export async function importBooks(trx: Db, company: CompanyContext, who: Importer, input: BooksInput, progress?: Progress): Promise<BooksResult> {
  await lockCompanyBooks(trx, company.id);
  const ctx = await loadContext(trx, company.id, input.digest.lookups);
  const { result: planned, writes } = await input.check(company, ctx, true);
  progress?.("checks");
  const written = await writeBooks(trx, company.id, who.keyId, writes!, progress);
  await recordImport(trx, company.id, who, input.digest);
  const result: BooksResult = {
    ...planned,
    dryRun: false,
    openingBalances: planned.openingBalances && { ...planned.openingBalances, journalTransactionId: written.openingId },
    numberSeries: seriesResult(planned.numberSeries, written.series),
  };
  await emitEvent(trx, company.id, "migration.imported", result);
  return result;
}

/**
 * The import of this package (issue 22, item 2), in the import's transaction. The database holds the rule too: one
 * import per fingerprint and company that repeats nothing (migration_imports_once), each import repeated at most
 * once (migration_imports_repeated_once), and a repeat names an import of the same fingerprint (its foreign key).
 */
async function recordImport(trx: Db, companyId: string, who: Importer, digest: BooksDigest): Promise<void> {
  try {
    await plainQuery(
      trx,
      `insert into migration_imports (company_id, fingerprint, repeat_of, cutover_date, source, key_id, request_id)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [companyId, digest.fingerprint, digest.repeatOf, digest.cutoverDate, digest.source, who.keyId, who.requestId],
    );
  } catch (error) {
    const violation = violatedConstraint(error);
    if (violation?.constraint.startsWith("migration_imports_")) {
      throw conflict(
        "This package was imported into the company meanwhile; nothing was imported again. Validate it again to see that import.",
        "migration.package_imported",
        {
          constraint: violation.constraint,
        },
      );
    }
    throw error;
  }
}
