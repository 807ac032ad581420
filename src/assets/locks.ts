import type { Db } from "../db/connection.js";

/**
 * Serializes, per company, what moves the assets' figures: the monthly run, a disposal, a change of an asset's
 * figures (issue 11: months in order, a posted month never changes). A transaction-level advisory lock: released at
 * commit or rollback.
 */
export async function lockCompanyAssets(trx: Db, companyId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtextextended('fixed_assets:' || ?::text, 0))", [companyId]);
}
