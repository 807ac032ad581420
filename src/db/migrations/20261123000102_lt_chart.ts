import { readFileSync } from "node:fs";
import type { Knex } from "knex";

type AccountType = "asset" | "liability" | "equity" | "income" | "expense";
type SaftAccountType = "IT" | "TT" | "NK" | "I" | "P" | "S" | "KT";

/**
 * The lt-standard template as this migration applied it: a frozen copy (data/), so that replaying the migration does
 * what it did then, whatever src/ledger/lt-standard.ts says today (issue 23).
 */
const LT_STANDARD: {
  code: string;
  name: string;
  nameEn: string;
  type: AccountType;
  parentCode: string | null;
  isPostable: boolean;
  isContra: boolean;
  statementLine: string | null;
  saftAccountTableId: string | null;
  saftAccountType: SaftAccountType;
}[] = JSON.parse(readFileSync(new URL("./data/20261123000102_lt_standard.json", import.meta.url), "utf8"));

/** An account's SAF-T type from its class, as the template then mapped it. */
const saftAccountTypeOf = (code: string, type: AccountType): SaftAccountType =>
  code === "999"
    ? "KT"
    : (({ "1": "IT", "2": "TT", "3": "NK", "4": "I", "5": "P", "6": "S" } as Record<string, SaftAccountType>)[code[0]] ??
      ({ asset: "TT", liability: "I", equity: "NK", income: "P", expense: "S" } as const)[type]);

// The chart follows the AVNT sample chart (issue 8). Accounts carry their SAF-T mapping (AccountTableID, AccountType),
// the contra flag and their line in the Lithuanian financial statements; and the companies that applied the old
// `lt-standard` template get the new one in its place.
//
// No production data exists yet, so rewriting the seeded chart is acceptable: in every company holding the old
// template's accounts, those still as the template made them (same code and name) are deleted when nothing posted to
// them, together with the posting-rule choices that named them (the defaults then apply), and the new template is
// applied. An old account that has postings cannot be deleted (the journal is immutable): it stays, takes the new
// template's names, parent and mapping when the new template has its code with the same type, and is otherwise left
// as it was (e.g. 1292, the old accumulated depreciation of buildings, keeps its entries for the accountant to move).
//
// The template inserted is the chart as it was when this migration shipped (data/20261123000102_lt_standard.json); a
// later change of the template comes with a migration of its own.

/** The old template's accounts, code and Lithuanian name, as 20261122000003 era code seeded them. */
export const OLD_TEMPLATE: [code: string, name: string][] = [
  ["1", "ILGALAIKIS TURTAS"],
  ["11", "Nematerialusis turtas"],
  ["1110", "Plėtros darbai"],
  ["1120", "Prestižas"],
  ["1130", "Programinė įranga"],
  ["1140", "Kitas nematerialusis turtas"],
  ["1190", "Sukaupta nematerialiojo turto amortizacija"],
  ["12", "Materialusis turtas"],
  ["1201", "Žemė"],
  ["1202", "Pastatai ir statiniai"],
  ["1203", "Mašinos ir įrenginiai"],
  ["1204", "Transporto priemonės"],
  ["1205", "Kita įranga, prietaisai, įrankiai ir įrenginiai"],
  ["1206", "Nebaigta statyba ir išankstiniai apmokėjimai"],
  ["1207", "Investicinis turtas"],
  ["1292", "Sukauptas pastatų ir statinių nusidėvėjimas"],
  ["1293", "Sukauptas mašinų ir įrenginių nusidėvėjimas"],
  ["1294", "Sukauptas transporto priemonių nusidėvėjimas"],
  ["1295", "Sukauptas kitos įrangos nusidėvėjimas"],
  ["1297", "Sukauptas investicinio turto nusidėvėjimas"],
  ["16", "Finansinis turtas"],
  ["1610", "Investicijos į dukterines įmones"],
  ["1620", "Paskolos asocijuotosioms ir dukterinėms įmonėms"],
  ["1640", "Po vienų metų gautinos sumos"],
  ["1650", "Kitas finansinis turtas"],
  ["17", "Kitas ilgalaikis turtas"],
  ["1710", "Atidėtojo pelno mokesčio turtas"],
  ["2", "TRUMPALAIKIS TURTAS"],
  ["20", "Atsargos"],
  ["2010", "Žaliavos, medžiagos ir komplektavimo gaminiai"],
  ["2020", "Nebaigta gamyba"],
  ["2030", "Pagaminta produkcija"],
  ["2040", "Pirktos prekės, skirtos perparduoti"],
  ["2050", "Ilgalaikis materialusis turtas, skirtas parduoti"],
  ["2060", "Išankstiniai apmokėjimai"],
  ["24", "Per vienus metus gautinos sumos"],
  ["2410", "Pirkėjų įsiskolinimas"],
  ["2411", "Abejotinos pirkėjų skolos"],
  ["2420", "Dukterinių ir asocijuotųjų įmonių skolos"],
  ["2430", "Kitos gautinos sumos"],
  ["2443", "Gautinas PVM"],
  ["2445", "Permokėtas pelno mokestis"],
  ["2450", "Atskaitingi asmenys"],
  ["25", "Trumpalaikės investicijos"],
  ["2510", "Trumpalaikės investicijos"],
  ["26", "Kitas trumpalaikis turtas"],
  ["2610", "Ateinančių laikotarpių sąnaudos"],
  ["2620", "Sukauptos pajamos"],
  ["27", "Pinigai ir pinigų ekvivalentai"],
  ["2710", "Sąskaitos bankuose"],
  ["2715", "Sąskaitos bankuose užsienio valiuta"],
  ["2720", "Kasa"],
  ["2730", "Pinigai kelyje"],
  ["3", "NUOSAVAS KAPITALAS"],
  ["30", "Kapitalas"],
  ["3010", "Įstatinis (pasirašytasis) kapitalas"],
  ["3020", "Pasirašytasis neapmokėtas kapitalas"],
  ["3030", "Akcijų priedai"],
  ["3040", "Savos akcijos"],
  ["32", "Perkainojimo rezervas"],
  ["3210", "Perkainojimo rezervas"],
  ["33", "Rezervai"],
  ["3310", "Privalomasis rezervas"],
  ["3320", "Savoms akcijoms įsigyti"],
  ["3330", "Kiti rezervai"],
  ["34", "Nepaskirstytasis pelnas (nuostoliai)"],
  ["3410", "Ataskaitinių metų pelnas (nuostoliai)"],
  ["3420", "Ankstesnių metų pelnas (nuostoliai)"],
  ["4", "DOTACIJOS, SUBSIDIJOS, ATIDĖJINIAI IR ĮSIPAREIGOJIMAI"],
  ["40", "Dotacijos, subsidijos"],
  ["4010", "Dotacijos, subsidijos"],
  ["41", "Atidėjiniai"],
  ["4110", "Pensijų ir panašių įsipareigojimų atidėjiniai"],
  ["4130", "Kiti atidėjiniai"],
  ["42", "Po vienų metų mokėtinos sumos ir ilgalaikiai įsipareigojimai"],
  ["4210", "Skolos kredito įstaigoms"],
  ["4220", "Lizingo (finansinės nuomos) įsipareigojimai"],
  ["4230", "Skolos tiekėjams"],
  ["4240", "Atidėtojo pelno mokesčio įsipareigojimai"],
  ["4250", "Kitos mokėtinos sumos"],
  ["44", "Per vienus metus mokėtinos sumos ir trumpalaikiai įsipareigojimai"],
  ["4410", "Ilgalaikių skolų einamųjų metų dalis"],
  ["4420", "Skolos kredito įstaigoms"],
  ["4430", "Skolos tiekėjams"],
  ["4440", "Gauti išankstiniai apmokėjimai"],
  ["4450", "Skolos dukterinėms ir asocijuotosioms įmonėms"],
  ["4470", "Pelno mokesčio įsipareigojimai"],
  ["4480", "Su darbo santykiais susiję įsipareigojimai"],
  ["4481", "Mokėtinas darbo užmokestis"],
  ["4482", "Mokėtinas gyventojų pajamų mokestis"],
  ["4483", "Mokėtinos socialinio draudimo įmokos"],
  ["4484", "Atostoginių kaupiniai"],
  ["4490", "Kitos mokėtinos sumos ir trumpalaikiai įsipareigojimai"],
  ["4491", "Kitos mokėtinos sumos"],
  ["4492", "Mokėtinas PVM"],
  ["4493", "Sukauptos sąnaudos"],
  ["4494", "Ateinančių laikotarpių pajamos"],
  ["4495", "Mokėtini dividendai"],
  ["5", "PAJAMOS"],
  ["50", "Pardavimo pajamos"],
  ["5000", "Parduotų prekių pajamos"],
  ["5001", "Suteiktų paslaugų pajamos"],
  ["5090", "Pardavimo nuolaidos ir grąžinimai"],
  ["54", "Kitos veiklos pajamos"],
  ["5400", "Ilgalaikio turto perleidimo pelnas"],
  ["5410", "Kitos veiklos pajamos"],
  ["58", "Finansinės ir investicinės veiklos pajamos"],
  ["5801", "Palūkanų pajamos"],
  ["5802", "Dividendų pajamos"],
  ["5803", "Teigiama valiutos kurso pasikeitimo įtaka"],
  ["5809", "Kitos finansinės veiklos pajamos"],
  ["6", "SĄNAUDOS"],
  ["60", "Pardavimo savikaina"],
  ["6000", "Parduotų prekių savikaina"],
  ["6001", "Suteiktų paslaugų savikaina"],
  ["6009", "Atsargų nurašymo sąnaudos"],
  ["61", "Pardavimo sąnaudos"],
  ["6100", "Reklamos sąnaudos"],
  ["6110", "Transportavimo sąnaudos"],
  ["62", "Bendrosios ir administracinės sąnaudos"],
  ["6201", "Darbo užmokesčio sąnaudos"],
  ["6202", "Socialinio draudimo sąnaudos"],
  ["6203", "Patalpų nuomos sąnaudos"],
  ["6204", "Komunalinių paslaugų sąnaudos"],
  ["6205", "Nematerialiojo turto amortizacijos sąnaudos"],
  ["6206", "Ilgalaikio materialiojo turto nusidėvėjimo sąnaudos"],
  ["6207", "Ryšių sąnaudos"],
  ["6208", "Transporto priemonių išlaikymo sąnaudos"],
  ["6209", "Kitos administracinės sąnaudos"],
  ["6210", "Banko paslaugų sąnaudos"],
  ["6211", "Abejotinų skolų sąnaudos"],
  ["6212", "Profesinių paslaugų sąnaudos"],
  ["6213", "Mokesčių sąnaudos"],
  ["6214", "Draudimo sąnaudos"],
  ["63", "Kitos veiklos sąnaudos"],
  ["6300", "Ilgalaikio turto perleidimo nuostoliai"],
  ["6310", "Kitos veiklos sąnaudos"],
  ["68", "Finansinės ir investicinės veiklos sąnaudos"],
  ["6801", "Palūkanų sąnaudos"],
  ["6803", "Neigiama valiutos kurso pasikeitimo įtaka"],
  ["6809", "Kitos finansinės veiklos sąnaudos"],
  ["69", "Pelno mokestis"],
  ["6900", "Pelno mokesčio sąnaudos"],
];

/**
 * The old template's accounts that the new one does not have as they are (same code and name): those tell a company
 * that applied the old template, and those are replaced. The 27 it shares (class and group headers such as 1, 11,
 * 27; 5000, 5001, 5400, 6000, 6001) stay and take the new mapping.
 */
const OLD_ONLY: [code: string, name: string][] = OLD_TEMPLATE.filter(([code, name]) => !LT_STANDARD.some((a) => a.code === code && a.name === name));

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table ledger_accounts
      add column is_contra boolean not null default false,
      add column statement_line text check (statement_line ~ '^(A|B|C|D|E|F|G|H|X|PL)(\\.[0-9IVX]+)*$'),
      add column saft_account_table_id text check (length(saft_account_table_id) between 1 and 70),
      add column saft_account_type text check (saft_account_type in ('IT', 'TT', 'NK', 'I', 'P', 'S', 'KT'));
  `);

  // Every existing account gets its SAF-T type from its class (or type).
  const accounts: { company_id: string; code: string; type: AccountType }[] = await knex("ledger_accounts").select("company_id", "code", "type");
  for (const a of accounts) {
    await knex("ledger_accounts")
      .where({ company_id: a.company_id, code: a.code })
      .update({ saft_account_type: saftAccountTypeOf(a.code, a.type) });
  }

  for (const companyId of await companiesWithOldTemplate(knex)) await rewriteChart(knex, companyId);
}

/** The companies holding at least 20 of the old template's own accounts as it seeded them (code and name). */
export async function companiesWithOldTemplate(knex: Knex): Promise<string[]> {
  const rows: { company_id: string }[] = await knex("ledger_accounts")
    .whereIn(
      ["code", "name"],
      OLD_ONLY.map(([code, name]) => [code, name]),
    )
    .groupBy("company_id")
    .having(knex.raw("count(*) >= 20"))
    .select("company_id");
  return rows.map((r) => r.company_id);
}

/** Exported for its test (test/contract/lt-chart.test.ts), which seeds an old chart and rewrites it. */
export async function rewriteChart(knex: Knex, companyId: string, oldNames: Map<string, string> = new Map(OLD_ONLY)): Promise<void> {
  const rows: { code: string; name: string; parent_code: string | null }[] = await knex("ledger_accounts")
    .where("company_id", companyId)
    .select("code", "name", "parent_code");
  const posted = new Set(
    (await knex("journal_entries").where("company_id", companyId).distinct("account_code")).map((r: { account_code: string }) => r.account_code),
  );
  const seeded = new Set(rows.filter((r) => oldNames.get(r.code) === r.name && !posted.has(r.code)).map((r) => r.code));
  // Leaves first: an account goes once nothing is left under it.
  const children = new Map<string, number>();
  for (const r of rows) if (r.parent_code) children.set(r.parent_code, (children.get(r.parent_code) ?? 0) + 1);
  const parentOf = new Map(rows.map((r) => [r.code, r.parent_code]));
  let progress = true;
  while (progress) {
    progress = false;
    for (const code of [...seeded]) {
      if ((children.get(code) ?? 0) > 0) continue;
      await knex("posting_rules").where({ company_id: companyId, account_code: code }).delete();
      await knex("ledger_accounts").where({ company_id: companyId, code }).delete();
      seeded.delete(code);
      const parent = parentOf.get(code);
      if (parent) children.set(parent, (children.get(parent) ?? 1) - 1);
      progress = true;
    }
  }

  const remaining = new Map<string, { type: string; is_postable: boolean }>(
    (await knex("ledger_accounts").where("company_id", companyId).select("code", "type", "is_postable")).map(
      (r: { code: string; type: string; is_postable: boolean }) => [r.code, r],
    ),
  );
  for (const a of LT_STANDARD) {
    const mapping = {
      is_contra: a.isContra,
      statement_line: a.statementLine,
      saft_account_table_id: a.saftAccountTableId,
      saft_account_type: a.saftAccountType,
    };
    const current = remaining.get(a.code);
    if (current) {
      if (current.type === a.type) {
        const parent = a.parentCode ? remaining.get(a.parentCode) : undefined;
        const reparent = parent && !parent.is_postable ? { parent_code: a.parentCode } : {};
        await knex("ledger_accounts")
          .where({ company_id: companyId, code: a.code })
          .update({ name: a.name, name_en: a.nameEn, ...reparent, ...mapping, updated_at: knex.fn.now() });
      }
      continue;
    }
    // A parent left postable (an old account with postings) cannot take sub-accounts: the template's branch under
    // it is skipped.
    const parent = a.parentCode ? remaining.get(a.parentCode) : undefined;
    if (a.parentCode && (!parent || parent.is_postable)) continue;
    await knex("ledger_accounts").insert({
      company_id: companyId,
      code: a.code,
      name: a.name,
      name_en: a.nameEn,
      type: a.type,
      parent_code: a.parentCode,
      is_postable: a.isPostable,
      ...mapping,
    });
    remaining.set(a.code, { type: a.type, is_postable: a.isPostable });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table ledger_accounts
      drop column is_contra,
      drop column statement_line,
      drop column saft_account_table_id,
      drop column saft_account_type;
  `);
}
