// What stock lines are checked against: the catalog (a product, active, and what its tracking asks of the line) and
// the chart (an account a stock posting names). Each failure is a 422 naming the request field.
import type { Db } from "../db/connection.js";
import { Decimal } from "../shared/decimal.js";
import { throwRuleFailures } from "../shared/identifiers.js";
import type { FieldErrors } from "../shared/errors.js";
import { periodLocked } from "../ledger/index.js";

export type StockItem = {
  code: string;
  name: string;
  type: string;
  tracking: "none" | "lot" | "serial";
  purchase_price_excl_vat: string | null;
  active: boolean;
};

/** Collects 422 field failures with a key each; `throwIfAny` raises them together. */
export class Failures {
  readonly errors: FieldErrors = {};
  readonly keys: Record<string, string> = {};
  add(path: string, key: string, message: string) {
    (this.errors[path] ??= []).push(message);
    this.keys[path] ??= key;
  }
  throwIfAny(severalKey = "inventory.invalid_lines") {
    throwRuleFailures(this.errors, this.keys, severalKey);
  }
}

/**
 * The items the lines name, by code; unknown ones and services are failures of `lines[i].itemCode`. Read FOR KEY
 * SHARE (what the movements' foreign key takes anyway, only earlier): an item deleted or recoded concurrently is
 * either seen gone here (422) or waits until the operation commits.
 */
export async function stockItems(db: Db, companyId: string, codes: string[], failures: Failures): Promise<Map<string, StockItem>> {
  const unique = [...new Set(codes)];
  const rows: StockItem[] = unique.length
    ? await db("catalog_items")
        .where("company_id", companyId)
        .whereIn("code", unique)
        .orderBy("code")
        .forKeyShare()
        .select("code", "name", "type", "tracking", "purchase_price_excl_vat", "active")
    : [];
  const byCode = new Map(rows.map((r) => [r.code, r]));
  codes.forEach((code, i) => {
    const item = byCode.get(code);
    if (!item) failures.add(`lines[${i}].itemCode`, "inventory.item_unknown", `item ${code} does not exist`);
    else if (item.type !== "product")
      failures.add(`lines[${i}].itemCode`, "inventory.item_not_stocked", `item ${code} is a ${item.type}; only products are kept in stock`);
  });
  return byCode;
}

/** Lot and serial rules of a line that takes stock out. */
export function checkIssueTracking(
  item: StockItem | undefined,
  line: { quantity: string; lotNumber?: string; serials?: string[] },
  i: number,
  failures: Failures,
) {
  if (!item) return;
  if (line.lotNumber !== undefined && item.tracking !== "lot")
    failures.add(`lines[${i}].lotNumber`, "inventory.lot_not_tracked", `item ${item.code} is not tracked by lot`);
  if (line.serials !== undefined) {
    if (item.tracking !== "serial") failures.add(`lines[${i}].serials`, "inventory.serial_not_tracked", `item ${item.code} is not tracked by serial number`);
    else checkSerials(line.serials, line.quantity, i, failures);
  } else if (item.tracking === "serial" && !new Decimal(line.quantity).isInteger()) {
    failures.add(`lines[${i}].quantity`, "inventory.serial_quantity", `item ${item.code} is tracked by serial number: a whole number of units`);
  }
}

export function checkSerials(serials: string[], quantity: string, i: number, failures: Failures) {
  if (!new Decimal(quantity).equals(serials.length)) {
    failures.add(`lines[${i}].serials`, "inventory.serial_count", `${serials.length} serial numbers for a quantity of ${quantity}: one per unit`);
  }
  const seen = new Set<string>();
  const repeated = serials.filter((s) => (seen.has(s) ? true : (seen.add(s), false)));
  if (repeated.length) failures.add(`lines[${i}].serials`, "inventory.serial_repeated", `repeated: ${[...new Set(repeated)].join(", ")}`);
}

/**
 * An account a stock posting names: it exists, takes postings, and (when `types` is given) has one of those types.
 * `field` is the request field named in the 422.
 */
export async function checkAccount(db: Db, companyId: string, code: string, field: string, types: string[] | null, failures: Failures) {
  const account = await db("ledger_accounts").where({ company_id: companyId, code }).first("type", "is_postable");
  if (!account) failures.add(field, "inventory.account_invalid", `account ${code} does not exist`);
  else if (!account.is_postable) failures.add(field, "inventory.account_invalid", `account ${code} is a header account and takes no postings`);
  else if (types && !types.includes(account.type))
    failures.add(field, "inventory.account_invalid", `account ${code} is of type ${account.type}; this posting takes ${types.join(" or ")}`);
}

/**
 * 409 `period.locked` when the date lies in a locked month: nothing moves stock there, also an operation that posts
 * nothing (a transfer, a receipt without a counter account, a write-off or count worth 0.00), or a locked month's
 * stock history would change under its closed books. The database checks it again when the operation is written
 * (trigger stock_operations_open_period, under the company's period lock).
 */
export async function refuseLockedMonth(db: Db, companyId: string, date: string): Promise<void> {
  // ledger_month_locked: a lock of the month, or a lock through a date on or after it (migration 20261127000400).
  const { rows } = await db.raw<{ rows: { locked: boolean }[] }>("select ledger_month_locked(?, ?::date) as locked", [companyId, date]);
  if (rows[0].locked) throw periodLocked(date.slice(0, 7));
}
