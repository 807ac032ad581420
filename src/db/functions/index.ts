// The definitions built from a template (src/db/definitions.ts): one file each, its functions made from one text.
// Every other definition is a `<function>.sql` file of this folder.
import * as invoiceLinesFrozen from "./invoice_lines_frozen.js";
import * as invoiceListTotals from "./invoice_list_totals.js";
import * as stockLayerSums from "./stock_layer_sums.js";
import * as vatDeclared from "./vat_declared.js";

export const FAMILIES: Record<string, readonly string[]> = {
  invoice_lines_frozen: invoiceLinesFrozen.statements,
  invoice_list_totals: invoiceListTotals.statements,
  stock_layer_sums: stockLayerSums.statements,
  vat_declared: vatDeclared.statements,
};
