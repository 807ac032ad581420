// Stock quantities carry at most 4 decimals (numeric(16, 4)); documents may carry 6 (invoice lines), so a
// document's quantity is checked before it moves stock.
import { Decimal } from "../shared/decimal.js";

export const STOCK_QUANTITY_SCALE = 4;

/** The canonical text of a quantity: no trailing zeros (`2.5`, `3`). */
export const quantityText = (q: Decimal | string) => new Decimal(q).toFixed();

/** True when the quantity fits a stock quantity (at most 4 decimals). */
export const fitsStockScale = (q: Decimal | string) => new Decimal(q).decimalPlaces() <= STOCK_QUANTITY_SCALE;
