// Dates the service accepts (spec/common.tsp: `Date`, `AccountingDate`, `Timestamp`). Every date lies in years
// 1900–2199, and every accounting date (a posting, a period, a report range, a document) in 2000-01-01 to
// 2100-12-31, the window of the number series too: so year 0000 never reaches PostgreSQL (which has no year 0),
// and no request can stretch a company's calendar over thousands of months (issue 7, defects 4 and 5).
export const DATE_YEARS = { min: 1900, max: 2199 } as const;
export const ACCOUNTING_YEARS = { min: 2000, max: 2100 } as const;

/** True for a real calendar date written `YYYY-MM-DD` (so `2026-02-30` is false) in years 1900–2199. */
export function isIsoDate(value: string, years: { min: number; max: number } = DATE_YEARS): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  if (year < years.min || year > years.max) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** An RFC 3339 timestamp whose parts are all in range, with an offset PostgreSQL accepts (at most ±15:59). */
export function isTimestamp(value: string): boolean {
  const m = RFC3339.exec(value);
  if (m === null || !isIsoDate(m[1])) return false;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59) return false;
  return m[7] === undefined || (Number(m[7]) <= 15 && Number(m[8]) <= 59);
}

/** Today's date in Vilnius, where the company's day begins (a document dated "today" at 01:00 local time). */
export const todayInVilnius = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Vilnius" }).format(new Date());
