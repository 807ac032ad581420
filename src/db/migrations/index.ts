import type { Knex } from "knex";
import * as platform from "./20261122000001_platform.js";
import * as reference from "./20261122000002_reference.js";
import * as ledger from "./20261122000003_ledger.js";
import * as partnersCatalog from "./20261122000004_partners_catalog.js";
import * as hardening from "./20261123000001_hardening.js";
import * as workerRegistry from "./20261123000002_worker_registry.js";
import * as gateFunction from "./20261123000003_gate_function.js";
import * as postingFunctions from "./20261123000004_posting_functions.js";
import * as vatClassifiers from "./20261123000101_vat_classifiers.js";
import * as ltChart from "./20261123000102_lt_chart.js";
import * as webhooks from "./20261123000200_webhooks.js";
import * as invoicing from "./20261124000101_invoicing.js";
import * as invoiceListTotals from "./20261124000102_invoice_list_totals.js";
import * as itemAccounts from "./20261124000103_item_accounts.js";
import * as invoiceTotalsRollup from "./20261124000150_invoice_totals_rollup.js";
import * as invoiceOpenTotals from "./20261124000151_invoice_open_totals.js";
import * as fixedAssets from "./20261124000201_fixed_assets.js";
import * as fixedAssetsTuning from "./20261124000202_fixed_assets_tuning.js";
import * as inventory from "./20261124000250_inventory.js";
import * as stockTakeFunction from "./20261124000290_stock_take_function.js";
import * as bank from "./20261124000300_bank.js";
import * as booksMigration from "./20261124000400_books_migration.js";
import * as journalOpenXid from "./20261124000500_journal_open_xid.js";
import * as apiKeyWriteGuard from "./20261124000510_api_key_write_guard.js";
import * as bankOriginalAmount from "./20261124000610_bank_original_amount.js";
import * as bankAccountIbanCurrency from "./20261124000611_bank_account_iban_currency.js";
import * as journalForImports from "./20261124000620_journal_for_imports.js";
import * as stockInvariants from "./20261124000630_stock_invariants.js";
import * as stockTakeShortBalance from "./20261124000631_stock_take_short_balance.js";
import * as invoiceTaxPoint from "./20261124000640_invoice_tax_point.js";
import * as journalEntriesChecksPlan from "./20261124000650_journal_entries_checks_plan.js";
import * as stockBalanceCheckOnce from "./20261124000660_stock_balance_check_once.js";
import * as journalEntriesChecksDistinct from "./20261124000670_journal_entries_checks_distinct.js";
import * as journalEntriesKeysByStatement from "./20261125000100_journal_entries_keys_by_statement.js";
import * as journalHeaderChecksByStatement from "./20261125000200_journal_header_checks_by_statement.js";
import * as invoiceLinesFrozenStatic from "./20261125000300_invoice_lines_frozen_static.js";
import * as invoiceFrozenDraftsFirst from "./20261126000100_invoice_frozen_drafts_first.js";
import * as stockLayerSums from "./20261126000200_stock_layer_sums.js";
import * as stockTakeOneLayerUpdate from "./20261126000300_stock_take_one_layer_update.js";
import * as bankRemittanceWhole from "./20261127000100_bank_remittance_whole.js";
import * as migrationImports from "./20261127000200_migration_imports.js";
import * as depreciationReversal from "./20261127000300_depreciation_reversal.js";
import * as ledgerLockedThrough from "./20261127000400_ledger_locked_through.js";
import * as postingRuleStockHeld from "./20261127000401_posting_rule_stock_held.js";
import * as stockLevelBounds from "./20261127000402_stock_level_bounds.js";
import * as eventsApi from "./20261127000500_events_api.js";
import * as declarationSubmissions from "./20261127001000_declaration_submissions.js";
import * as declarationIndexes from "./20261127001001_declaration_indexes.js";
import * as salesVat from "./20261127003000_sales_vat.js";
import * as purchaseAccountingDate from "./20261127003100_purchase_accounting_date.js";
import * as purchaseCustoms from "./20261127003101_purchase_customs.js";
import * as purchaseDebitNotes from "./20261127003102_purchase_debit_notes.js";
import * as vatClassifierPvm42 from "./20261127003103_vat_classifier_pvm42.js";
import * as ledgerBalances from "./20261127004000_ledger_balances.js";
import * as saleInvoiceSends from "./20261127005000_sale_invoice_sends.js";
import * as documentLanguageIssuer from "./20261127005100_document_language_issuer.js";
import * as purchaseInvoiceAttachments from "./20261127006000_purchase_invoice_attachments.js";
import * as partnerPeppolId from "./20261127006100_partner_peppol_id.js";
import * as saleInvoiceSendIssuer from "./20261127006200_sale_invoice_send_issuer.js";
import * as partnerBalanceIndexes from "./20261127007000_partner_balance_indexes.js";
import * as vatDeclared from "./20261127008000_vat_declared.js";
import * as ledgerDayBalances from "./20261127009000_ledger_day_balances.js";
import * as companyContactPerson from "./20261128000100_company_contact_person.js";
import * as saftFiles from "./20261128000200_saft_files.js";
import * as owners from "./20261128000300_owners.js";
import * as vatRowsByTransaction from "./20261128000400_vat_rows_by_transaction.js";
import * as partnerAddresses from "./20261128000500_partner_addresses.js";
import * as companyAddresses from "./20261128000600_company_addresses.js";

// Migrations are listed here (not discovered from the file system) so that they load the same way under tsx,
// jest and the knex CLI. Append new ones at the end; never edit one that has shipped.
const migrations: Record<string, Knex.Migration> = {
  "20261122000001_platform": platform,
  "20261122000002_reference": reference,
  "20261122000003_ledger": ledger,
  "20261122000004_partners_catalog": partnersCatalog,
  "20261123000001_hardening": hardening,
  "20261123000002_worker_registry": workerRegistry,
  "20261123000003_gate_function": gateFunction,
  "20261123000004_posting_functions": postingFunctions,
  "20261123000101_vat_classifiers": vatClassifiers,
  "20261123000102_lt_chart": ltChart,
  "20261123000200_webhooks": webhooks,
  "20261124000101_invoicing": invoicing,
  "20261124000102_invoice_list_totals": invoiceListTotals,
  "20261124000103_item_accounts": itemAccounts,
  "20261124000150_invoice_totals_rollup": invoiceTotalsRollup,
  "20261124000151_invoice_open_totals": invoiceOpenTotals,
  "20261124000201_fixed_assets": fixedAssets,
  "20261124000202_fixed_assets_tuning": fixedAssetsTuning,
  "20261124000250_inventory": inventory,
  "20261124000290_stock_take_function": stockTakeFunction,
  "20261124000300_bank": bank,
  "20261124000400_books_migration": booksMigration,
  "20261124000500_journal_open_xid": journalOpenXid,
  "20261124000510_api_key_write_guard": apiKeyWriteGuard,
  "20261124000610_bank_original_amount": bankOriginalAmount,
  "20261124000611_bank_account_iban_currency": bankAccountIbanCurrency,
  "20261124000620_journal_for_imports": journalForImports,
  "20261124000630_stock_invariants": stockInvariants,
  "20261124000631_stock_take_short_balance": stockTakeShortBalance,
  "20261124000640_invoice_tax_point": invoiceTaxPoint,
  "20261124000650_journal_entries_checks_plan": journalEntriesChecksPlan,
  "20261124000660_stock_balance_check_once": stockBalanceCheckOnce,
  "20261124000670_journal_entries_checks_distinct": journalEntriesChecksDistinct,
  "20261125000100_journal_entries_keys_by_statement": journalEntriesKeysByStatement,
  "20261125000200_journal_header_checks_by_statement": journalHeaderChecksByStatement,
  "20261125000300_invoice_lines_frozen_static": invoiceLinesFrozenStatic,
  "20261126000100_invoice_frozen_drafts_first": invoiceFrozenDraftsFirst,
  "20261126000200_stock_layer_sums": stockLayerSums,
  "20261126000300_stock_take_one_layer_update": stockTakeOneLayerUpdate,
  "20261127000100_bank_remittance_whole": bankRemittanceWhole,
  "20261127000200_migration_imports": migrationImports,
  "20261127000300_depreciation_reversal": depreciationReversal,
  "20261127000400_ledger_locked_through": ledgerLockedThrough,
  "20261127000401_posting_rule_stock_held": postingRuleStockHeld,
  "20261127000402_stock_level_bounds": stockLevelBounds,
  "20261127000500_events_api": eventsApi,
  "20261127001000_declaration_submissions": declarationSubmissions,
  "20261127001001_declaration_indexes": declarationIndexes,
  "20261127003000_sales_vat": salesVat,
  "20261127003100_purchase_accounting_date": purchaseAccountingDate,
  "20261127003101_purchase_customs": purchaseCustoms,
  "20261127003102_purchase_debit_notes": purchaseDebitNotes,
  "20261127003103_vat_classifier_pvm42": vatClassifierPvm42,
  "20261127004000_ledger_balances": ledgerBalances,
  "20261127005000_sale_invoice_sends": saleInvoiceSends,
  "20261127005100_document_language_issuer": documentLanguageIssuer,
  "20261127006000_purchase_invoice_attachments": purchaseInvoiceAttachments,
  "20261127006100_partner_peppol_id": partnerPeppolId,
  "20261127006200_sale_invoice_send_issuer": saleInvoiceSendIssuer,
  "20261127007000_partner_balance_indexes": partnerBalanceIndexes,
  "20261127008000_vat_declared": vatDeclared,
  "20261127009000_ledger_day_balances": ledgerDayBalances,
  "20261128000100_company_contact_person": companyContactPerson,
  "20261128000200_saft_files": saftFiles,
  "20261128000300_owners": owners,
  "20261128000400_vat_rows_by_transaction": vatRowsByTransaction,
  "20261128000500_partner_addresses": partnerAddresses,
  "20261128000600_company_addresses": companyAddresses,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};
