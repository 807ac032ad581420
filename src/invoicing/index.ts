// The face of the invoicing module: what other modules may use of it (issue 23; STYLE 20). Anything not exported here is
// the module's own business; dependency-cruiser (.dependency-cruiser.cjs) refuses an import past this file.
export {
  addDays,
  breakdownToApi,
  checkPartner,
  documentById,
  documentToApi,
  linesOf,
  listDocuments,
  livePartners,
  loadPartner,
  partnerSnapshot,
  resolveLines,
  resolveSupplyDate,
  storedLineInput,
  taxPointOf,
  totalsColumns,
  vatPairsOf,
  type DocumentItemRow,
  type DocumentLine,
  type LineInput,
  type PartnerRow,
  type StoredLine,
} from "./documents.js";
export { addressLine, type DocumentLanguage, inLanguage, renderPdf } from "./pdf.js";
export { computeTotals, convertParts, type Totals } from "./totals.js";
export { checkLinesVat } from "./vat.js";
export { amountInWords, type WordsLanguage } from "./amount-in-words.js";
export { formatLtAmount, formatLtNumber, formatLtRate, THOUSANDS_SPACE } from "./lt-format.js";
