// The Lithuanian financial statements' lines (src/ledger/lt-standard.ts STATEMENT_LINES): accounts' amounts summed
// into their lines, and each line into the lines above it (B.II.1 into B.II and B), in the forms' order.
import type { components } from "../../../generated/types.js";
import { Decimal } from "../../shared/decimal.js";
import { STATEMENT_LINES } from "../lt-standard.js";
import { money } from "./common.js";

type StatementLineAmount = components["schemas"]["Ledger.StatementLineAmount"];

const BALANCE_SHEET = Object.keys(STATEMENT_LINES).filter((line) => !line.startsWith("PL"));
const PROFIT_AND_LOSS = Object.keys(STATEMENT_LINES).filter((line) => line.startsWith("PL"));
/** P&L subtotals: the lines each one sums. */
const PL_SUBTOTALS: Record<string, string[]> = {
  "PL.4": ["PL.1", "PL.2", "PL.3"],
  "PL.13": ["PL.4", "PL.5", "PL.6", "PL.7", "PL.8", "PL.9", "PL.10", "PL.11", "PL.12"],
  "PL.15": ["PL.13", "PL.14"],
};

/** The line and every line above it: `B.II.1` -> `B.II.1`, `B.II`, `B`. */
function withAncestors(line: string): string[] {
  const parts = line.split(".");
  return parts.map((_, i) => parts.slice(0, i + 1).join("."));
}

/** Balance sheet lines from amounts already in the statement's sign, keyed by line. */
export function balanceSheetLines(amounts: Map<string, Decimal>): StatementLineAmount[] {
  const totals = new Map<string, Decimal>();
  for (const [line, amount] of amounts) {
    for (const l of withAncestors(line)) totals.set(l, (totals.get(l) ?? new Decimal(0)).plus(amount));
  }
  return BALANCE_SHEET.map((line) => ({ line, ...STATEMENT_LINES[line], amount: money(totals.get(line) ?? new Decimal(0)) }));
}

/** Profit and loss lines from each line's effect on the result (income positive, expenses negative). */
export function profitAndLossLines(amounts: Map<string, Decimal>): StatementLineAmount[] {
  const totals = new Map(amounts);
  for (const [subtotal, parts] of Object.entries(PL_SUBTOTALS)) {
    totals.set(
      subtotal,
      parts.reduce((sum, part) => sum.plus(totals.get(part) ?? 0), new Decimal(0)),
    );
  }
  return PROFIT_AND_LOSS.map((line) => ({ line, ...STATEMENT_LINES[line], amount: money(totals.get(line) ?? new Decimal(0)) }));
}

export function addTo(map: Map<string, Decimal>, line: string, amount: Decimal): void {
  map.set(line, (map.get(line) ?? new Decimal(0)).plus(amount));
}
