// Operator CLI (README: "Operator CLI"). Works against the same database as `npm start` (DATABASE_URL, or the
// embedded server under DATA_DIR, started for the command when the API is not running). Prints one JSON line.
//   bootstrap --name "<account name>" [--email owner@example.com]
//   owner-email --account <id> --email owner@example.com
//   billing   --account <id> [--trial-ends YYYY-MM-DD|none] [--credit <decimal>]
//   key-limit --key <keyId> --per-minute <n|default>
//   rates-sync [--date YYYY-MM-DD]
//   rates-backfill --from YYYY-MM-DD --to YYYY-MM-DD
//   migrate-books --company <id> --file <package.json> [--dry-run]   (progress on stderr, result on stdout)
import { parseArgs } from "node:util";
import { loadConfig, type Config } from "../config.js";
import { withTransaction } from "../db/transaction.js";
import { backfillExchangeRates, syncExchangeRates } from "../reference/exchange-rates.js";
import { ApiError } from "../shared/errors.js";
import { isIsoDate } from "../shared/dates.js";
import { createDb, type Db } from "../db/connection.js";
import { migrate } from "../db/migrate.js";
import { resolveDatabase } from "../database.js";
import { bootstrapAccount, setBilling, setKeyLimit, setOwnerEmail } from "../account/accounts.js";
import { migrateBooks } from "../migration/cli.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USAGE = `usage: npm run admin -- bootstrap --name "<account name>" [--email owner@example.com]
       npm run admin -- owner-email --account <id> --email owner@example.com
       npm run admin -- billing --account <id> [--trial-ends YYYY-MM-DD|none] [--credit <decimal>]
       npm run admin -- key-limit --key <keyId> --per-minute <n|default>
       npm run admin -- rates-sync [--date YYYY-MM-DD]
       npm run admin -- rates-backfill --from YYYY-MM-DD --to YYYY-MM-DD
       npm run admin -- migrate-books --company <id> --file <package.json> [--dry-run]`;

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

function uuid(value: string | undefined, flag: string): string {
  const v = required(value, flag);
  if (!UUID.test(v)) throw new UsageError(`${flag} must be a UUID`);
  return v;
}

function email(value: string | undefined, flag: string): string {
  const v = required(value, flag).trim();
  if (!EMAIL.test(v) || v.length > 254) throw new UsageError(`${flag} must be an e-mail address`);
  return v;
}

function date(value: string | undefined, flag: string): string {
  const v = required(value, flag);
  if (!isIsoDate(v)) throw new UsageError(`${flag} must be a date YYYY-MM-DD`);
  return v;
}

async function execute(db: Db, config: Config, command: string, values: Record<string, string | undefined>): Promise<unknown> {
  switch (command) {
    case "bootstrap": {
      const name = required(values.name, "--name").trim();
      if (!name || name.length > 255) throw new UsageError("--name must be 1 to 255 characters");
      const ownerEmail = values.email === undefined ? undefined : email(values.email, "--email");
      const { accountId, apiKey } = await bootstrapAccount(db, name, ownerEmail);
      return { accountId, apiKey, ...(ownerEmail ? { ownerEmail } : {}) };
    }
    case "owner-email":
      return setOwnerEmail(db, uuid(values.account, "--account"), email(values.email, "--email"));
    case "billing": {
      const accountId = uuid(values.account, "--account");
      if (values["trial-ends"] === undefined && values.credit === undefined) throw new UsageError("give --trial-ends and/or --credit");
      const trialEnds = values["trial-ends"];
      if (trialEnds !== undefined && trialEnds !== "none" && !isIsoDate(trialEnds)) {
        throw new UsageError("--trial-ends must be YYYY-MM-DD or none");
      }
      if (values.credit !== undefined && !/^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/.test(values.credit)) {
        throw new UsageError("--credit must be a decimal like 25.00");
      }
      return setBilling(db, accountId, { trialEndsAt: trialEnds === "none" ? null : trialEnds, credit: values.credit });
    }
    case "key-limit": {
      const keyId = uuid(values.key, "--key");
      const raw = required(values["per-minute"], "--per-minute");
      if (raw !== "default" && !/^[1-9][0-9]{0,8}$/.test(raw)) throw new UsageError("--per-minute must be a positive integer or default");
      return setKeyLimit(db, keyId, raw === "default" ? null : Number(raw));
    }
    case "rates-sync": {
      const day = values.date === undefined ? undefined : date(values.date, "--date");
      return withTransaction(db, (trx) => syncExchangeRates(trx, config.exchangeRatesUrl, day));
    }
    case "rates-backfill": {
      const from = date(values.from, "--from");
      const to = date(values.to, "--to");
      if (from > to) throw new UsageError("--from must not be after --to");
      return withTransaction(db, (trx) => backfillExchangeRates(trx, config.exchangeRatesUrl, from, to));
    }
    case "migrate-books":
      return migrateBooks(db, uuid(values.company, "--company"), required(values.file, "--file"), values["dry-run"] === "true");
    default:
      throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  }
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        name: { type: "string" },
        email: { type: "string" },
        account: { type: "string" },
        "trial-ends": { type: "string" },
        credit: { type: "string" },
        key: { type: "string" },
        "per-minute": { type: "string" },
        date: { type: "string" },
        from: { type: "string" },
        to: { type: "string" },
        company: { type: "string" },
        file: { type: "string" },
        "dry-run": { type: "boolean" },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const target = await resolveDatabase(config);
  const db = createDb({
    connectionString: target.connectionString,
    poolMax: 2,
    applicationName: "accounting-admin",
    namedStatements: target.pooling === "session",
  });
  try {
    await migrate(target.directConnectionString);
    const { "dry-run": dryRun, ...values } = parsed.values;
    const result = await execute(db, config, parsed.positionals[0], { ...values, "dry-run": dryRun ? "true" : undefined });
    console.log(JSON.stringify(result));
    return 0;
  } catch (error) {
    console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : `error: ${(error as Error).message}`);
    if (error instanceof ApiError && error.key) console.error(`(${error.key})`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await db.destroy();
    await target.release();
  }
}

process.exitCode = await main();
