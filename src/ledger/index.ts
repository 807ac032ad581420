// The face of the ledger module: what other modules may use of it (issue 23; STYLE 20). Anything not exported here is
// the module's own business; dependency-cruiser (.dependency-cruiser.cjs) refuses an import past this file.
export { postReversal } from "./journal.js";
export { saftAccountTableDescription, saftAccountTypeOf } from "./lt-standard.js";
export { POSTING_RULES, accountForRule, accountsForRules, type PostingRuleName } from "./posting-rules.js";
export {
  checkPosting,
  checkPostingBatch,
  ledgerPostCall,
  periodLocked,
  plannedTransaction,
  post,
  postBatch,
  postingFailure,
  type BatchPosting,
  type PostingEntry,
  type PostingRequest,
} from "./posting.js";
export { ownersOf } from "./owners.js";
export { fiscalYearStart } from "./reports/balance-sheet.js";
export { type DateRange, dayBefore, sumsQuery } from "./reports/balances.js";
export { checkRange } from "./reports/common.js";
export { partnerBalancesQuery, partnerLedger, type PartnerLine, type PartnerSide } from "./reports/partners.js";
