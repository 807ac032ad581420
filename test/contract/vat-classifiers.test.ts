// reference/vat-classifiers/list and the VAT check of a document line at its tax point date
// (src/reference/vat-classifiers.ts), as tables of classifier, rate and date; which documents carry which kinds of
// classifier, and the reverse-charge classifier a purchase line gets by default. The list is read through the SDK.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import {
  checkLineVat,
  KINDS_BY_DOCUMENT,
  kindProblem,
  lineVatProblem,
  reverseChargeClassifier,
  standardRate,
  type VatDocument,
} from "../../src/reference/vat-classifiers.js";
import { ApiError } from "../../src/shared/errors.js";
import { startHarness, type Harness } from "../support/harness.js";
import { world } from "../support/world.js";
import type { AccountingApi } from "../../sdk/typescript/src/index.js";

let h: Harness;
let api: AccountingApi;

beforeAll(async () => {
  h = await startHarness();
  ({ api } = await world(h, { chart: false }));
});
afterAll(() => h.close());

describe("reference/vat-classifiers/list", () => {
  test("every Lithuanian classifier with its rate and period, in code then validFrom order", async () => {
    const res = await api.reference.vatClassifiers.list({ pageSize: 100 });
    const rows = res.rows.map((r) => `${r.code} ${r.kind} ${r.ratePercent} ${r.validFrom}..${r.validTo ?? ""}`);
    expect(rows).toEqual([
      "PVM1 standard 21.00 2025-01-01..",
      "PVM12 zero 0.00 2025-01-01..",
      "PVM13 zero 0.00 2025-01-01..",
      "PVM14 zero 0.00 2025-01-01..",
      "PVM15 outside_scope 0.00 2025-01-01..",
      "PVM16 reverse_charge 21.00 2025-01-01..",
      "PVM2 reduced 9.00 2025-01-01..2025-12-31",
      "PVM20 reverse_charge 21.00 2025-01-01..",
      "PVM21 reverse_charge 21.00 2025-01-01..",
      "PVM25 reverse_charge 21.00 2025-01-01..",
      "PVM3 reduced 5.00 2025-01-01..2025-12-31",
      "PVM3 reduced 5.00 2026-01-01..",
      "PVM42 triangular 0.00 2025-01-01..",
      "PVM5 exempt 0.00 2025-01-01..",
      "PVM58 reduced 12.00 2026-01-01..",
    ]);
    expect(Object.fromEntries(res.rows.filter((r) => r.replacedBy.length).map((r) => [r.code, r.replacedBy]))).toEqual({
      PVM2: ["PVM58", "PVM3", "PVM1"],
    });
    for (const r of res.rows) {
      expect(r.countryCode).toBe("LT");
      expect(r.source.length).toBeGreaterThan(10);
      expect(r.name).toMatch(/ \/ /); // Lithuanian / English
    }
  });

  test("the 5% descriptions name periodicals (printed and electronic) and food for special medical purposes; from 2026 books", async () => {
    const res = await api.reference.vatClassifiers.list({ filter: [{ field: "code", op: "eq", value: "PVM3" }] });
    expect(res.rows).toHaveLength(2);
    for (const r of res.rows) expect(r.description).toMatch(/periodicals.*printed and electronic.*food for special medical purposes/);
    expect(res.rows[0].description).not.toMatch(/books/);
    expect(res.rows[1].description).toMatch(/books and non-periodical/);
    const rates = await h.db("vat_rates").where({ country_code: "LT", rate: 5 }).orderBy("valid_from");
    for (const r of rates) expect(r.description).toMatch(/periodicals \(printed and electronic\), food for special medical purposes/);
  });

  test("filter on ratePercent and validTo, sort by ratePercent desc", async () => {
    const res = await api.reference.vatClassifiers.list({
      filter: [{ field: "validFrom", op: "gte", value: "2026-01-01" }],
      sort: [{ field: "ratePercent", dir: "desc" }],
    });
    expect(res.rows.map((r) => `${r.code} ${r.ratePercent}`)).toEqual(["PVM58 12.00", "PVM3 5.00"]);
  });

  test("a country without published classifiers answers an empty list", async () => {
    const lv = await world(h, { chart: false, company: { countryCode: "LV", code: "40003000000" } });
    expect(await lv.api.reference.vatClassifiers.list({})).toMatchObject({ rows: [], total: 0 });
  });
});

describe("a document line's classifier and rate at its tax point date", () => {
  // The 9% rate ended on 2025-12-31: the tax point decides, not the invoice date or today.
  test.each([
    { name: "a December 2025 supply (invoiced in January 2026) keeps 9%", classifier: "PVM2", rate: "9", date: "2025-12-31", problem: undefined },
    { name: "PVM2 at 9% on 2025-01-01", classifier: "PVM2", rate: "9", date: "2025-01-01", problem: undefined },
    { name: "PVM2 after the reform", classifier: "PVM2", rate: "9", date: "2026-01-01", problem: "vat_classifier.not_valid_on_date" },
    { name: "accommodation from 2026 is PVM58 at 12%", classifier: "PVM58", rate: "12", date: "2026-01-01", problem: undefined },
    { name: "PVM58 before the reform", classifier: "PVM58", rate: "12", date: "2025-12-31", problem: "vat_classifier.not_valid_on_date" },
    { name: "PVM58 at 9%", classifier: "PVM58", rate: "9", date: "2026-02-01", problem: "vat_classifier.rate_mismatch" },
    { name: "books from 2026 are PVM3 at 5%", classifier: "PVM3", rate: "5.00", date: "2026-03-15", problem: undefined },
    { name: "PVM3 at 5% in 2025", classifier: "PVM3", rate: "5", date: "2025-06-30", problem: undefined },
    { name: "PVM3 at 9%", classifier: "PVM3", rate: "9", date: "2025-06-30", problem: "vat_classifier.rate_mismatch" },
    { name: "heating from 2026 is PVM1 at 21%", classifier: "PVM1", rate: "21", date: "2026-01-01", problem: undefined },
    { name: "PVM1 at 21% in 2025", classifier: "PVM1", rate: "21.00", date: "2025-12-31", problem: undefined },
    { name: "PVM1 at 9% (guessing the old rate)", classifier: "PVM1", rate: "9", date: "2025-12-31", problem: "vat_classifier.rate_mismatch" },
    { name: "PVM13 at 0%", classifier: "PVM13", rate: "0", date: "2026-05-05", problem: undefined },
    { name: "PVM13 at 21%", classifier: "PVM13", rate: "21", date: "2026-05-05", problem: "vat_classifier.rate_mismatch" },
    { name: "an unknown classifier", classifier: "PVM99", rate: "21", date: "2026-05-05", problem: "vat_classifier.unknown" },
    { name: "before the first day covered", classifier: "PVM1", rate: "21", date: "2024-12-31", problem: "vat_classifier.not_valid_on_date" },
  ])("$name", async ({ classifier, rate, date, problem }) => {
    const found = await lineVatProblem(h.db, { classifier, ratePercent: rate, taxPointDate: date });
    expect(found?.key).toBe(problem);
  });

  test("checkLineVat throws the 422 naming the field", async () => {
    const error = await checkLineVat(h.db, { classifier: "PVM2", ratePercent: "9", taxPointDate: "2026-01-02" }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      key: "vat_classifier.not_valid_on_date",
      fieldErrors: { vatClassifier: [expect.stringContaining("2025-01-01..2025-12-31")] },
    });
    expect(error.fieldErrors.vatClassifier[0]).toContain("PVM58, PVM3, PVM1");
    await expect(checkLineVat(h.db, { classifier: "PVM2", ratePercent: "9", taxPointDate: "2025-12-15" })).resolves.toBeUndefined();
  });

  test("a country without classifiers checks nothing", async () => {
    expect(await lineVatProblem(h.db, { countryCode: "LV", classifier: "PVM1", ratePercent: "7", taxPointDate: "2026-01-01" })).toBeUndefined();
  });

  test.each([
    ["2025-01-01", "21.00"],
    ["2026-01-01", "21.00"],
    ["2024-12-31", undefined],
  ])("standardRate on %s is %s", async (date, rate) => {
    expect(await standardRate(h.db, date)).toBe(rate);
  });
});

describe("which documents carry which classifiers", () => {
  // Every kind against every document: a sale never carries the buyer's reverse-charge codes, a reverse-charge
  // purchase carries nothing else, an import or exempt purchase no taxed codes.
  const KINDS = ["standard", "reduced", "zero", "exempt", "outside_scope", "reverse_charge", "triangular"];
  const CARRIES: Record<VatDocument, string[]> = {
    sale: ["standard", "reduced", "zero", "exempt", "outside_scope"],
    purchase_standard: ["standard", "reduced", "zero", "exempt", "outside_scope"],
    purchase_reverse_charge: ["reverse_charge", "triangular"],
    purchase_import: ["zero", "exempt", "outside_scope"],
    purchase_exempt: ["zero", "exempt", "outside_scope"],
  };
  test.each(
    (Object.keys(CARRIES) as VatDocument[]).flatMap((document) => KINDS.map((kind) => ({ document, kind, carried: CARRIES[document].includes(kind) }))),
  )("$document carries $kind: $carried", ({ document, kind, carried }) => {
    expect(kindProblem("PVM99", kind, document) === undefined).toBe(carried);
  });

  test("the table in the code is the one above, and a refusal says what the document carries", () => {
    expect(Object.keys(KINDS_BY_DOCUMENT).sort()).toEqual(Object.keys(CARRIES).sort());
    expect(kindProblem("PVM16", "reverse_charge", "sale")).toBe(
      "PVM16 is a reverse-charge classifier, which a sale does not carry (it carries standard, reduced, zero, exempt, outside-scope classifiers)",
    );
  });

  test.each([
    { name: "a domestic supplier", supplier: "LT", item: "service", classifier: "PVM25" },
    { name: "a domestic supplier's goods", supplier: "LT", item: "product", classifier: "PVM25" },
    { name: "goods from another EU state", supplier: "DE", item: "product", classifier: "PVM16" },
    { name: "services from another EU state", supplier: "GR", item: "service", classifier: "PVM21" },
    { name: "services from outside the EU", supplier: "US", item: "service", classifier: "PVM20" },
    { name: "goods from outside the EU (an import, not a reverse charge)", supplier: "US", item: "product", classifier: undefined },
    { name: "an EU supplier, no item (goods or services unknown)", supplier: "DE", item: null, classifier: undefined },
    { name: "a supplier of unknown country", supplier: null, item: "service", classifier: undefined },
  ])("reverse charge default: $name -> $classifier", ({ supplier, item, classifier }) => {
    expect(reverseChargeClassifier("LT", supplier, item)).toBe(classifier);
  });
});
