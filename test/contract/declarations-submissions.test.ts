// declarations/submissions/* (issue 24): a filing is an immutable snapshot of what was filed (boxes or files with
// their SHA-256, the key that made it), a second filing of the same declaration and month is a correction with the
// next version (FR0600's box 8 = 2), `mark` appends status steps the database checks, every filing is audited and
// announced (`declaration.submitted`), and the database refuses to change any of it.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { expectApiError, invalid } from "../support/expect.js";
import { type Harness, startHarness } from "../support/harness.js";
import { keyWith } from "../support/keys.js";
import { world } from "../support/world.js";
import { validateAgainstXsd } from "../support/xsd.js";
import { decode, type FixtureMonth, fixtureMonth } from "./declarations-fixture.js";

let h: Harness;
let m: FixtureMonth;

beforeAll(async () => {
  h = await startHarness();
  m = await fixtureMonth(h);
});
afterAll(() => h?.close());

const fieldsOf = (xml: string) => Object.fromEntries([...xml.matchAll(/<Field Name="([^"]+)">([^<]*)<\/Field>/g)].map((x) => [x[1], x[2]]));
const stored = (companyId: string) => h.db("declaration_submissions").where({ company_id: companyId }).orderBy("created_at");

describe("declarations/submissions", () => {
  test("FR0600 filed twice: version 1, then a correction (version 2, box 8 = 2), each with its FFData and the key that made it", async () => {
    const first = await m.w.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-09" });
    expect(first).toMatchObject({
      declaration: "lt.fr0600",
      period: "2026-09",
      dataType: null,
      version: 1,
      correction: false,
      status: "created",
      createdByKeyId: m.w.keyId,
    });
    // The boxes as filed: those compute gives (S0 1000 + 210; PS0 63).
    const computed = await m.w.api.declarations.lt.fr0600.compute({ period: "2026-09" });
    expect(first.snapshot.boxes).toEqual(computed.boxes.map((b) => ({ box: b.box, amount: b.amount, exact: b.exact })));
    expect(first.files).toHaveLength(1);
    expect(first.files[0].contentBase64).toBeNull();

    const second = await m.w.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-09" });
    expect(second).toMatchObject({ version: 2, correction: true });
    const [a, b] = await Promise.all([first, second].map((s) => m.w.api.declarations.submissions.get({ id: s.id, includeContent: true })));
    for (const s of [a, b]) {
      const bytes = Buffer.from(s.files[0].contentBase64!, "base64");
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(s.files[0].sha256);
      expect(bytes.length).toBe(s.files[0].size);
    }
    expect(fieldsOf(decode(a.files[0].contentBase64!))).toMatchObject({ E8: "1", E11: "1000", E29: "210", E25: "63", E36: "147" });
    expect(fieldsOf(decode(b.files[0].contentBase64!))).toMatchObject({ E8: "2", E11: "1000", E36: "147" });
    // Stored as returned; the snapshot's SHA-256 is its JSON text's, which names the file's SHA-256.
    const rows = await h.db("declaration_submissions").whereIn("id", [first.id, second.id]).orderBy("version");
    expect(rows.map((r) => [r.version, r.created_by_key_id, r.sha256])).toEqual([
      [1, m.w.keyId, first.sha256],
      [2, m.w.keyId, second.sha256],
    ]);
    expect(rows[0].snapshot.files).toEqual([{ partNumber: 1, fileName: a.files[0].fileName, size: a.files[0].size, sha256: a.files[0].sha256 }]);
    // Audited and announced.
    const audit = await h.db("audit_log").where({ company_id: m.w.companyId, operation: "declarations.submissions.create" }).orderBy("id");
    expect(audit.slice(0, 2).map((r) => [r.target_ids, r.summary.version, r.summary.sha256])).toEqual([
      [[first.id], 1, first.sha256],
      [[second.id], 2, second.sha256],
    ]);
    const events = await h.db("webhook_events").where({ company_id: m.w.companyId, event_type: "declaration.submitted" }).orderBy("seq");
    expect(events.slice(0, 2).map((e) => [e.data.id, e.data.version])).toEqual([
      [first.id, 1],
      [second.id, 2],
    ]);
  });

  test("i.SAF stores every part, each valid against the XSD; FR0564 its lines and FFData", async () => {
    const isaf = await m.w.api.declarations.submissions.create({ declaration: "lt.isaf", period: "2026-10", dataType: "F" });
    expect(isaf).toMatchObject({
      dataType: "F",
      version: 1,
      snapshot: { invoices: { sales: 14, purchases: 8 }, invoicesPerPart: 50000, boxes: null, lines: null },
    });
    const got = await m.w.api.declarations.submissions.get({ id: isaf.id, includeContent: true });
    expect(got.files.map((f) => f.partNumber)).toEqual([1]);
    const result = await validateAgainstXsd(decode(got.files[0].contentBase64!), "lt/isaf_1_2.xsd");
    expect(result.errors).toEqual([]);
    // Another data type of the same month is its own declaration: version 1 again.
    const sales = await m.w.api.declarations.submissions.create({ declaration: "lt.isaf", period: "2026-10", dataType: "S" });
    expect(sales).toMatchObject({ dataType: "S", version: 1, snapshot: { invoices: { sales: 14, purchases: 0 } } });

    const fr0564 = await m.w.api.declarations.submissions.create({ declaration: "lt.fr0564", period: "2026-10" });
    expect(fr0564.snapshot.lines?.map((l) => [l.countryCode, l.vatCode, l.goods, l.services])).toEqual([
      ["AT", "U13585627", "0", "250"],
      ["DE", "136695976", "800", "0"],
    ]);
    expect(fr0564.files.map((f) => f.fileName)).toEqual([expect.stringMatching(/^FR0564_\d{9}_2026-10\.ffdata$/)]);
  });

  test("an Idempotency-Key replays the filing instead of filing a correction", async () => {
    const w = await world(h, { company: { vatCode: "LT119511515" } });
    const one = await w.api.declarations.submissions.create.withResponse({ declaration: "lt.fr0600", period: "2026-08" }, { idempotencyKey: "fr0600-2026-08" });
    const two = await w.api.declarations.submissions.create.withResponse({ declaration: "lt.fr0600", period: "2026-08" }, { idempotencyKey: "fr0600-2026-08" });
    expect(two.data).toEqual(one.data);
    expect(two.response.headers.get("x-idempotent-replay")).toBe("true");
    expect((await stored(w.companyId)).map((r) => r.version)).toEqual([1]);
  });

  test("refusals: the month has not ended, dataType missing or extra, a company without a VAT code, a company of another country", async () => {
    const w = await world(h, { company: { vatCode: "LT119511515" } });
    await expectApiError(
      w.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-11" }),
      422,
      "unprocessable",
      "declaration.period_not_ended",
    );
    await expectApiError(
      w.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2027-01" }),
      422,
      "unprocessable",
      "declaration.period_not_ended",
    );
    const missing = await expectApiError(
      w.api.declarations.submissions.create({ declaration: "lt.isaf", period: "2026-10" }),
      400,
      "validation",
      "request.invalid",
    );
    expect(Object.keys(missing.fieldErrors ?? {})).toEqual(["dataType"]);
    await expectApiError(
      w.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-10", dataType: "F" }),
      400,
      "validation",
      "request.invalid",
    );
    expect(await stored(w.companyId)).toEqual([]);

    const noVat = await world(h);
    await expectApiError(
      noVat.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-10" }),
      422,
      "unprocessable",
      "declaration.vat_code_missing",
    );
    const lv = await world(h, { company: { countryCode: "LV", name: "Latvija SIA", vatCode: "LV40003009497" }, chart: false });
    await expectApiError(
      lv.api.declarations.submissions.create({ declaration: "lt.isaf", period: "2026-10", dataType: "F" }),
      422,
      "unprocessable",
      "jurisdiction.mismatch",
    );
    expect(await stored(noVat.companyId)).toEqual([]);
    expect(await stored(lv.companyId)).toEqual([]);
  });

  test("mark: created → submitted (with the portal's number and date) → accepted; any other step is 409, history append-only", async () => {
    const s = await m.w.api.declarations.submissions.create({ declaration: "lt.fr0564", period: "2026-09" });
    const noNumber = await expectApiError(m.w.api.declarations.submissions.mark({ id: s.id, status: "submitted" }), 400, "validation", "request.invalid");
    expect(Object.keys(noNumber.fieldErrors ?? {}).sort()).toEqual(["registrationNumber", "submittedOn"]);
    await expectApiError(m.w.api.declarations.submissions.mark({ id: s.id, status: "accepted" }), 409, "conflict", "declaration_submission.status_invalid");
    await expectApiError(
      m.w.api.declarations.submissions.mark({ id: s.id, status: "accepted", registrationNumber: "X-1" }),
      400,
      "validation",
      "request.invalid",
    );
    const submitted = await m.w.api.declarations.submissions.mark({
      id: s.id,
      status: "submitted",
      registrationNumber: "FR0564-778899",
      submittedOn: "2026-10-15",
    });
    expect(submitted).toMatchObject({
      status: "submitted",
      registrationNumber: "FR0564-778899",
      submittedOn: "2026-10-15",
      sha256: s.sha256,
      snapshot: s.snapshot,
    });
    await expectApiError(
      m.w.api.declarations.submissions.mark({ id: s.id, status: "submitted", registrationNumber: "FR0564-1", submittedOn: "2026-10-16" }),
      409,
      "conflict",
      "declaration_submission.status_invalid",
    );
    const accepted = await m.w.api.declarations.submissions.mark({ id: s.id, status: "accepted" });
    expect(accepted.statusHistory.map((x) => [x.status, x.registrationNumber, x.submittedOn])).toEqual([
      ["created", null, null],
      ["submitted", "FR0564-778899", "2026-10-15"],
      ["accepted", null, null],
    ]);
    expect(accepted.registrationNumber).toBe("FR0564-778899");
    const error = await expectApiError(
      m.w.api.declarations.submissions.mark({ id: s.id, status: "rejected" }),
      409,
      "conflict",
      "declaration_submission.status_invalid",
    );
    expect(error.params).toMatchObject({ status: "accepted" });
    const history = await h.db("declaration_submission_statuses").where({ company_id: m.w.companyId, submission_id: s.id }).orderBy("seq");
    expect(history.map((r) => [r.seq, r.status, r.previous_status])).toEqual([
      [1, "created", null],
      [2, "submitted", "created"],
      [3, "accepted", "submitted"],
    ]);
    // The snapshot did not move.
    expect((await h.db("declaration_submissions").where({ id: s.id }).first()).sha256).toBe(s.sha256);

    const list = await m.w.api.declarations.submissions.list({ filter: [{ field: "status", op: "eq", value: "accepted" }] });
    expect(list.rows.map((r) => r.id)).toEqual([s.id]);
    const fr0600s = await m.w.api.declarations.submissions.list({
      filter: [{ field: "declaration", op: "eq", value: "lt.fr0600" }],
      sort: [{ field: "version", dir: "asc" }],
    });
    expect(fr0600s.rows.map((r) => [r.period, r.version, r.status])).toEqual([
      ["2026-09", 1, "created"],
      ["2026-09", 2, "created"],
    ]);
    expect(fr0600s.rows.every((r) => r.files.every((f) => f.contentBase64 === null))).toBe(true);
  });

  test("the database refuses to change or delete a filing, its files or its history, and a status step that skips one", async () => {
    const s = await m.w.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-08" });
    const refused = [
      () =>
        h
          .db("declaration_submissions")
          .where({ id: s.id })
          .update({ snapshot: JSON.stringify({ boxes: [] }) }),
      () =>
        h
          .db("declaration_submissions")
          .where({ id: s.id })
          .update({ sha256: "0".repeat(64) }),
      () => h.db("declaration_submissions").where({ id: s.id }).delete(),
      () =>
        h
          .db("declaration_submission_files")
          .where({ submission_id: s.id })
          .update({ content: Buffer.from("<x/>") }),
      () => h.db("declaration_submission_files").where({ submission_id: s.id }).delete(),
      () => h.db("declaration_submission_statuses").where({ submission_id: s.id }).update({ status: "accepted" }),
      () => h.db("declaration_submission_statuses").where({ submission_id: s.id }).delete(),
    ];
    for (const change of refused) await expect(change()).rejects.toThrow(/cannot be changed or deleted/);
    // created → accepted, skipping submitted: the check refuses it; a step naming a status it does not follow: the foreign key.
    await expect(
      h
        .db("declaration_submission_statuses")
        .insert({ company_id: m.w.companyId, submission_id: s.id, seq: 2, status: "accepted", previous_status: "created" }),
    ).rejects.toThrow(/declaration_submission_statuses_step/);
    await expect(
      h
        .db("declaration_submission_statuses")
        .insert({ company_id: m.w.companyId, submission_id: s.id, seq: 2, status: "accepted", previous_status: "submitted" }),
    ).rejects.toThrow(/declaration_submission_statuses_previous_fkey/);
    // A version 3 with no version 2: the foreign key to the version before.
    await expect(
      h
        .db("declaration_submissions")
        .insert({ company_id: m.w.companyId, declaration: "lt.fr0600", period: "2026-08", version: 3, snapshot: "{}", sha256: "0".repeat(64) }),
    ).rejects.toThrow(/declaration_submissions_previous_fkey/);
    const row = await h.db("declaration_submissions").where({ id: s.id }).first();
    expect(row.sha256).toBe(s.sha256);
  });

  test("tenancy and scopes: another company's filing is 404; declarations:read reads and computes but does not file", async () => {
    const s = await m.w.api.declarations.submissions.create({ declaration: "lt.fr0564", period: "2026-08" });
    const other = await world(h, { company: { vatCode: "LT119511515" } });
    await expectApiError(other.api.declarations.submissions.get({ id: s.id }), 404, "not_found", "declaration_submission.not_found");
    await expectApiError(
      other.api.declarations.submissions.mark({ id: s.id, status: "submitted", registrationNumber: "X", submittedOn: "2026-09-01" }),
      404,
      "not_found",
      "declaration_submission.not_found",
    );
    expect((await other.api.declarations.submissions.list({})).rows).toEqual([]);
    // Another account's company is not reachable at all.
    await expectApiError(h.sdk(other.apiKey, m.w.companyId).declarations.lt.fr0600.compute({ period: "2026-10" }), 404, "not_found", "company.not_found");

    const reader = await keyWith(h, m.w.apiKey, ["declarations:read"], { companyId: m.w.companyId });
    expect((await reader.api.declarations.submissions.get({ id: s.id })).id).toBe(s.id);
    await reader.api.declarations.lt.isaf.generate({ period: "2026-10", dataType: "P" });
    await reader.api.declarations.lt.fr0564.generate({ period: "2026-10" });
    const before = (await stored(m.w.companyId)).length;
    const denied = await expectApiError(
      reader.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-07" }),
      403,
      "forbidden",
      "auth.scope_missing",
    );
    expect(denied.params).toEqual({ requiredScope: "declarations:write" });
    await expectApiError(
      reader.api.declarations.submissions.mark({ id: s.id, status: "submitted", registrationNumber: "X", submittedOn: "2026-09-01" }),
      403,
      "forbidden",
      "auth.scope_missing",
    );
    const outsider = await keyWith(h, m.w.apiKey, ["sales:write", "purchases:write", "ledger:write"], { companyId: m.w.companyId });
    await expectApiError(outsider.api.declarations.lt.fr0600.compute({ period: "2026-10" }), 403, "forbidden", "auth.scope_missing");
    const writer = await keyWith(h, m.w.apiKey, ["declarations:write"], { companyId: m.w.companyId });
    const filed = await writer.api.declarations.submissions.create({ declaration: "lt.fr0600", period: "2026-07" });
    expect(filed.createdByKeyId).toBe(writer.id);
    expect((await stored(m.w.companyId)).length).toBe(before + 1);
    // A body the contract refuses: 400 naming the field.
    await expectApiError(m.w.api.declarations.submissions.create(invalid({ declaration: "lv.vat", period: "2026-07" })), 400, "validation", "request.invalid");
  });
});
