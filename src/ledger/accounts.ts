// The chart of accounts. Hierarchy and posting rules are enforced by the database (ledger_account_checks) as
// well; the checks here give the clear 4xx first.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { LedgerAccountsRow } from "../db/rows.js";
import { violatedConstraint } from "../db/transaction.js";
import { conflict, notFound, unprocessable, validationError } from "../shared/errors.js";
import { LT_STANDARD, saftAccountTypeOf, saftGrouping } from "./lt-standard.js";
import { runList, type ListRequest, type ListSpec } from "../shared/list-engine.js";
import { POSTING_RULES } from "./posting-rules.js";
import { rulesPostingTo } from "./posting-rules.js";

type LedgerAccount = components["schemas"]["Ledger.LedgerAccount"];
type CreateInput = components["schemas"]["Ledger.LedgerAccountCreateRequest"];
type UpdateInput = components["schemas"]["Ledger.LedgerAccountUpdateRequest"];
type GetInput = components["schemas"]["Ledger.LedgerAccountGetRequest"];

const TEMPLATES = { "lt-standard": LT_STANDARD } as const;

/** Whether an account has sub-accounts, and sub-sub-accounts (for its SAF-T grouping category); `a` is the account. */
const HIERARCHY_FLAGS = `
  exists (select 1 from ledger_accounts c where c.company_id = a.company_id and c.parent_code = a.code) as has_children,
  exists (select 1 from ledger_accounts c join ledger_accounts g on g.company_id = c.company_id and g.parent_code = c.code
           where c.company_id = a.company_id and c.parent_code = a.code) as has_grandchildren`;

/** A row of ledger_accounts with its hierarchy flags (HIERARCHY_FLAGS). */
type AccountRow = LedgerAccountsRow & { has_children: boolean; has_grandchildren: boolean };

/** A row of ledger_accounts (as `a`) with its hierarchy flags. */
export const accountRows = (db: Db, companyId: string) => db({ a: "ledger_accounts" }).where("a.company_id", companyId).select("a.*", db.raw(HIERARCHY_FLAGS));

async function accountByCode(db: Db, companyId: string, code: string): Promise<LedgerAccount> {
  const row: AccountRow = await accountRows(db, companyId).where("a.code", code).first();
  return accountToApi(row);
}

export function accountToApi(row: AccountRow): LedgerAccount {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    nameEn: row.name_en,
    type: row.type,
    parentCode: row.parent_code,
    isPostable: row.is_postable,
    isContra: row.is_contra,
    statementLine: row.statement_line,
    saft: {
      accountTableId: row.saft_account_table_id,
      accountType: row.saft_account_type ?? saftAccountTypeOf(row.code, row.type),
      ...saftGrouping({ parentCode: row.parent_code, hasChildren: row.has_children, hasGrandchildren: row.has_grandchildren }),
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Turns the hierarchy triggers' violations into the API's answers. */
function mapAccountError(error: unknown, code: string): never {
  const violation = violatedConstraint(error);
  switch (violation?.constraint) {
    case "ledger_accounts_pkey":
      throw conflict(`An account with code ${code} already exists.`, "ledger_account.code_taken", { code });
    case "ledger_accounts_parent_not_postable":
      throw conflict(
        "A parent account cannot be postable: make the parent non-postable first, or the account has sub-accounts.",
        "ledger_account.parent_postable",
        { code },
      );
    case "ledger_accounts_has_postings":
      throw conflict(`Account ${code} has postings: its type cannot change and it must stay postable.`, "ledger_account.has_postings", { code });
  }
  throw error;
}

export async function applyTemplate(trx: Db, companyId: string, template: keyof typeof TEMPLATES) {
  const accounts = TEMPLATES[template];
  const existing = new Map<string, { is_postable: boolean }>(
    (
      await trx<LedgerAccountsRow>("ledger_accounts")
        .where("company_id", companyId)
        .whereIn(
          "code",
          accounts.map((a) => a.code),
        )
        .select("code", "is_postable")
    ).map((r) => [r.code, r]),
  );
  const blocked = accounts.find((a) => a.parentCode && existing.get(a.parentCode)?.is_postable && !existing.has(a.code));
  if (blocked) {
    throw conflict(
      `The template puts ${blocked.code} under ${blocked.parentCode}, which exists here as a postable account.`,
      "ledger_account.template_conflict",
      {
        code: blocked.code,
        parentCode: blocked.parentCode,
      },
    );
  }
  const missing = accounts.filter((a) => !existing.has(a.code));
  if (missing.length) {
    // Parents come first in the template, and the insert runs row by row in that order, so the hierarchy
    // trigger sees each parent before its children.
    await trx("ledger_accounts").insert(
      missing.map((a) => ({
        company_id: companyId,
        code: a.code,
        name: a.name,
        name_en: a.nameEn,
        type: a.type,
        parent_code: a.parentCode,
        is_postable: a.isPostable,
        is_contra: a.isContra,
        statement_line: a.statementLine,
        saft_account_table_id: a.saftAccountTableId,
        saft_account_type: a.saftAccountType,
      })),
    );
  }
  return { template, created: missing.length, existing: accounts.length - missing.length };
}

async function checkParent(
  trx: Db,
  companyId: string,
  parentCode: string,
  type: string,
): Promise<{ statement_line: string | null; saft_account_table_id: string | null }> {
  const parent = await trx<LedgerAccountsRow>("ledger_accounts")
    .where({ company_id: companyId, code: parentCode })
    .forUpdate()
    .first("type", "is_postable", "statement_line", "saft_account_table_id");
  if (!parent) throw unprocessable(`Parent account ${parentCode} does not exist.`, "ledger_account.parent_unknown", { parentCode });
  if (parent.type !== type) {
    throw unprocessable(`An account has its parent's type (${parent.type}).`, "ledger_account.type_differs_from_parent", {
      parentCode,
      parentType: parent.type,
    });
  }
  if (parent.is_postable) {
    throw conflict(`Parent account ${parentCode} is postable; make it non-postable first.`, "ledger_account.parent_postable", { parentCode });
  }
  return parent;
}

export async function createAccount(trx: Db, companyId: string, input: CreateInput): Promise<LedgerAccount> {
  // A sub-account reports where its parent does unless it says otherwise.
  const parent = input.parentCode ? await checkParent(trx, companyId, input.parentCode, input.type) : undefined;
  try {
    await trx("ledger_accounts").insert({
      company_id: companyId,
      code: input.code,
      name: input.name,
      name_en: input.nameEn ?? null,
      type: input.type,
      parent_code: input.parentCode ?? null,
      is_postable: input.isPostable ?? true,
      is_contra: input.isContra ?? false,
      statement_line: input.statementLine ?? parent?.statement_line ?? null,
      saft_account_table_id: input.saftAccountTableId ?? parent?.saft_account_table_id ?? null,
      saft_account_type: saftAccountTypeOf(input.code, input.type),
    });
    return await accountByCode(trx, companyId, input.code);
  } catch (error) {
    return mapAccountError(error, input.code);
  }
}

export async function getAccount(db: Db, companyId: string, input: GetInput): Promise<LedgerAccount> {
  if ((input.id === undefined) === (input.code === undefined)) {
    throw validationError({ id: ["send exactly one of id and code"], code: ["send exactly one of id and code"] }, "Name the account by id or by code.");
  }
  const row: AccountRow | undefined = await accountRows(db, companyId)
    .where(input.id !== undefined ? { "a.id": input.id } : { "a.code": input.code })
    .first();
  if (!row) throw notFound("The account", "ledger_account.not_found", input.id !== undefined ? { id: input.id } : { code: input.code });
  return accountToApi(row);
}

async function hasCycle(trx: Db, companyId: string, code: string, parentCode: string): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: unknown[] }>(
    `with recursive up as (
       select code, parent_code from ledger_accounts where company_id = ? and code = ?
       union all
       select a.code, a.parent_code from ledger_accounts a join up on a.company_id = ? and a.code = up.parent_code
     ) select 1 from up where code = ? limit 1`,
    [companyId, parentCode, companyId, code],
  );
  return rows.length > 0;
}

export async function updateAccount(trx: Db, companyId: string, input: UpdateInput): Promise<LedgerAccount> {
  const current = await trx<LedgerAccountsRow>("ledger_accounts").where({ company_id: companyId, code: input.code }).forUpdate().first();
  if (!current) throw notFound("The account", "ledger_account.not_found", { code: input.code });
  const type = input.type ?? current.type;
  if (input.parentCode) {
    if (input.parentCode === input.code || (await hasCycle(trx, companyId, input.code, input.parentCode))) {
      throw unprocessable("An account cannot be placed under itself or its own sub-account.", "ledger_account.parent_cycle", { parentCode: input.parentCode });
    }
    await checkParent(trx, companyId, input.parentCode, type);
  }
  if (input.type && input.type !== current.type) {
    const child = await trx<LedgerAccountsRow>("ledger_accounts")
      .where({ company_id: companyId, parent_code: input.code })
      .whereNot("type", input.type)
      .first("code");
    if (child)
      throw unprocessable(`Sub-account ${child.code} has type ${current.type}; change the sub-accounts first.`, "ledger_account.type_differs_from_children", {
        code: child.code,
      });
  }
  // A posting rule that posts here must keep a postable account of a type it posts to.
  if ((input.type && input.type !== current.type) || (input.isPostable === false && current.is_postable)) {
    const broken = (await rulesPostingTo(trx, companyId, input.code)).find(
      (rule) => input.isPostable === false || !(POSTING_RULES[rule].types as readonly string[]).includes(type),
    );
    if (broken) {
      throw conflict(
        `Posting rule ${broken} posts to ${input.code}, which would then be ${input.isPostable === false ? "non-postable" : `of type ${type}`}; point the rule elsewhere first.`,
        "ledger_account.used_by_posting_rule",
        { code: input.code, rule: broken },
      );
    }
  }
  const patch: Record<string, unknown> = { updated_at: trx.fn.now() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.nameEn !== undefined) patch.name_en = input.nameEn;
  if (input.type !== undefined) patch.type = input.type;
  if (input.parentCode !== undefined) patch.parent_code = input.parentCode;
  if (input.isPostable !== undefined) patch.is_postable = input.isPostable;
  if (input.isContra !== undefined) patch.is_contra = input.isContra;
  if (input.statementLine !== undefined) patch.statement_line = input.statementLine;
  if (input.saftAccountTableId !== undefined) patch.saft_account_table_id = input.saftAccountTableId;
  if (input.type !== undefined) patch.saft_account_type = saftAccountTypeOf(input.code, input.type);
  try {
    await trx("ledger_accounts").where({ company_id: companyId, code: input.code }).update(patch);
    return await accountByCode(trx, companyId, input.code);
  } catch (error) {
    return mapAccountError(error, input.code);
  }
}

const accountListSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid" },
    code: { column: "code", type: "string" },
    name: { column: "name", type: "string" },
    nameEn: { column: "name_en", type: "string" },
    type: { column: "type", type: "string" },
    parentCode: { column: "parent_code", type: "string" },
    isPostable: { column: "is_postable", type: "boolean" },
    isContra: { column: "is_contra", type: "boolean" },
    statementLine: { column: "statement_line", type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "code",
  defaultSort: [{ field: "code", dir: "asc" }],
};

export async function listAccounts(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<AccountRow>(
    db,
    () => db({ a: "ledger_accounts" }).where("a.company_id", companyId),
    accountListSpec,
    request,
    // runList types `select` as column names; knex takes a raw expression among them as well.
    ["a.*", db.raw(HIERARCHY_FLAGS)] as unknown as string[],
  );
  return { ...result, rows: result.rows.map(accountToApi) };
}
