// VAT rates per country with their validity (table vat_rates, seeded by migrations; Lithuania only so far).
// "Today" is the country's calendar day, so a rate change at midnight in Vilnius is not three hours late.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { VatRatesRow } from "../db/rows.js";
import { formatDecimal } from "../shared/decimal.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";

type VatRate = components["schemas"]["Reference.VatRate"];

const TIME_ZONES: Record<string, string> = { LT: "Europe/Vilnius" };
const timeZoneOf = (countryCode: string) => TIME_ZONES[countryCode] ?? "UTC";

/** SQL for the country's current date; its one binding is the time zone. */
const TODAY_SQL = "(now() at time zone ?)::date";

/** A vat_rates row with whether it applies on the country's today. */
type VatRateListRow = VatRatesRow & { valid_today: boolean };

function vatRateToApi(row: VatRateListRow): VatRate {
  return {
    countryCode: row.country_code,
    rate: formatDecimal(row.rate, "percent"),
    kind: row.kind,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    validToday: row.valid_today,
    description: row.description,
  };
}

const VALID_TODAY = `(valid_from <= ${TODAY_SQL} and (valid_to is null or valid_to >= ${TODAY_SQL}))`;

function vatRateListSpec(timeZone: string): ListSpec {
  // The list engine takes trusted SQL per field; the time zone comes from our own table above, never a request.
  const quoted = `'${timeZone.replace(/'/g, "''")}'`;
  return {
    fields: {
      rate: { column: "rate", type: "decimal" },
      kind: { column: "kind", type: "string" },
      validFrom: { column: "valid_from", type: "date" },
      validTo: { column: "valid_to", type: "date" },
      validToday: { column: VALID_TODAY.replaceAll("?", quoted), type: "boolean" },
    },
    tieBreaker: ["kind", "rate", "valid_from"],
    defaultSort: [
      { field: "validFrom", dir: "desc" },
      { field: "rate", dir: "desc" },
    ],
  };
}

export async function listVatRates(db: Db, countryCode: string, request: ListRequest) {
  const timeZone = timeZoneOf(countryCode);
  const result = await runList<VatRateListRow>(
    db,
    () => db("vat_rates").where("country_code", countryCode),
    vatRateListSpec(timeZone),
    request,
    // runList types `select` as column names; knex takes a raw expression among them as well.
    ["*", db.raw(`${VALID_TODAY} as valid_today`, [timeZone, timeZone])] as unknown as string[],
  );
  return { ...result, rows: result.rows.map(vatRateToApi) };
}
