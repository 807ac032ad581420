// `lt-standard`: the Lithuanian sample chart of accounts (pavyzdinis sąskaitų planas) of the Audit, Accounting,
// Property Valuation and Insolvency Management Authority (AVNT; the edition approved with VAS-15, which Odoo's l10n_lt
// chart, addons/l10n_lt/data/template/account.account-lt.csv, follows), with Lithuanian and English names.
//
// Numbering as in the sample chart: a one-digit class, two-digit groups, three-digit sub-groups, four-digit accounts
// (five digits where the sample chart splits an account). In the non-current and current asset groups the fourth
// digit says what an account holds: 0 cost (įsigijimo savikaina), 1 revaluation, 2 being prepared for use,
// 7 accumulated depreciation (12x7), 8 accumulated amortisation of intangibles (11x8) and revaluation depreciation
// of tangibles (12x8), 9 impairment (x9). Accounts marked (−) are contra accounts: they carry the balance opposite to
// their type's (accumulated depreciation and impairment of assets, own shares and unpaid capital in equity, discounts
// and returns in income, discounts received in expenses) and reduce the statement line they belong to.
//
// Every account carries:
// - its line in the Lithuanian financial statements (balance sheet per VAS 2 "Balansas", A.I.1 … H; profit and loss
//   per VAS 3 "Pelno (nuostolių) ataskaita", PL.1 … PL.14), inherited from its sub-group or group;
// - its SAF-T mapping (SAFT_2_01.xsd, MasterFiles/GeneralLedgerAccounts/Account): AccountTableID — the account of
//   the tax authority's account classifier (i.SAF-T description, Annex 2, classifier No. 1 for entities under the
//   Business Accounting Standards, which numbers accounts as the sample chart does), the account's own code when it is a
//   sample-chart account, else the sample-chart account it belongs to — and AccountType (IT non-current assets, TT
//   current assets, NK equity, I liabilities, P income, S expenses, KT other). GroupingCategory and GroupingCode follow
//   from the hierarchy (saftGrouping below).
//
// Codes the product relies on by default (src/ledger/posting-rules.ts): 2410 trade receivables, 4430 trade payables,
// 2040 goods for resale and 6206 depreciation (the four the spec fixes), 2441 VAT receivable, 4492 VAT payable, 2710
// and 2720 bank and cash, 5000 revenue, 6000 cost of sales, 5803/6803 FX gain and loss, 3411/3421 results, 999 the
// opening-balance interim account.

export type AccountType = "asset" | "liability" | "equity" | "income" | "expense";
export type SaftAccountType = "IT" | "TT" | "NK" | "I" | "P" | "S" | "KT";
export type SaftGroupingCategory = "S1L" | "S2L" | "S" | "D1L" | "D";

export interface TemplateAccount {
  code: string;
  name: string;
  nameEn: string;
  type: AccountType;
  parentCode: string | null;
  isPostable: boolean;
  /** Carries the balance opposite to its type's and reduces its statement line. */
  isContra: boolean;
  /** Line of the Lithuanian financial statements (see STATEMENT_LINES); null on a header spanning several sections. */
  statementLine: string | null;
  /** SAF-T AccountTableID: the tax authority's classifier account. */
  saftAccountTableId: string;
  /** SAF-T AccountType. */
  saftAccountType: SaftAccountType;
}

interface Options {
  /** Statement line of this account and (unless they say otherwise) of everything under it. */
  line?: string;
  /** SAF-T AccountTableID when the code is not a sample-chart account itself. */
  saft?: string;
  /** A contra account (−). */
  contra?: true;
  /** A type other than its class's. */
  type?: AccountType;
}

type Row = [code: string, name: string, nameEn: string, options?: Options];

const CLASS_TYPE: Record<string, AccountType> = { "1": "asset", "2": "asset", "3": "equity", "4": "liability", "5": "income", "6": "expense" };
const C = { contra: true } as const;

const ROWS: Row[] = [
  // ---------------------------------------------------------------------------------------------------- class 1
  ["1", "ILGALAIKIS TURTAS", "NON-CURRENT ASSETS", { line: "A" }],
  ["11", "Nematerialusis turtas", "Intangible assets", { line: "A.I" }],
  ["111", "Plėtros darbai", "Development costs", { line: "A.I.1" }],
  ["1110", "Plėtros darbų atlikimo savikaina", "Development costs: cost"],
  ["1118", "Plėtros darbų vertės amortizacija (−)", "Development costs: accumulated amortisation (−)", C],
  ["1119", "Plėtros darbų vertės sumažėjimas (−)", "Development costs: impairment (−)", C],
  ["112", "Prestižas", "Goodwill", { line: "A.I.2" }],
  ["1120", "Prestižo įsigijimo savikaina", "Goodwill: cost"],
  ["1128", "Prestižo vertės amortizacija (−)", "Goodwill: accumulated amortisation (−)", C],
  ["1129", "Prestižo vertės sumažėjimas (−)", "Goodwill: impairment (−)", C],
  ["113", "Programinė įranga", "Software", { line: "A.I.3" }],
  ["1130", "Programinės įrangos įsigijimo savikaina", "Software: cost"],
  ["1138", "Programinės įrangos vertės amortizacija (−)", "Software: accumulated amortisation (−)", C],
  ["1139", "Programinės įrangos vertės sumažėjimas (−)", "Software: impairment (−)", C],
  [
    "114",
    "Koncesijos, patentai, licencijos, prekių ženklai ir panašios teisės",
    "Concessions, patents, licences, trade marks and similar rights",
    { line: "A.I.4" },
  ],
  ["1140", "Koncesijų, patentų, licencijų ir panašių teisių įsigijimo savikaina", "Concessions, patents and licences: cost"],
  ["1148", "Koncesijų, patentų, licencijų ir panašių teisių vertės amortizacija (−)", "Concessions, patents and licences: accumulated amortisation (−)", C],
  ["1149", "Koncesijų, patentų, licencijų ir panašių teisių vertės sumažėjimas (−)", "Concessions, patents and licences: impairment (−)", C],
  ["115", "Kitas nematerialusis turtas", "Other intangible assets", { line: "A.I.5" }],
  ["1150", "Kito nematerialiojo turto įsigijimo savikaina", "Other intangible assets: cost"],
  ["1158", "Kito nematerialiojo turto vertės amortizacija (−)", "Other intangible assets: accumulated amortisation (−)", C],
  ["1159", "Kito nematerialiojo turto vertės sumažėjimas (−)", "Other intangible assets: impairment (−)", C],
  ["116", "Sumokėti avansai už nematerialųjį turtą", "Advance payments for intangible assets", { line: "A.I.6" }],

  ["12", "Materialusis turtas", "Property, plant and equipment", { line: "A.II" }],
  ["120", "Žemė", "Land", { line: "A.II.1" }],
  ["1200", "Žemės įsigijimo savikaina", "Land: cost"],
  ["1201", "Žemės vertės pokytis dėl perkainojimo", "Land: revaluation"],
  ["1209", "Žemės vertės sumažėjimas (−)", "Land: impairment (−)", C],
  ["121", "Pastatai ir statiniai", "Buildings and structures", { line: "A.II.2" }],
  ["1210", "Pastatų ir statinių įsigijimo savikaina", "Buildings and structures: cost"],
  ["1211", "Pastatų ir statinių vertės pokytis dėl perkainojimo", "Buildings and structures: revaluation"],
  ["1212", "Ruošiami naudoti pastatai ir statiniai", "Buildings and structures being prepared for use"],
  ["1217", "Pastatų ir statinių įsigijimo savikainos nusidėvėjimas (−)", "Buildings and structures: accumulated depreciation (−)", C],
  ["1218", "Pastatų ir statinių perkainotos vertės nusidėvėjimas (−)", "Buildings and structures: depreciation of revaluation (−)", C],
  ["1219", "Pastatų ir statinių vertės sumažėjimas (−)", "Buildings and structures: impairment (−)", C],
  ["122", "Mašinos ir įranga", "Machinery and plant", { line: "A.II.3" }],
  ["1220", "Mašinų ir įrangos įsigijimo savikaina", "Machinery and plant: cost"],
  ["1221", "Mašinų ir įrangos vertės pokytis dėl perkainojimo", "Machinery and plant: revaluation"],
  ["1222", "Ruošiamos naudoti mašinos ir įranga", "Machinery and plant being prepared for use"],
  ["1227", "Mašinų ir įrangos įsigijimo savikainos nusidėvėjimas (−)", "Machinery and plant: accumulated depreciation (−)", C],
  ["1228", "Mašinų ir įrangos perkainotos vertės nusidėvėjimas (−)", "Machinery and plant: depreciation of revaluation (−)", C],
  ["1229", "Mašinų ir įrangos vertės sumažėjimas (−)", "Machinery and plant: impairment (−)", C],
  ["123", "Transporto priemonės", "Vehicles", { line: "A.II.4" }],
  ["1230", "Transporto priemonių įsigijimo savikaina", "Vehicles: cost"],
  ["1231", "Transporto priemonių vertės pokytis dėl perkainojimo", "Vehicles: revaluation"],
  ["1232", "Ruošiamos naudoti transporto priemonės", "Vehicles being prepared for use"],
  ["1237", "Transporto priemonių įsigijimo savikainos nusidėvėjimas (−)", "Vehicles: accumulated depreciation (−)", C],
  ["1238", "Transporto priemonių perkainotos vertės nusidėvėjimas (−)", "Vehicles: depreciation of revaluation (−)", C],
  ["1239", "Transporto priemonių vertės sumažėjimas (−)", "Vehicles: impairment (−)", C],
  ["124", "Kiti įrenginiai, prietaisai ir įrankiai", "Other equipment, fixtures and tools", { line: "A.II.5" }],
  ["1240", "Kitų įrenginių, prietaisų ir įrankių įsigijimo savikaina", "Other equipment, fixtures and tools: cost"],
  ["1241", "Kitų įrenginių, prietaisų ir įrankių vertės pokytis dėl perkainojimo", "Other equipment, fixtures and tools: revaluation"],
  ["1242", "Ruošiami naudoti kiti įrenginiai, prietaisai ir įrankiai", "Other equipment, fixtures and tools being prepared for use"],
  [
    "1247",
    "Kitų įrenginių, prietaisų ir įrankių įsigijimo savikainos nusidėvėjimas (−)",
    "Other equipment, fixtures and tools: accumulated depreciation (−)",
    C,
  ],
  [
    "1248",
    "Kitų įrenginių, prietaisų ir įrankių perkainotos vertės nusidėvėjimas (−)",
    "Other equipment, fixtures and tools: depreciation of revaluation (−)",
    C,
  ],
  ["1249", "Kitų įrenginių, prietaisų ir įrankių vertės sumažėjimas (−)", "Other equipment, fixtures and tools: impairment (−)", C],
  ["125", "Investicinis turtas", "Investment property", { line: "A.II.6" }],
  ["1250", "Žemė, kaip investicinis turtas", "Land held as investment property", { line: "A.II.6.1" }],
  ["12500", "Investicinės žemės įsigijimo savikaina", "Investment land: cost"],
  ["12509", "Investicinės žemės vertės sumažėjimas (−)", "Investment land: impairment (−)", C],
  ["1251", "Pastatai, kaip investicinis turtas", "Buildings held as investment property", { line: "A.II.6.2" }],
  ["12510", "Investicinių pastatų įsigijimo savikaina", "Investment buildings: cost"],
  ["12517", "Investicinių pastatų įsigijimo savikainos nusidėvėjimas (−)", "Investment buildings: accumulated depreciation (−)", C],
  ["12519", "Investicinių pastatų vertės sumažėjimas (−)", "Investment buildings: impairment (−)", C],
  [
    "126",
    "Sumokėti avansai ir vykdomi materialiojo turto statybos (gamybos) darbai",
    "Advance payments and tangible assets under construction",
    { line: "A.II.7" },
  ],
  ["1260", "Sumokėti avansai už ilgalaikį materialųjį turtą", "Advance payments for property, plant and equipment"],
  ["1261", "Vykdomi materialiojo turto statybos (gamybos) darbai", "Tangible assets under construction"],

  ["16", "Finansinis turtas", "Financial assets", { line: "A.III" }],
  ["160", "Įmonių grupės įmonių akcijos", "Shares in group undertakings", { line: "A.III.1" }],
  ["1600", "Patronuojančiosios įmonės akcijos", "Shares in the parent undertaking"],
  ["1601", "Patronuojamųjų įmonių akcijos", "Shares in subsidiaries"],
  ["1609", "Įmonių grupės įmonių akcijų vertės sumažėjimas (−)", "Shares in group undertakings: impairment (−)", { ...C, saft: "160" }],
  ["161", "Paskolos įmonių grupės įmonėms", "Loans to group undertakings", { line: "A.III.2" }],
  ["1610", "Paskolos patronuojančiajai įmonei", "Loans to the parent undertaking"],
  ["1611", "Paskolos patronuojamosioms įmonėms", "Loans to subsidiaries"],
  ["162", "Iš įmonių grupės įmonių gautinos sumos", "Amounts receivable from group undertakings", { line: "A.III.3" }],
  ["1620", "Iš patronuojančiosios įmonės gautinos sumos", "Amounts receivable from the parent undertaking"],
  ["1621", "Iš patronuojamųjų įmonių gautinos sumos", "Amounts receivable from subsidiaries"],
  ["163", "Asocijuotųjų įmonių akcijos", "Shares in associates", { line: "A.III.4" }],
  ["1630", "Asocijuotųjų įmonių akcijų įsigijimo savikaina", "Shares in associates: cost"],
  ["1639", "Asocijuotųjų įmonių akcijų vertės sumažėjimas (−)", "Shares in associates: impairment (−)", C],
  ["164", "Paskolos asocijuotosioms įmonėms", "Loans to associates", { line: "A.III.5" }],
  ["1640", "Asocijuotosioms įmonėms suteiktų paskolų vertė", "Loans to associates: amount"],
  ["1649", "Asocijuotosioms įmonėms suteiktų paskolų vertės sumažėjimas (−)", "Loans to associates: impairment (−)", C],
  ["165", "Iš asocijuotųjų įmonių gautinos sumos", "Amounts receivable from associates", { line: "A.III.6" }],
  ["1650", "Iš asocijuotųjų įmonių gautinų sumų vertė", "Amounts receivable from associates: amount"],
  ["1659", "Iš asocijuotųjų įmonių gautinų sumų vertės sumažėjimas (−)", "Amounts receivable from associates: impairment (−)", { ...C, saft: "165" }],
  ["166", "Ilgalaikės investicijos", "Long-term investments", { line: "A.III.7" }],
  ["1660", "Kitų įmonių nuosavybės vertybiniai popieriai", "Equity securities of other companies"],
  ["1661", "Ne nuosavybės vertybiniai popieriai", "Debt securities"],
  ["1664", "Kiti vertybiniai popieriai", "Other securities"],
  ["1665", "Terminuotieji indėliai", "Term deposits"],
  ["167", "Po vienų metų gautinos sumos", "Amounts receivable after one year", { line: "A.III.8" }],
  ["1670", "Po vienų metų gautinos pirkėjų skolos", "Trade receivables after one year"],
  ["1671", "Po vienų metų gautinos suteiktos paskolos", "Loans granted, receivable after one year"],
  ["1672", "Po vienų metų gautinos lizingo (finansinės nuomos) sumos", "Finance lease receivables after one year"],
  ["1674", "Kitos po vienų metų gautinos sumos", "Other amounts receivable after one year"],
  ["168", "Kitas finansinis turtas", "Other financial assets", { line: "A.III.9" }],
  ["1680", "Sumokėti avansai už finansinį turtą", "Advance payments for financial assets"],
  ["1681", "Iš išvestinių finansinių priemonių atsiradęs finansinis turtas", "Derivative financial assets"],
  ["1682", "Kitas ilgalaikis finansinis turtas", "Other long-term financial assets"],

  ["17", "Kitas ilgalaikis turtas", "Other non-current assets", { line: "A.IV" }],
  ["171", "Atidėtojo pelno mokesčio turtas", "Deferred tax assets", { line: "A.IV.1" }],
  ["172", "Biologinis turtas", "Biological assets", { line: "A.IV.2" }],
  ["173", "Kitas turtas", "Other assets", { line: "A.IV.3" }],

  // ---------------------------------------------------------------------------------------------------- class 2
  ["2", "TRUMPALAIKIS TURTAS", "CURRENT ASSETS", { line: "B" }],
  ["20", "Atsargos", "Inventories", { line: "B.I" }],
  ["201", "Žaliavos, medžiagos ir komplektavimo detalės", "Raw materials, materials and components", { line: "B.I.1" }],
  ["2010", "Žaliavų, medžiagų ir komplektavimo detalių įsigijimo savikaina", "Raw materials, materials and components: cost"],
  ["2011", "Žaliavos, medžiagos ir komplektavimo detalės kelyje", "Raw materials, materials and components in transit"],
  ["2012", "Žaliavos, medžiagos ir komplektavimo detalės pas trečiuosius asmenis", "Raw materials, materials and components held by third parties"],
  ["2019", "Žaliavų, medžiagų ir komplektavimo detalių vertės sumažėjimas (−)", "Raw materials, materials and components: write-down (−)", C],
  ["202", "Nebaigta produkcija ir vykdomi darbai", "Work in progress", { line: "B.I.2" }],
  ["2020", "Nebaigtos produkcijos savikaina", "Work in progress: cost"],
  ["2021", "Vykdomų darbų savikaina", "Contract work in progress: cost"],
  ["2029", "Nebaigtos produkcijos ir vykdomų darbų vertės sumažėjimas (−)", "Work in progress: write-down (−)", { ...C, saft: "202" }],
  ["203", "Produkcija", "Finished goods", { line: "B.I.3" }],
  ["2030", "Produkcijos savikaina", "Finished goods: cost"],
  ["2035", "Produkcija kelyje", "Finished goods in transit"],
  ["2036", "Produkcija pas trečiuosius asmenis", "Finished goods held by third parties"],
  ["2039", "Produkcijos vertės sumažėjimas (−)", "Finished goods: write-down (−)", C],
  ["204", "Pirktos prekės, skirtos perparduoti", "Goods for resale", { line: "B.I.4" }],
  ["2040", "Pirktų prekių, skirtų perparduoti, įsigijimo savikaina", "Goods for resale: cost"],
  ["2045", "Pirktos prekės, skirtos perparduoti, kelyje", "Goods for resale in transit"],
  ["2046", "Pirktos prekės, skirtos perparduoti, pas trečiuosius asmenis", "Goods for resale held by third parties"],
  ["2049", "Pirktų prekių, skirtų perparduoti, vertės sumažėjimas (−)", "Goods for resale: write-down (−)", C],
  ["205", "Biologinis turtas", "Biological assets", { line: "B.I.5" }],
  ["206", "Ilgalaikis materialusis turtas, skirtas parduoti", "Non-current assets held for sale", { line: "B.I.6" }],
  ["2060", "Ilgalaikio materialiojo turto, skirto parduoti, savikaina", "Non-current assets held for sale: cost"],
  ["2069", "Ilgalaikio materialiojo turto, skirto parduoti, vertės sumažėjimas (−)", "Non-current assets held for sale: impairment (−)", C],
  ["208", "Sumokėti avansai", "Advance payments", { line: "B.I.7" }],
  ["2080", "Sumokėti avansai tiekėjams", "Advances paid to suppliers"],
  ["2084", "Sumokėti užstatai", "Deposits paid"],
  ["2089", "Sumokėtų avansų vertės sumažėjimas (−)", "Advances paid: impairment (−)", C],

  ["24", "Per vienus metus gautinos sumos", "Amounts receivable within one year", { line: "B.II" }],
  ["241", "Pirkėjų skolos", "Trade receivables", { line: "B.II.1" }],
  ["2410", "Pirkėjų skolų vertė", "Trade receivables"],
  ["2419", "Pirkėjų skolų vertės sumažėjimas (abejotinos skolos) (−)", "Allowance for doubtful trade receivables (−)", C],
  ["242", "Įmonių grupės įmonių skolos", "Amounts owed by group undertakings", { line: "B.II.2" }],
  ["2420", "Patronuojančiosios įmonės skolos", "Amounts owed by the parent undertaking"],
  ["2421", "Patronuojamųjų įmonių skolos", "Amounts owed by subsidiaries"],
  ["243", "Asocijuotųjų įmonių skolos", "Amounts owed by associates", { line: "B.II.3" }],
  ["2430", "Asocijuotųjų įmonių skolų vertė", "Amounts owed by associates"],
  ["2439", "Asocijuotųjų įmonių skolų vertės sumažėjimas (−)", "Amounts owed by associates: impairment (−)", C],
  ["244", "Kitos gautinos sumos", "Other amounts receivable", { line: "B.II.4" }],
  ["2440", "Suteiktos paskolos", "Loans granted"],
  ["2441", "Gautinas pridėtinės vertės mokestis", "VAT receivable (input VAT)"],
  ["2442", "Iš anksto sumokėtas pelno mokestis", "Corporate income tax paid in advance"],
  ["2443", "Mokesčių permokos", "Tax overpayments"],
  ["2444", "VSDF skola įmonei", "Amounts owed by the State Social Insurance Fund (Sodra)"],
  ["2445", "Iš atskaitingų asmenų gautinos sumos", "Amounts receivable from accountable persons"],
  ["2446", "Kitos gautinos skolos", "Other receivables"],
  ["2447", "Su įmonės savininkais susijusios gautinos sumos", "Amounts receivable from the owners (MB, IĮ)"],
  ["24471", "Įmonės savininkams avansu išmokėtas pelnas", "Profit paid to the owners in advance"],
  ["24472", "Įmonės savininkų asmeniniams poreikiams išmokėtos lėšos", "Funds paid to the owners for personal needs"],
  ["2449", "Kitų gautinų sumų vertės sumažėjimas (abejotinos skolos) (−)", "Other receivables: impairment (−)", C],

  ["26", "Trumpalaikės investicijos", "Short-term investments", { line: "B.III" }],
  ["261", "Įmonių grupės įmonių akcijos", "Shares in group undertakings", { line: "B.III.1" }],
  ["262", "Kitos investicijos", "Other investments", { line: "B.III.2" }],
  ["2620", "Kitų įmonių nuosavybės vertybiniai popieriai", "Equity securities of other companies"],
  ["2621", "Ne nuosavybės vertybiniai popieriai", "Debt securities"],
  ["2623", "Terminuotieji indėliai", "Term deposits"],

  ["27", "Pinigai ir pinigų ekvivalentai", "Cash and cash equivalents", { line: "B.IV" }],
  ["271", "Sąskaitos bankuose", "Bank accounts"],
  ["2710", "Sąskaitos bankuose eurais", "Bank accounts in euro", { saft: "271" }],
  ["2711", "Sąskaitos bankuose užsienio valiuta", "Bank accounts in foreign currency", { saft: "271" }],
  ["272", "Kasa", "Cash on hand"],
  ["2720", "Kasa eurais", "Cash on hand in euro", { saft: "272" }],
  ["2721", "Kasa užsienio valiuta", "Cash on hand in foreign currency", { saft: "272" }],
  ["273", "Pinigai kelyje", "Cash in transit"],
  ["274", "Pinigų ekvivalentai", "Cash equivalents"],
  ["279", "Įšaldytos lėšos (−)", "Frozen funds (−)", C],

  ["29", "Ateinančių laikotarpių sąnaudos ir sukauptos pajamos", "Prepayments and accrued income", { line: "C" }],
  ["291", "Ateinančių laikotarpių sąnaudos", "Prepaid expenses"],
  ["292", "Sukauptos pajamos", "Accrued income"],

  // ---------------------------------------------------------------------------------------------------- class 3
  ["3", "NUOSAVAS KAPITALAS", "EQUITY", { line: "D" }],
  ["30", "Kapitalas", "Capital", { line: "D.I" }],
  ["301", "Įstatinis (pasirašytasis) kapitalas", "Share capital (subscribed)", { line: "D.I.1" }],
  // The sample chart numbers ordinary shares 3011; the capital of a company with one class of shares keeps 3010,
  // the code of the share capital account companies and migrations already post to, mapped to 3011 for SAF-T.
  ["3010", "Įstatinis kapitalas – paprastosios akcijos", "Share capital: ordinary shares", { saft: "3011" }],
  ["3012", "Privilegijuotosios akcijos", "Preference shares"],
  ["3013", "Darbuotojų akcijos", "Employee shares"],
  ["3014", "Pajai", "Members' shares (cooperatives)"],
  ["302", "Pasirašytasis neapmokėtas kapitalas (−)", "Subscribed capital unpaid (−)", { line: "D.I.2" }],
  ["3020", "Pasirašytasis neapmokėtas kapitalas (−)", "Subscribed capital unpaid (−)", { ...C, saft: "302" }],
  ["303", "Savos akcijos (pajai) (−)", "Own shares (−)", { line: "D.I.3" }],
  ["3030", "Savų akcijų (pajų) įsigijimo savikaina (−)", "Own shares: cost of acquisition (−)", { ...C, saft: "303" }],
  // The owners of a small partnership (MB) and an individual enterprise (IĮ) hold capital and contributions, not shares.
  ["305", "Įmonės savininko kapitalas", "Owner's capital (IĮ)", { line: "D.I.1" }],
  ["3050", "Individualios įmonės savininko kapitalas", "Owner's capital of an individual enterprise", { saft: "305" }],
  ["308", "Savininkų įnašai", "Members' contributions (MB)", { line: "D.I.1" }],
  ["3080", "Mažosios bendrijos narių įnašai", "Contributions of the members of a small partnership", { saft: "308" }],
  ["309", "Nesumokėti savininkų įnašai (−)", "Unpaid contributions of the owners (−)", { line: "D.I.2" }],
  ["3090", "Nesumokėti savininkų įnašai (−)", "Unpaid contributions of the owners (−)", { ...C, saft: "309" }],
  ["31", "Akcijų priedai", "Share premium", { line: "D.II" }],
  ["310", "Akcijų priedai (emisinis skirtumas)", "Share premium", { saft: "31" }],
  ["32", "Perkainojimo rezervas", "Revaluation reserve", { line: "D.III" }],
  ["321", "Ilgalaikio materialiojo turto perkainojimo rezervas", "Revaluation reserve of property, plant and equipment"],
  ["322", "Finansinio turto perkainojimo rezervas", "Revaluation reserve of financial assets"],
  ["33", "Rezervai", "Reserves", { line: "D.IV" }],
  ["331", "Privalomasis rezervas arba atsargos (rezervinis) kapitalas", "Legal reserve", { line: "D.IV.1" }],
  ["332", "Rezervas savoms akcijoms įsigyti", "Reserve for acquiring own shares", { line: "D.IV.2" }],
  ["333", "Kiti rezervai", "Other reserves", { line: "D.IV.3" }],
  ["34", "Nepaskirstytasis pelnas (nuostoliai)", "Retained earnings (losses)", { line: "D.V" }],
  ["341", "Ataskaitinių metų pelnas (nuostoliai)", "Profit (loss) of the reporting year", { line: "D.V.1" }],
  [
    "3411",
    "Pelno (nuostolių) ataskaitoje pripažintas ataskaitinių metų pelnas (nuostoliai)",
    "Profit (loss) of the reporting year recognised in the income statement",
  ],
  [
    "3412",
    "Pelno (nuostolių) ataskaitoje nepripažintas ataskaitinių metų pelnas (nuostoliai)",
    "Profit (loss) of the reporting year not recognised in the income statement",
  ],
  ["342", "Ankstesnių metų pelnas (nuostoliai)", "Profit (loss) brought forward", { line: "D.V.2" }],
  [
    "3421",
    "Pelno (nuostolių) ataskaitoje pripažintas ankstesnių metų pelnas (nuostoliai)",
    "Profit (loss) of previous years recognised in the income statement",
  ],
  [
    "3422",
    "Pelno (nuostolių) ataskaitoje nepripažintas ankstesnių metų pelnas (nuostoliai)",
    "Profit (loss) of previous years not recognised in the income statement",
  ],
  ["3423", "Ankstesnių metų pelnas (nuostoliai) dėl apskaitos politikos keitimo", "Effect of changes in accounting policies"],
  ["3424", "Ankstesnių metų esminių klaidų taisymo pelnas (nuostoliai)", "Correction of material errors of previous years"],
  // Opening balances are posted against 999, which must reach zero once every balance is in (a balance left here
  // is a missing or wrong opening balance). Outside the classes: SAF-T type KT, its own statement line.
  ["999", "Pradinių likučių tarpinė sąskaita", "Opening balance interim account", { line: "X", type: "equity" }],

  // ---------------------------------------------------------------------------------------------------- class 4
  ["4", "DOTACIJOS, SUBSIDIJOS, ATIDĖJINIAI, MOKĖTINOS SUMOS IR KITI ĮSIPAREIGOJIMAI", "GRANTS, PROVISIONS, AMOUNTS PAYABLE AND OTHER LIABILITIES"],
  ["40", "Dotacijos, subsidijos", "Grants and subsidies", { line: "E" }],
  ["401", "Su turtu susijusios dotacijos", "Grants related to assets"],
  ["402", "Su pajamomis susijusios dotacijos", "Grants related to income"],
  ["41", "Atidėjiniai", "Provisions", { line: "F" }],
  ["411", "Pensijų ir panašių įsipareigojimų atidėjiniai", "Provisions for pensions and similar obligations", { line: "F.1" }],
  ["412", "Mokesčių atidėjiniai", "Provisions for taxation", { line: "F.2" }],
  ["4120", "Atidėtojo pelno mokesčio įsipareigojimai", "Deferred tax liabilities", { saft: "412" }],
  ["4121", "Kiti mokesčių atidėjiniai", "Other tax provisions", { saft: "412" }],
  ["413", "Kiti atidėjiniai", "Other provisions", { line: "F.3" }],
  [
    "42",
    "Po vienų metų mokėtinos sumos ir kiti ilgalaikiai įsipareigojimai",
    "Amounts payable after one year and other non-current liabilities",
    { line: "G.I" },
  ],
  ["421", "Skoliniai įsipareigojimai", "Debt obligations", { line: "G.I.1" }],
  ["4211", "Lizingo (finansinės nuomos) ar panašūs įsipareigojimai", "Finance lease and similar obligations"],
  ["4214", "Kiti skoliniai įsipareigojimai", "Other debt obligations"],
  ["422", "Skolos kredito įstaigoms", "Amounts owed to credit institutions", { line: "G.I.2" }],
  ["4220", "Ilgalaikiai įsipareigojimai pagal paskolų sutartis", "Long-term bank loans"],
  ["4221", "Kiti įsipareigojimai kredito įstaigoms", "Other amounts owed to credit institutions"],
  ["423", "Gauti avansai", "Advances received", { line: "G.I.3" }],
  ["4230", "Iš pirkėjų gauti avansai", "Advances received from customers (after one year)"],
  ["424", "Skolos tiekėjams", "Trade payables after one year", { line: "G.I.4" }],
  ["426", "Įmonių grupės įmonėms mokėtinos sumos", "Amounts payable to group undertakings after one year", { line: "G.I.6" }],
  ["427", "Asocijuotosioms įmonėms mokėtinos sumos", "Amounts payable to associates after one year", { line: "G.I.7" }],
  ["428", "Kitos mokėtinos sumos ir ilgalaikiai įsipareigojimai", "Other amounts payable after one year", { line: "G.I.8" }],
  [
    "44",
    "Per vienus metus mokėtinos sumos ir kiti trumpalaikiai įsipareigojimai",
    "Amounts payable within one year and other current liabilities",
    { line: "G.II" },
  ],
  ["440", "Skoliniai įsipareigojimai", "Debt obligations", { line: "G.II.1" }],
  ["4401", "Lizingo (finansinės nuomos) įsipareigojimų einamųjų metų dalis", "Current portion of finance lease obligations"],
  ["4403", "Kitų ilgalaikių skolų einamųjų metų dalis", "Current portion of other long-term debts"],
  ["4404", "Kiti skoliniai įsipareigojimai", "Other debt obligations"],
  ["441", "Skolos kredito įstaigoms", "Amounts owed to credit institutions", { line: "G.II.2" }],
  ["4410", "Įsipareigojimai pagal trumpalaikių paskolų sutartis", "Short-term bank loans"],
  ["4411", "Skolų kredito įstaigoms einamųjų metų dalis", "Current portion of bank loans"],
  ["4413", "Kiti įsipareigojimai kredito įstaigoms", "Other amounts owed to credit institutions"],
  ["442", "Gauti avansai", "Advances received", { line: "G.II.3" }],
  ["4420", "Iš pirkėjų gauti avansai", "Advances received from customers"],
  ["4421", "Iš paslaugų gavėjų gauti avansai", "Advances received for services"],
  ["443", "Skolos tiekėjams", "Trade payables", { line: "G.II.4" }],
  ["4430", "Skolos tiekėjams už prekes ir paslaugas", "Trade payables for goods and services"],
  ["4431", "Kitos skolos tiekėjams", "Other amounts owed to suppliers"],
  ["444", "Pagal vekselius ir čekius mokėtinos sumos", "Bills of exchange and cheques payable", { line: "G.II.5" }],
  ["4440", "Pagal vekselius ir čekius mokėtinos sumos", "Bills of exchange and cheques payable", { saft: "444" }],
  ["445", "Įmonių grupės įmonėms mokėtinos sumos", "Amounts payable to group undertakings", { line: "G.II.6" }],
  ["4450", "Patronuojančiajai įmonei mokėtinos sumos", "Amounts payable to the parent undertaking"],
  ["4451", "Patronuojamosioms įmonėms mokėtinos sumos", "Amounts payable to subsidiaries"],
  ["446", "Asocijuotosioms įmonėms mokėtinos sumos", "Amounts payable to associates", { line: "G.II.7" }],
  ["447", "Pelno mokesčio įsipareigojimai", "Corporate income tax payable", { line: "G.II.8" }],
  ["4470", "Mokėtinas pelno mokestis", "Corporate income tax payable"],
  ["4471", "Kiti panašūs įsipareigojimai", "Other similar liabilities"],
  ["448", "Su darbo santykiais susiję įsipareigojimai", "Employment-related liabilities", { line: "G.II.9" }],
  ["4480", "Mokėtinas darbo užmokestis", "Salaries payable"],
  ["4481", "Mokėtinas gyventojų pajamų mokestis", "Personal income tax payable"],
  ["4482", "Mokėtinos socialinio draudimo įmokos", "Social insurance contributions payable (Sodra)"],
  ["4483", "Mokėtinos garantinio ir ilgalaikio darbo išmokų fondų įmokos", "Guarantee and long-term employment benefit fund contributions payable"],
  ["4484", "Kitos mokėtinos išmokos darbuotojams", "Other amounts payable to employees"],
  ["4485", "Atostoginių kaupiniai", "Accrued vacation pay"],
  ["4486", "Mokėtinos privalomojo sveikatos draudimo įmokos", "Compulsory health insurance contributions payable"],
  ["449", "Kitos mokėtinos sumos ir trumpalaikiai įsipareigojimai", "Other amounts payable and current liabilities", { line: "G.II.10" }],
  ["4490", "Mokėtini dividendai", "Dividends payable"],
  ["4491", "Mokėtinos tantjemos", "Bonuses (tantjemos) payable"],
  ["4492", "Mokėtinas pridėtinės vertės mokestis", "VAT payable (output VAT)"],
  ["4493", "Kiti į biudžetą mokėtini mokesčiai", "Other taxes payable"],
  ["4494", "Kitos mokėtinos sumos", "Other amounts payable"],
  ["4495", "Įmonės savininkams mokėtinos sumos", "Amounts payable to the owners (MB, IĮ)"],
  ["49", "Sukauptos sąnaudos ir ateinančių laikotarpių pajamos", "Accruals and deferred income", { line: "H" }],
  ["491", "Sukauptos sąnaudos", "Accrued expenses"],
  ["492", "Ateinančių laikotarpių pajamos", "Deferred income"],

  // ---------------------------------------------------------------------------------------------------- class 5
  ["5", "PAJAMOS", "INCOME"],
  ["50", "Pardavimo pajamos", "Revenue", { line: "PL.1" }],
  ["500", "Prekių ir paslaugų pardavimo pajamos", "Revenue from goods and services"],
  ["5000", "Parduotų prekių pajamos", "Revenue from goods sold"],
  ["5001", "Suteiktų paslaugų pajamos", "Revenue from services"],
  ["5003", "Pagamintos produkcijos pardavimo pajamos", "Revenue from own products sold"],
  ["5009", "Atsiskaitymų grynaisiais pinigais apvalinimas (+/−)", "Cash payment rounding (+/−)"],
  ["509", "Suteiktos nuolaidos, pardavimo grąžinimai (−)", "Sales discounts and returns (−)", C],
  ["54", "Kitos veiklos pajamos", "Other operating income", { line: "PL.7" }],
  ["5400", "Ilgalaikio turto perleidimo pelnas", "Gain on disposal of non-current assets"],
  ["5401", "Kitos veiklos pajamos", "Other operating income"],
  ["55", "Investicijų į įmonių grupės ir asocijuotųjų įmonių akcijas pajamos", "Income from shares in group undertakings and associates", { line: "PL.8" }],
  ["5500", "Dividendai iš įmonių grupės ir asocijuotųjų įmonių", "Dividends from group undertakings and associates"],
  ["5501", "Investicijų į įmonių grupės ir asocijuotųjų įmonių akcijas perleidimo pelnas", "Gain on disposal of shares in group undertakings and associates"],
  ["56", "Kitų ilgalaikių investicijų ir paskolų pajamos", "Income from other long-term investments and loans", { line: "PL.9" }],
  ["5600", "Kitų ilgalaikių investicijų ir paskolų palūkanų pajamos", "Interest on other long-term investments and loans"],
  ["5601", "Kitų ilgalaikių investicijų perleidimo pelnas", "Gain on disposal of other long-term investments"],
  ["5604", "Kitų ilgalaikių investicijų dividendai", "Dividends from other long-term investments"],
  ["58", "Kitos palūkanų ir panašios pajamos", "Other interest and similar income", { line: "PL.10" }],
  ["5800", "Įmonių grupės įmonėms suteiktų paskolų palūkanų pajamos", "Interest on loans to group undertakings", { saft: "58" }],
  ["5801", "Asocijuotosioms įmonėms suteiktų paskolų palūkanų pajamos", "Interest on loans to associates", { saft: "58" }],
  ["5802", "Kitų suteiktų paskolų ir indėlių palūkanų pajamos", "Interest on other loans and deposits"],
  ["5803", "Teigiama valiutų kursų pokyčio įtaka", "Foreign exchange gains"],
  ["5804", "Baudų ir delspinigių pajamos", "Fines and late-payment interest received"],
  ["5805", "Iš išvestinių finansinių priemonių atsiradęs pelnas", "Gains on derivatives"],
  ["5809", "Investicijų perleidimo pelnas", "Gain on disposal of investments"],
  ["5810", "Kitos finansinės ir investicinės veiklos pajamos", "Other financial and investment income"],

  // ---------------------------------------------------------------------------------------------------- class 6
  ["6", "SĄNAUDOS", "EXPENSES"],
  ["60", "Pardavimo savikaina", "Cost of sales", { line: "PL.2" }],
  ["600", "Parduotų prekių ir suteiktų paslaugų savikaina", "Cost of goods sold and services provided"],
  ["6000", "Parduotų prekių savikaina", "Cost of goods sold"],
  ["6001", "Suteiktų paslaugų savikaina", "Cost of services provided"],
  ["6003", "Parduotos pagamintos produkcijos savikaina", "Cost of own products sold"],
  ["6005", "Atsargų padidėjimas (sumažėjimas)", "Change in inventories"],
  ["609", "Gautos nuolaidos, pirkimų grąžinimai (−)", "Purchase discounts and returns (−)", C],
  ["62", "Pardavimo sąnaudos", "Selling expenses", { line: "PL.5" }],
  ["6200", "Komisiniai mokesčiai pardavėjams", "Sales commissions"],
  ["6201", "Prekybos pastatų ir įrangos nusidėvėjimas", "Depreciation of selling premises and equipment"],
  ["6202", "Paslaugų ir prekių reklamos sąnaudos", "Advertising"],
  ["6203", "Pardavimo darbuotojų darbo užmokestis ir su juo susijusios sąnaudos", "Salaries and related costs of sales staff"],
  ["6204", "Pardavimo atidėjinių sąnaudos", "Selling provisions (warranties)"],
  ["6205", "Prekių pristatymo (transportavimo) sąnaudos", "Delivery costs", { saft: "6208" }],
  // The spec makes 6206 the depreciation expense account of an asset group by default. The sample chart leaves 6206
  // free, so it takes that meaning here: depreciation and amortisation of the company's non-current assets, reported
  // on the general and administrative line (as the sample chart's 6306 is, which SAF-T maps it to) because an asset
  // group without its own expense account is most often office and management equipment; a group of selling premises
  // or equipment points to 6201 instead.
  ["6206", "Ilgalaikio turto nusidėvėjimo ir amortizacijos sąnaudos", "Depreciation and amortisation of non-current assets", { line: "PL.6", saft: "6306" }],
  ["6208", "Kitos pardavimo sąnaudos", "Other selling expenses"],
  ["6209", "Gautos nuolaidos (−)", "Discounts received (−)", C],
  ["63", "Bendrosios ir administracinės sąnaudos", "General and administrative expenses", { line: "PL.6" }],
  ["6300", "Nuomos sąnaudos", "Rent"],
  ["6301", "Remonto ir eksploatacijos sąnaudos", "Repairs and maintenance"],
  ["6302", "Kuro sąnaudos", "Fuel"],
  ["6303", "Draudimo sąnaudos", "Insurance"],
  ["6304", "Administracijos darbuotojų darbo užmokestis ir su juo susijusios sąnaudos", "Salaries and related costs of administrative staff"],
  ["6305", "Tantjemos ir kitos panašios išmokos", "Bonuses (tantjemos) and similar payments"],
  ["6306", "Ilgalaikio materialiojo turto nusidėvėjimo sąnaudos", "Depreciation of property, plant and equipment"],
  ["6307", "Nematerialiojo turto amortizacijos sąnaudos", "Amortisation of intangible assets"],
  ["6308", "Veiklos mokesčių sąnaudos", "Taxes other than income tax"],
  ["63080", "Nekilnojamojo turto mokesčio sąnaudos", "Real estate tax"],
  ["63081", "Neatskaitomo pridėtinės vertės mokesčio sąnaudos", "Non-deductible VAT"],
  ["63082", "Aplinkos teršimo mokesčio sąnaudos", "Environmental pollution tax"],
  ["63083", "Kitų mokesčių sąnaudos", "Other taxes"],
  ["6309", "Turto vertės sumažėjimo sąnaudos", "Impairment and write-downs of assets"],
  ["63090", "Pirkėjų skolų vertės sumažėjimo (abejotinų skolų) sąnaudos", "Bad and doubtful debts"],
  ["63091", "Atsargų vertės sumažėjimo sąnaudos", "Inventory write-downs"],
  ["63092", "Nematerialiojo turto vertės sumažėjimo sąnaudos", "Impairment of intangible assets"],
  ["63093", "Ilgalaikio materialiojo turto vertės sumažėjimo sąnaudos", "Impairment of property, plant and equipment"],
  ["63094", "Kito turto vertės sumažėjimo sąnaudos", "Impairment of other assets"],
  ["6310", "Atidėjinių sąnaudos", "Provisions"],
  ["6311", "Baudų ir delspinigių sąnaudos (neleidžiami atskaitymai)", "Fines and penalties (not deductible for income tax)"],
  ["6312", "Kitos bendrosios ir administracinės sąnaudos", "Other general and administrative expenses"],
  ["6313", "Gautos nuolaidos (−)", "Discounts received on administrative expenses (−)", C],
  ["6314", "Banko paslaugų (komisinių) sąnaudos", "Bank charges", { saft: "6312" }],
  ["6315", "Reprezentacinės sąnaudos (50 % neleidžiami atskaitymai)", "Entertainment (half not deductible for income tax)", { saft: "6312" }],
  ["6316", "Komandiruočių ir dienpinigių sąnaudos", "Business travel and daily allowances", { saft: "6312" }],
  ["6317", "Paramos ir labdaros sąnaudos", "Donations and sponsorship", { saft: "6312" }],
  ["6318", "Konsultacijų, apskaitos ir teisinių paslaugų sąnaudos", "Professional fees (advisory, accounting, legal)", { saft: "6312" }],
  ["6319", "Atsiskaitymų grynaisiais pinigais apvalinimas (+/−)", "Cash payment rounding (+/−)"],
  ["6320", "Komunalinių paslaugų ir energijos sąnaudos", "Utilities and energy", { saft: "6312" }],
  ["6321", "Ryšių ir informacinių technologijų paslaugų sąnaudos", "Telecommunications and IT services", { saft: "6312" }],
  ["64", "Kitos veiklos sąnaudos", "Other operating expenses", { line: "PL.7" }],
  ["6400", "Ilgalaikio turto perleidimo nuostoliai", "Loss on disposal of non-current assets"],
  ["6401", "Kitos veiklos sąnaudos", "Other operating expenses"],
  ["67", "Finansinio turto ir trumpalaikių investicijų vertės sumažėjimas", "Impairment of financial assets and short-term investments", { line: "PL.11" }],
  ["6701", "Ilgalaikio finansinio turto vertės sumažėjimo sąnaudos", "Impairment of long-term financial assets"],
  ["6702", "Trumpalaikių investicijų vertės sumažėjimo sąnaudos", "Impairment of short-term investments"],
  ["68", "Palūkanų ir kitos panašios sąnaudos", "Interest and similar expenses", { line: "PL.12" }],
  ["6800", "Įmonių grupės įmonių suteiktų paskolų palūkanų sąnaudos", "Interest on loans from group undertakings"],
  ["6801", "Asocijuotųjų įmonių suteiktų paskolų palūkanų sąnaudos", "Interest on loans from associates"],
  ["6802", "Kitų paskolų palūkanų sąnaudos", "Interest on other loans (banks)"],
  ["6803", "Neigiama valiutų kursų pokyčio įtaka", "Foreign exchange losses"],
  ["6804", "Delspinigių ir palūkanų už pavėluotus mokėjimus sąnaudos", "Late-payment interest"],
  ["6805", "Iš išvestinių finansinių priemonių atsiradę nuostoliai", "Losses on derivatives"],
  ["6806", "Palūkanų sąnaudos už finansinės nuomos būdu įsigyjamą turtą", "Finance lease interest"],
  ["6809", "Investicijų perleidimo nuostoliai", "Loss on disposal of investments"],
  ["6810", "Kitos finansinės ir investicinės veiklos sąnaudos", "Other financial and investment expenses"],
  ["69", "Pelno mokestis", "Income tax", { line: "PL.14" }],
  ["6900", "Ataskaitinių metų pelno mokesčio sąnaudos", "Current income tax expense"],
  ["6901", "Atidėtojo pelno mokesčio sąnaudos (pajamos)", "Deferred income tax expense (income)"],
];

/**
 * The lines of the Lithuanian financial statements the accounts map to: the balance sheet (VAS 2 "Balansas") and the
 * profit and loss account (VAS 3 "Pelno (nuostolių) ataskaita", by function of expense), with the lines between the
 * totals. `X` is the opening-balance interim account, which belongs to no line and must be zero.
 */
export const STATEMENT_LINES: Record<string, { name: string; nameEn: string }> = {
  A: { name: "ILGALAIKIS TURTAS", nameEn: "NON-CURRENT ASSETS" },
  "A.I": { name: "Nematerialusis turtas", nameEn: "Intangible assets" },
  "A.I.1": { name: "Plėtros darbai", nameEn: "Development costs" },
  "A.I.2": { name: "Prestižas", nameEn: "Goodwill" },
  "A.I.3": { name: "Programinė įranga", nameEn: "Software" },
  "A.I.4": {
    name: "Koncesijos, patentai, licencijos, prekių ženklai ir panašios teisės",
    nameEn: "Concessions, patents, licences, trade marks and similar rights",
  },
  "A.I.5": { name: "Kitas nematerialusis turtas", nameEn: "Other intangible assets" },
  "A.I.6": { name: "Sumokėti avansai", nameEn: "Advance payments" },
  "A.II": { name: "Materialusis turtas", nameEn: "Tangible assets" },
  "A.II.1": { name: "Žemė", nameEn: "Land" },
  "A.II.2": { name: "Pastatai ir statiniai", nameEn: "Buildings and structures" },
  "A.II.3": { name: "Mašinos ir įranga", nameEn: "Machinery and plant" },
  "A.II.4": { name: "Transporto priemonės", nameEn: "Vehicles" },
  "A.II.5": { name: "Kiti įrenginiai, prietaisai ir įrankiai", nameEn: "Other equipment, fittings and tools" },
  "A.II.6": { name: "Investicinis turtas", nameEn: "Investment property" },
  "A.II.6.1": { name: "Žemė", nameEn: "Land" },
  "A.II.6.2": { name: "Pastatai", nameEn: "Buildings" },
  "A.II.7": {
    name: "Sumokėti avansai ir vykdomi materialiojo turto statybos (gamybos) darbai",
    nameEn: "Advance payments and tangible assets under construction",
  },
  "A.III": { name: "Finansinis turtas", nameEn: "Financial assets" },
  "A.III.1": { name: "Įmonių grupės įmonių akcijos", nameEn: "Shares in group undertakings" },
  "A.III.2": { name: "Paskolos įmonių grupės įmonėms", nameEn: "Loans to group undertakings" },
  "A.III.3": { name: "Iš įmonių grupės įmonių gautinos sumos", nameEn: "Amounts receivable from group undertakings" },
  "A.III.4": { name: "Asocijuotųjų įmonių akcijos", nameEn: "Shares in associates" },
  "A.III.5": { name: "Paskolos asocijuotosioms įmonėms", nameEn: "Loans to associates" },
  "A.III.6": { name: "Iš asocijuotųjų įmonių gautinos sumos", nameEn: "Amounts receivable from associates" },
  "A.III.7": { name: "Ilgalaikės investicijos", nameEn: "Long-term investments" },
  "A.III.8": { name: "Po vienų metų gautinos sumos", nameEn: "Amounts receivable after one year" },
  "A.III.9": { name: "Kitas finansinis turtas", nameEn: "Other financial assets" },
  "A.IV": { name: "Kitas ilgalaikis turtas", nameEn: "Other non-current assets" },
  "A.IV.1": { name: "Atidėtojo pelno mokesčio turtas", nameEn: "Deferred tax assets" },
  "A.IV.2": { name: "Biologinis turtas", nameEn: "Biological assets" },
  "A.IV.3": { name: "Kitas turtas", nameEn: "Other assets" },
  B: { name: "TRUMPALAIKIS TURTAS", nameEn: "CURRENT ASSETS" },
  "B.I": { name: "Atsargos", nameEn: "Inventories" },
  "B.I.1": { name: "Žaliavos, medžiagos ir komplektavimo detalės", nameEn: "Raw materials, materials and components" },
  "B.I.2": { name: "Nebaigta gamyba ir vykdomi darbai", nameEn: "Work in progress" },
  "B.I.3": { name: "Produkcija", nameEn: "Finished goods" },
  "B.I.4": { name: "Pirktos prekės, skirtos perparduoti", nameEn: "Goods for resale" },
  "B.I.5": { name: "Biologinis turtas", nameEn: "Biological assets" },
  "B.I.6": { name: "Ilgalaikis materialusis turtas, skirtas parduoti", nameEn: "Non-current tangible assets held for sale" },
  "B.I.7": { name: "Sumokėti avansai", nameEn: "Advance payments" },
  "B.II": { name: "Per vienus metus gautinos sumos", nameEn: "Amounts receivable within one year" },
  "B.II.1": { name: "Pirkėjų skolos", nameEn: "Trade receivables" },
  "B.II.2": { name: "Įmonių grupės įmonių skolos", nameEn: "Amounts owed by group undertakings" },
  "B.II.3": { name: "Asocijuotųjų įmonių skolos", nameEn: "Amounts owed by associates" },
  "B.II.4": { name: "Kitos gautinos sumos", nameEn: "Other amounts receivable" },
  "B.III": { name: "Trumpalaikės investicijos", nameEn: "Short-term investments" },
  "B.III.1": { name: "Įmonių grupės įmonių akcijos", nameEn: "Shares in group undertakings" },
  "B.III.2": { name: "Kitos investicijos", nameEn: "Other investments" },
  "B.IV": { name: "Pinigai ir pinigų ekvivalentai", nameEn: "Cash and cash equivalents" },
  C: { name: "ATEINANČIŲ LAIKOTARPIŲ SĄNAUDOS IR SUKAUPTOS PAJAMOS", nameEn: "PREPAYMENTS AND ACCRUED INCOME" },
  D: { name: "NUOSAVAS KAPITALAS", nameEn: "EQUITY" },
  "D.I": { name: "Kapitalas", nameEn: "Capital" },
  "D.I.1": { name: "Įstatinis (pasirašytasis) arba pagrindinis kapitalas", nameEn: "Authorised (subscribed) or primary capital" },
  "D.I.2": { name: "Pasirašytasis neapmokėtas kapitalas (−)", nameEn: "Subscribed capital unpaid (−)" },
  "D.I.3": { name: "Savos akcijos, pajai (−)", nameEn: "Own shares (−)" },
  "D.II": { name: "Akcijų priedai", nameEn: "Share premium" },
  "D.III": { name: "Perkainojimo rezervas", nameEn: "Revaluation reserve" },
  "D.IV": { name: "Rezervai", nameEn: "Reserves" },
  "D.IV.1": { name: "Privalomasis rezervas arba atsargos (rezervinis) kapitalas", nameEn: "Legal reserve" },
  "D.IV.2": { name: "Savoms akcijoms, pajams įsigyti", nameEn: "Reserve for acquiring own shares" },
  "D.IV.3": { name: "Kiti rezervai", nameEn: "Other reserves" },
  "D.V": { name: "Nepaskirstytasis pelnas (nuostoliai)", nameEn: "Retained earnings (losses)" },
  "D.V.1": { name: "Ataskaitinių metų pelnas (nuostoliai)", nameEn: "Profit (loss) for the reporting year" },
  "D.V.2": { name: "Ankstesnių metų pelnas (nuostoliai)", nameEn: "Profit (loss) brought forward" },
  E: { name: "DOTACIJOS, SUBSIDIJOS", nameEn: "GRANTS AND SUBSIDIES" },
  F: { name: "ATIDĖJINIAI", nameEn: "PROVISIONS" },
  "F.1": { name: "Pensijų ir panašių įsipareigojimų atidėjiniai", nameEn: "Provisions for pensions and similar obligations" },
  "F.2": { name: "Mokesčių atidėjiniai", nameEn: "Provisions for taxation" },
  "F.3": { name: "Kiti atidėjiniai", nameEn: "Other provisions" },
  G: { name: "MOKĖTINOS SUMOS IR KITI ĮSIPAREIGOJIMAI", nameEn: "AMOUNTS PAYABLE AND OTHER LIABILITIES" },
  "G.I": {
    name: "Po vienų metų mokėtinos sumos ir kiti ilgalaikiai įsipareigojimai",
    nameEn: "Amounts payable after one year and other non-current liabilities",
  },
  "G.I.1": { name: "Skoliniai įsipareigojimai", nameEn: "Debt obligations" },
  "G.I.2": { name: "Skolos kredito įstaigoms", nameEn: "Amounts owed to credit institutions" },
  "G.I.3": { name: "Gauti avansai", nameEn: "Payments received on account" },
  "G.I.4": { name: "Skolos tiekėjams", nameEn: "Trade payables" },
  "G.I.5": { name: "Pagal vekselius ir čekius mokėtinos sumos", nameEn: "Bills of exchange and cheques payable" },
  "G.I.6": { name: "Įmonių grupės įmonėms mokėtinos sumos", nameEn: "Amounts payable to group undertakings" },
  "G.I.7": { name: "Asocijuotosioms įmonėms mokėtinos sumos", nameEn: "Amounts payable to associates" },
  "G.I.8": { name: "Kitos mokėtinos sumos ir ilgalaikiai įsipareigojimai", nameEn: "Other amounts payable and non-current liabilities" },
  "G.II": {
    name: "Per vienus metus mokėtinos sumos ir kiti trumpalaikiai įsipareigojimai",
    nameEn: "Amounts payable within one year and other current liabilities",
  },
  "G.II.1": { name: "Skoliniai įsipareigojimai", nameEn: "Debt obligations" },
  "G.II.2": { name: "Skolos kredito įstaigoms", nameEn: "Amounts owed to credit institutions" },
  "G.II.3": { name: "Gauti avansai", nameEn: "Payments received on account" },
  "G.II.4": { name: "Skolos tiekėjams", nameEn: "Trade payables" },
  "G.II.5": { name: "Pagal vekselius ir čekius mokėtinos sumos", nameEn: "Bills of exchange and cheques payable" },
  "G.II.6": { name: "Įmonių grupės įmonėms mokėtinos sumos", nameEn: "Amounts payable to group undertakings" },
  "G.II.7": { name: "Asocijuotosioms įmonėms mokėtinos sumos", nameEn: "Amounts payable to associates" },
  "G.II.8": { name: "Pelno mokesčio įsipareigojimai", nameEn: "Income tax liabilities" },
  "G.II.9": { name: "Su darbo santykiais susiję įsipareigojimai", nameEn: "Employment-related liabilities" },
  "G.II.10": { name: "Kitos mokėtinos sumos ir trumpalaikiai įsipareigojimai", nameEn: "Other amounts payable and current liabilities" },
  H: { name: "SUKAUPTOS SĄNAUDOS IR ATEINANČIŲ LAIKOTARPIŲ PAJAMOS", nameEn: "ACCRUALS AND DEFERRED INCOME" },
  X: { name: "Pradinių likučių tarpinė sąskaita (turi būti lygi nuliui)", nameEn: "Opening balance interim account (must be zero)" },
  "PL.1": { name: "Pardavimo pajamos", nameEn: "Revenue" },
  "PL.2": { name: "Pardavimo savikaina", nameEn: "Cost of sales" },
  "PL.3": { name: "Biologinio turto tikrosios vertės pokytis", nameEn: "Change in fair value of biological assets" },
  "PL.4": { name: "BENDRASIS PELNAS (NUOSTOLIAI)", nameEn: "GROSS PROFIT (LOSS)" },
  "PL.5": { name: "Pardavimo sąnaudos", nameEn: "Selling expenses" },
  "PL.6": { name: "Bendrosios ir administracinės sąnaudos", nameEn: "General and administrative expenses" },
  "PL.7": { name: "Kitos veiklos rezultatai", nameEn: "Result of other operating activities" },
  "PL.8": {
    name: "Investicijų į patronuojančiosios, patronuojamųjų ir asocijuotųjų įmonių akcijas pajamos",
    nameEn: "Income from shares in the parent, subsidiaries and associates",
  },
  "PL.9": { name: "Kitų ilgalaikių investicijų ir paskolų pajamos", nameEn: "Income from other long-term investments and loans" },
  "PL.10": { name: "Kitos palūkanų ir panašios pajamos", nameEn: "Other interest and similar income" },
  "PL.11": { name: "Finansinio turto ir trumpalaikių investicijų vertės sumažėjimas", nameEn: "Impairment of financial assets and short-term investments" },
  "PL.12": { name: "Palūkanų ir kitos panašios sąnaudos", nameEn: "Interest and other similar expenses" },
  "PL.13": { name: "PELNAS (NUOSTOLIAI) PRIEŠ APMOKESTINIMĄ", nameEn: "PROFIT (LOSS) BEFORE TAX" },
  "PL.14": { name: "Pelno mokestis", nameEn: "Income tax" },
  "PL.15": { name: "GRYNASIS PELNAS (NUOSTOLIAI)", nameEn: "NET PROFIT (LOSS)" },
};

/** SAF-T AccountType of an account (SAFT_2_01.xsd: IT, TT, NK, I, P, S, KT). */
export function saftAccountTypeOf(code: string, type: AccountType): SaftAccountType {
  if (code === "999") return "KT";
  const byClass: Record<string, SaftAccountType> = { "1": "IT", "2": "TT", "3": "NK", "4": "I", "5": "P", "6": "S" };
  if (/^[1-6]/.test(code) && byClass[code[0]]) return byClass[code[0]];
  return ({ asset: "TT", liability: "I", equity: "NK", income: "P", expense: "S" } as const)[type];
}

/**
 * SAF-T GroupingCategory and GroupingCode of an account in its chart (SAFT_2_01.xsd): a detailed account is D (D1L
 * when it has no parent), a summary account S1L when it has no parent, S when its sub-accounts are all detailed, S2L
 * otherwise; the grouping code is the parent's code.
 */
export function saftGrouping(account: { parentCode: string | null; hasChildren: boolean; hasGrandchildren: boolean }): {
  groupingCategory: SaftGroupingCategory;
  groupingCode: string | null;
} {
  const groupingCategory: SaftGroupingCategory = !account.hasChildren
    ? account.parentCode
      ? "D"
      : "D1L"
    : !account.parentCode
      ? "S1L"
      : account.hasGrandchildren
        ? "S2L"
        : "S";
  return { groupingCategory, groupingCode: account.parentCode };
}

function build(): TemplateAccount[] {
  const codes = new Set(ROWS.map(([code]) => code));
  const lines = new Map<string, string>(); // code -> statement line, inherited down the tree
  const parentOf = (code: string): string | null => {
    for (let length = code.length - 1; length >= 1; length--) if (codes.has(code.slice(0, length))) return code.slice(0, length);
    return null;
  };
  const parents = new Set<string>();
  const accounts = ROWS.map(([code, name, nameEn, options = {}]) => {
    const parentCode = parentOf(code);
    if (parentCode) parents.add(parentCode);
    const statementLine = options.line ?? (parentCode ? lines.get(parentCode) : undefined) ?? null;
    if (statementLine) lines.set(code, statementLine);
    const type = options.type ?? CLASS_TYPE[code[0]];
    return {
      code,
      name,
      nameEn,
      type,
      parentCode,
      isPostable: true,
      isContra: options.contra === true,
      statementLine,
      saftAccountTableId: options.saft ?? code,
      saftAccountType: saftAccountTypeOf(code, type),
    };
  });
  for (const a of accounts) a.isPostable = !parents.has(a.code);
  return accounts;
}

/** Parents before children, so the accounts can be inserted in this order. */
export const LT_STANDARD: readonly TemplateAccount[] = build();

/**
 * The description of a SAF-T AccountTableID: the name of the sample chart's account of that code (the tax authority's
 * classifier No. 1 numbers its accounts as the sample chart does), whatever a company named its own accounts; for an
 * id the sample chart has no account of (3011), the name of the sample-chart account that maps to it. Undefined for
 * an id outside the classifier (a company's own mapping).
 */
export function saftAccountTableDescription(id: string): string | undefined {
  // An account of the id's own code wins over the accounts that map to it (the later entries of a Map's list do).
  TABLE_DESCRIPTIONS ??= new Map([...LT_STANDARD.map((a) => [a.saftAccountTableId, a.name] as const), ...LT_STANDARD.map((a) => [a.code, a.name] as const)]);
  return TABLE_DESCRIPTIONS.get(id);
}
let TABLE_DESCRIPTIONS: Map<string, string> | undefined;
