// `lt-standard`: the Lithuanian sample chart of accounts (pavyzdinis sąskaitų planas), classes 1 to 6, with
// Lithuanian and English names. Class and group headers are not postable; the leaves are. The codes the product
// relies on by default: 2410 trade receivables, 4430 trade payables, 2040 goods for resale, 6206 depreciation,
// 2443/4492 VAT, 2710/2720 bank and cash, 3010 share capital, 3410/3420 results, 5000 revenue, 6000 cost of
// sales, 5803/6803 FX gain and loss, and 12x9 accumulated depreciation per fixed-asset group.

export interface TemplateAccount {
  code: string;
  name: string;
  nameEn: string;
  type: "asset" | "liability" | "equity" | "income" | "expense";
  parentCode: string | null;
  isPostable: boolean;
}

type Row = [code: string, name: string, nameEn: string];

const CLASS_TYPE: Record<string, TemplateAccount["type"]> = { "1": "asset", "2": "asset", "3": "equity", "4": "liability", "5": "income", "6": "expense" };

// Headers (1- and 2-digit codes) are parents; a 4-digit code's parent is its 2-digit group, or its sub-group
// header (see SUBGROUP_HEADERS).
const ROWS: Row[] = [
  ["1", "ILGALAIKIS TURTAS", "NON-CURRENT ASSETS"],
  ["11", "Nematerialusis turtas", "Intangible assets"],
  ["1110", "Plėtros darbai", "Development costs"],
  ["1120", "Prestižas", "Goodwill"],
  ["1130", "Programinė įranga", "Software"],
  ["1140", "Kitas nematerialusis turtas", "Other intangible assets"],
  ["1190", "Sukaupta nematerialiojo turto amortizacija", "Accumulated amortisation of intangible assets"],
  ["12", "Materialusis turtas", "Property, plant and equipment"],
  ["1201", "Žemė", "Land"],
  ["1202", "Pastatai ir statiniai", "Buildings and structures"],
  ["1203", "Mašinos ir įrenginiai", "Machinery and equipment"],
  ["1204", "Transporto priemonės", "Vehicles"],
  ["1205", "Kita įranga, prietaisai, įrankiai ir įrenginiai", "Other equipment, fixtures and tools"],
  ["1206", "Nebaigta statyba ir išankstiniai apmokėjimai", "Construction in progress and prepayments"],
  ["1207", "Investicinis turtas", "Investment property"],
  ["1292", "Sukauptas pastatų ir statinių nusidėvėjimas", "Accumulated depreciation of buildings and structures"],
  ["1293", "Sukauptas mašinų ir įrenginių nusidėvėjimas", "Accumulated depreciation of machinery and equipment"],
  ["1294", "Sukauptas transporto priemonių nusidėvėjimas", "Accumulated depreciation of vehicles"],
  ["1295", "Sukauptas kitos įrangos nusidėvėjimas", "Accumulated depreciation of other equipment"],
  ["1297", "Sukauptas investicinio turto nusidėvėjimas", "Accumulated depreciation of investment property"],
  ["16", "Finansinis turtas", "Financial assets"],
  ["1610", "Investicijos į dukterines įmones", "Investments in subsidiaries"],
  ["1620", "Paskolos asocijuotosioms ir dukterinėms įmonėms", "Loans to associates and subsidiaries"],
  ["1640", "Po vienų metų gautinos sumos", "Amounts receivable after one year"],
  ["1650", "Kitas finansinis turtas", "Other financial assets"],
  ["17", "Kitas ilgalaikis turtas", "Other non-current assets"],
  ["1710", "Atidėtojo pelno mokesčio turtas", "Deferred tax assets"],

  ["2", "TRUMPALAIKIS TURTAS", "CURRENT ASSETS"],
  ["20", "Atsargos", "Inventories"],
  ["2010", "Žaliavos, medžiagos ir komplektavimo gaminiai", "Raw materials and components"],
  ["2020", "Nebaigta gamyba", "Work in progress"],
  ["2030", "Pagaminta produkcija", "Finished goods"],
  ["2040", "Pirktos prekės, skirtos perparduoti", "Goods for resale"],
  ["2050", "Ilgalaikis materialusis turtas, skirtas parduoti", "Non-current assets held for sale"],
  ["2060", "Išankstiniai apmokėjimai", "Prepayments to suppliers"],
  ["24", "Per vienus metus gautinos sumos", "Amounts receivable within one year"],
  ["2410", "Pirkėjų įsiskolinimas", "Trade receivables"],
  ["2411", "Abejotinos pirkėjų skolos", "Allowance for doubtful trade receivables"],
  ["2420", "Dukterinių ir asocijuotųjų įmonių skolos", "Amounts owed by subsidiaries and associates"],
  ["2430", "Kitos gautinos sumos", "Other amounts receivable"],
  ["2443", "Gautinas PVM", "VAT receivable"],
  ["2445", "Permokėtas pelno mokestis", "Corporate income tax prepaid"],
  ["2450", "Atskaitingi asmenys", "Advances to employees (accountable persons)"],
  ["25", "Trumpalaikės investicijos", "Short-term investments"],
  ["2510", "Trumpalaikės investicijos", "Short-term investments"],
  ["26", "Kitas trumpalaikis turtas", "Other current assets"],
  ["2610", "Ateinančių laikotarpių sąnaudos", "Prepaid expenses"],
  ["2620", "Sukauptos pajamos", "Accrued income"],
  ["27", "Pinigai ir pinigų ekvivalentai", "Cash and cash equivalents"],
  ["2710", "Sąskaitos bankuose", "Bank accounts"],
  ["2715", "Sąskaitos bankuose užsienio valiuta", "Bank accounts in foreign currency"],
  ["2720", "Kasa", "Cash on hand"],
  ["2730", "Pinigai kelyje", "Cash in transit"],

  ["3", "NUOSAVAS KAPITALAS", "EQUITY"],
  ["30", "Kapitalas", "Capital"],
  ["3010", "Įstatinis (pasirašytasis) kapitalas", "Share capital (subscribed)"],
  ["3020", "Pasirašytasis neapmokėtas kapitalas", "Subscribed capital unpaid"],
  ["3030", "Akcijų priedai", "Share premium"],
  ["3040", "Savos akcijos", "Own shares"],
  ["32", "Perkainojimo rezervas", "Revaluation reserve"],
  ["3210", "Perkainojimo rezervas", "Revaluation reserve"],
  ["33", "Rezervai", "Reserves"],
  ["3310", "Privalomasis rezervas", "Legal reserve"],
  ["3320", "Savoms akcijoms įsigyti", "Reserve for own shares"],
  ["3330", "Kiti rezervai", "Other reserves"],
  ["34", "Nepaskirstytasis pelnas (nuostoliai)", "Retained earnings (losses)"],
  ["3410", "Ataskaitinių metų pelnas (nuostoliai)", "Profit (loss) of the current year"],
  ["3420", "Ankstesnių metų pelnas (nuostoliai)", "Profit (loss) of previous years"],

  ["4", "DOTACIJOS, SUBSIDIJOS, ATIDĖJINIAI IR ĮSIPAREIGOJIMAI", "GRANTS, PROVISIONS AND LIABILITIES"],
  ["40", "Dotacijos, subsidijos", "Grants and subsidies"],
  ["4010", "Dotacijos, subsidijos", "Grants and subsidies"],
  ["41", "Atidėjiniai", "Provisions"],
  ["4110", "Pensijų ir panašių įsipareigojimų atidėjiniai", "Provisions for pensions and similar obligations"],
  ["4130", "Kiti atidėjiniai", "Other provisions"],
  ["42", "Po vienų metų mokėtinos sumos ir ilgalaikiai įsipareigojimai", "Amounts payable after one year"],
  ["4210", "Skolos kredito įstaigoms", "Amounts owed to credit institutions"],
  ["4220", "Lizingo (finansinės nuomos) įsipareigojimai", "Finance lease liabilities"],
  ["4230", "Skolos tiekėjams", "Trade payables after one year"],
  ["4240", "Atidėtojo pelno mokesčio įsipareigojimai", "Deferred tax liabilities"],
  ["4250", "Kitos mokėtinos sumos", "Other amounts payable after one year"],
  ["44", "Per vienus metus mokėtinos sumos ir trumpalaikiai įsipareigojimai", "Amounts payable within one year"],
  ["4410", "Ilgalaikių skolų einamųjų metų dalis", "Current portion of long-term debts"],
  ["4420", "Skolos kredito įstaigoms", "Amounts owed to credit institutions"],
  ["4430", "Skolos tiekėjams", "Trade payables"],
  ["4440", "Gauti išankstiniai apmokėjimai", "Advances received"],
  ["4450", "Skolos dukterinėms ir asocijuotosioms įmonėms", "Amounts owed to subsidiaries and associates"],
  ["4470", "Pelno mokesčio įsipareigojimai", "Corporate income tax payable"],
  ["4480", "Su darbo santykiais susiję įsipareigojimai", "Employment-related liabilities"],
  ["4481", "Mokėtinas darbo užmokestis", "Salaries payable"],
  ["4482", "Mokėtinas gyventojų pajamų mokestis", "Personal income tax payable"],
  ["4483", "Mokėtinos socialinio draudimo įmokos", "Social insurance contributions payable"],
  ["4484", "Atostoginių kaupiniai", "Accrued vacation pay"],
  ["4490", "Kitos mokėtinos sumos ir trumpalaikiai įsipareigojimai", "Other amounts payable and current liabilities"],
  ["4491", "Kitos mokėtinos sumos", "Other amounts payable"],
  ["4492", "Mokėtinas PVM", "VAT payable"],
  ["4493", "Sukauptos sąnaudos", "Accrued expenses"],
  ["4494", "Ateinančių laikotarpių pajamos", "Deferred income"],
  ["4495", "Mokėtini dividendai", "Dividends payable"],

  ["5", "PAJAMOS", "INCOME"],
  ["50", "Pardavimo pajamos", "Revenue"],
  ["5000", "Parduotų prekių pajamos", "Revenue from goods sold"],
  ["5001", "Suteiktų paslaugų pajamos", "Revenue from services"],
  ["5090", "Pardavimo nuolaidos ir grąžinimai", "Sales discounts and returns"],
  ["54", "Kitos veiklos pajamos", "Other operating income"],
  ["5400", "Ilgalaikio turto perleidimo pelnas", "Gain on disposal of non-current assets"],
  ["5410", "Kitos veiklos pajamos", "Other operating income"],
  ["58", "Finansinės ir investicinės veiklos pajamos", "Financial and investment income"],
  ["5801", "Palūkanų pajamos", "Interest income"],
  ["5802", "Dividendų pajamos", "Dividend income"],
  ["5803", "Teigiama valiutos kurso pasikeitimo įtaka", "Foreign exchange gains"],
  ["5809", "Kitos finansinės veiklos pajamos", "Other financial income"],

  ["6", "SĄNAUDOS", "EXPENSES"],
  ["60", "Pardavimo savikaina", "Cost of sales"],
  ["6000", "Parduotų prekių savikaina", "Cost of goods sold"],
  ["6001", "Suteiktų paslaugų savikaina", "Cost of services provided"],
  ["6009", "Atsargų nurašymo sąnaudos", "Inventory write-downs"],
  ["61", "Pardavimo sąnaudos", "Selling expenses"],
  ["6100", "Reklamos sąnaudos", "Advertising expenses"],
  ["6110", "Transportavimo sąnaudos", "Delivery expenses"],
  ["62", "Bendrosios ir administracinės sąnaudos", "General and administrative expenses"],
  ["6201", "Darbo užmokesčio sąnaudos", "Salaries and wages"],
  ["6202", "Socialinio draudimo sąnaudos", "Social insurance contributions"],
  ["6203", "Patalpų nuomos sąnaudos", "Rent of premises"],
  ["6204", "Komunalinių paslaugų sąnaudos", "Utilities"],
  ["6205", "Nematerialiojo turto amortizacijos sąnaudos", "Amortisation of intangible assets"],
  ["6206", "Ilgalaikio materialiojo turto nusidėvėjimo sąnaudos", "Depreciation of property, plant and equipment"],
  ["6207", "Ryšių sąnaudos", "Telecommunications"],
  ["6208", "Transporto priemonių išlaikymo sąnaudos", "Vehicle running costs"],
  ["6209", "Kitos administracinės sąnaudos", "Other administrative expenses"],
  ["6210", "Banko paslaugų sąnaudos", "Bank charges"],
  ["6211", "Abejotinų skolų sąnaudos", "Bad debt expense"],
  ["6212", "Profesinių paslaugų sąnaudos", "Professional fees"],
  ["6213", "Mokesčių sąnaudos", "Taxes other than income tax"],
  ["6214", "Draudimo sąnaudos", "Insurance"],
  ["63", "Kitos veiklos sąnaudos", "Other operating expenses"],
  ["6300", "Ilgalaikio turto perleidimo nuostoliai", "Loss on disposal of non-current assets"],
  ["6310", "Kitos veiklos sąnaudos", "Other operating expenses"],
  ["68", "Finansinės ir investicinės veiklos sąnaudos", "Financial and investment expenses"],
  ["6801", "Palūkanų sąnaudos", "Interest expense"],
  ["6803", "Neigiama valiutos kurso pasikeitimo įtaka", "Foreign exchange losses"],
  ["6809", "Kitos finansinės veiklos sąnaudos", "Other financial expenses"],
  ["69", "Pelno mokestis", "Income tax"],
  ["6900", "Pelno mokesčio sąnaudos", "Corporate income tax expense"],
];

// 4-digit accounts that head the accounts sharing their first three digits (4481-4484 under 4480).
const SUBGROUP_HEADERS = new Set(["4480", "4490"]);

function parentOf(code: string): string | null {
  if (code.length === 1) return null;
  if (code.length === 2) return code[0];
  const subgroup = `${code.slice(0, 3)}0`;
  return subgroup !== code && SUBGROUP_HEADERS.has(subgroup) ? subgroup : code.slice(0, 2);
}

function build(): TemplateAccount[] {
  const parents = new Set<string>();
  const accounts = ROWS.map(([code, name, nameEn]) => {
    const parentCode = parentOf(code);
    if (parentCode) parents.add(parentCode);
    return { code, name, nameEn, type: CLASS_TYPE[code[0]], parentCode, isPostable: true };
  });
  for (const a of accounts) a.isPostable = !parents.has(a.code);
  return accounts;
}

/** Parents before children, so the accounts can be inserted in this order. */
export const LT_STANDARD: readonly TemplateAccount[] = build();
