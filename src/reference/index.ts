// The face of the reference module: what other modules may use of it (issue 23; STYLE 20). Anything not exported here is
// the module's own business; dependency-cruiser (.dependency-cruiser.cjs) refuses an import past this file.
export { lookupRate } from "./exchange-rates.js";
export { allocateNumber, type DocumentType } from "./number-series.js";
export {
  EU_MEMBER_STATES,
  euCountryOfVatCode,
  classifierRows,
  itemClassifier,
  kindProblem,
  lineVatProblem,
  reverseChargeClassifier,
  standardRate,
  type VatDocument,
} from "./vat-classifiers.js";
