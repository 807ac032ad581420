// The public sources every row of the Lithuanian declaration tables cites (issue 24). One name per source, so a
// row says where it comes from in a word and the README lists them once.
export const SOURCES = {
  /** VMI order VA-29 of 2004-03-01 approving the FR0600 form and its filling rules (box numbers and meanings). */
  VA29: "VMI order VA-29 (FR0600 form and rules), https://e-tar.lt/rs/legalact/TAR.121CF573EC0E",
  /** VMI's own FR0600 version 02 form definition and blank FFData, as copied in the Apskaita5 repository. */
  MXFD: "VMI FR0600 version 02 form definition FR0600(2).mxfd and template FR0600(2).ffdata (Apskaita5/Apskaita5, Apskaita3/Apskaita/MXFD and FFData)",
  /** Odoo's Lithuanian tax report, the cross-check of boxes 11-36 and their formulas. */
  ODOO_REPORT: "Odoo l10n_lt data/tax_report_data.xml @6666ee47 (cross-check)",
  /** Odoo's Lithuanian taxes with their box tags, the cross-check of the classifier -> box mapping. */
  ODOO_TAXES: "Odoo l10n_lt data/template/account.tax-lt.csv @6666ee47 (cross-check)",
  /** The VAT law article behind a classifier, as the VMI classifier (order VA-49) names it. */
  VAT_LAW: "PVM įstatymas (VAT law) as cited per classifier in reference/vat-classifiers/list",
  /** VMI's explanations on credit and debit documents: declared in their own period, with a minus sign. */
  KD7543: "VMI KD-7543 (2011-12-20) and 'Kreditiniai ir debetiniai dokumentai (83 str.)'",
  /** The i.SAF 1.2 schema and its annotations. */
  ISAF_XSD: "i.SAF 1.2 XSD (shared/schemas/lt/isaf_1_2.xsd) and its annotations",
  /** The FR0564 FFData layout of the RoboLabs generator and Microsoft Dynamics 365's LT EU sales list. */
  FR0564_LAYOUT:
    "FR0564 FFData as the RoboLabs e.vmi.fr0564 generator (prodev0223/financing robo/e_ataskaitos/wizard/VMI.py) and Microsoft Dynamics 365 'EU Sales list for Lithuania' write it",
  /** VMI order VA-130 of 2017-12-28 approving the FR0564 form. */
  VA130: "VMI order VA-130 (FR0564 form and rules), https://www.e-tar.lt/rs/legalact/de0e2060ebc211e7acd7ea182930b17f/",
  /** Unverified community claim of a 2026 FR0600 version with box 29A (VMI order VA-129 of 2025-12-22). */
  BOX_29A_CLAIM:
    "UNVERIFIED: community seeds (saebooks, Ekwo) claim box 29A for 12% from 2026 per VMI order VA-129 of 2025-12-22; Odoo PR #239388 puts 12% on the 9% line (30) instead",
} as const;
