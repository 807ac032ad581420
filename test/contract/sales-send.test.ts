// sales/invoices/send (issue 25): an issued document e-mailed through a real SMTP server (smtp-server, started here)
// by the real worker: the message as the buyer receives it (recipients, copy, subject, Reply-To, text, the PDF and
// the Peppol UBL as attachments, decoded from the MIME parts here), the send's record (sent, attempts) and its
// event; a temporary refusal (451) retried until it passes; a permanent one (550) failing at once with its event;
// refusals before anything is queued (a draft, no recipient, a UBL Peppol cannot address, no SMTP server), nothing
// stored for them; the send's record keeps what was asked (the database refuses a change).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { createLogger } from "../../src/log.js";
import { startWorker, type Worker } from "../../src/worker.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { expectApiError } from "../support/expect.js";
import { pdfText } from "../support/pdf.js";
import { startHarness, type Harness } from "../support/harness.js";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp.js";
import { world, type World } from "../support/world.js";

let h: Harness;
let smtp: SmtpSink;
let worker: Worker;
let w: World;
beforeAll(async () => {
  smtp = await startSmtpSink({
    recipient: (address, count) =>
      address === "busy@pirkejas.lt" && count <= 1
        ? { code: 451, message: "4.3.2 Try again later" }
        : address === "nobody@pirkejas.lt"
          ? { code: 550, message: "5.1.1 No such user" }
          : undefined,
  });
  h = await startHarness({ config: { smtpUrl: smtp.url, mailFrom: "Sąskaitos <saskaitos@example.test>" } });
  worker = await startWorker(h.connectionString, 2, createLogger("silent"), { db: h.db, config: h.config });
  w = await world(h, {
    company: { name: "Pardavėjas UAB", vatCode: "LT100001919017", email: "buhalterija@pardavejas.lt", iban: "LT121000011101001000" },
    partners: [
      { code: "PIRK", name: "Pirkėjas UAB", vatCode: "LT212154314", registrationCode: "121215434", countryCode: "LT", email: "saskaitos@pirkejas.lt" },
      { code: "NOMAIL", name: "Be pašto UAB", countryCode: "LT" },
      { code: "USBUY", name: "Buyer Inc.", countryCode: "US", email: "ap@buyer.example" },
    ],
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await smtp?.close();
});

type Line = RequestBody<"sales_invoices_create">["lines"][number];
const LINE: Line = { description: "Konsultacija", quantity: "2", unitPriceExclVat: "833.33", vatRatePercent: "21", vatClassifier: "PVM1" };
const issue = async (partnerCode: string, lines: Line[] = [LINE]) => {
  const draft = await w.api.sales.invoices.create({ partnerCode, issueDate: "2026-03-10", lines });
  return w.api.sales.invoices.issue({ id: draft.id });
};

/** Waits until the send is no longer queued (the worker settled it), then returns it. */
async function settled(id: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const send = await w.api.sales.invoices.sends.get({ id });
    if (send.status !== "queued") return send;
    if (Date.now() > until) throw new Error(`send ${id} still queued after ${timeoutMs} ms (attempts ${send.attempts})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const quotedPrintable = (body: string) =>
  Buffer.from(
    body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  )
    .toString("utf8")
    .replace(/\r\n/g, "\n");

interface Part {
  headers: string;
  body: string;
}
/** The MIME parts of a multipart message (one level, as nodemailer writes text + attachments). */
function parts(mail: ReceivedMail): Part[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.raw)?.[1];
  if (!boundary) return [];
  return mail.raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((p) => {
      const [headers, ...body] = p.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
      return { headers: headers.replace(/\r?\n[ \t]+/g, " "), body: body.join("\n\n") };
    });
}
const attachment = (mail: ReceivedMail, fileName: string) => {
  const part = parts(mail).find((p) => p.headers.includes(`filename=${fileName}`) || p.headers.includes(`filename="${fileName}"`));
  return part ? { headers: part.headers, bytes: Buffer.from(part.body.replace(/\s+/g, ""), "base64") } : undefined;
};
const eventsOf = (type: string) => h.db("webhook_events").where({ company_id: w.companyId, event_type: type }).orderBy("created_at");

describe("sending an issued document", () => {
  test("to the partner's e-mail with the PDF and the UBL: the message, the record and sale_invoice.sent", async () => {
    const inv = await issue("PIRK");
    const send = await w.api.sales.invoices.send({ id: inv.id, cc: ["vadovas@pardavejas.lt"], attach: ["pdf", "ubl"] });
    expect(send).toMatchObject({
      invoiceId: inv.id,
      to: ["saskaitos@pirkejas.lt"],
      cc: ["vadovas@pardavejas.lt"],
      attach: ["pdf", "ubl"],
      status: "queued",
      attempts: 0,
    });
    expect(send.subject).toBe(`PVM sąskaita faktūra ${inv.number} / VAT invoice ${inv.number} — Pardavėjas UAB`);

    const done = await settled(send.id);
    expect(done).toMatchObject({ status: "sent", attempts: 1, lastError: null, failedAt: null });
    expect(done.sentAt).not.toBeNull();
    const mail = smtp.mails.find((m) => m.raw.includes(`X-Accounting-Document: ${inv.number}`));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe("saskaitos@example.test");
    expect(mail!.to.sort()).toEqual(["saskaitos@pirkejas.lt", "vadovas@pardavejas.lt"]);
    expect(mail!.raw).toMatch(/^Reply-To: buhalterija@pardavejas\.lt\r?$/m);
    expect(mail!.raw).toMatch(/^Cc: vadovas@pardavejas\.lt\r?$/m);
    // The default text: 2 × 833.33 = 1 666.66, + 21 % = 349.999 → 350.00, 2 016.66 EUR.
    const text = parts(mail!).find((p) => /text\/plain/i.test(p.headers));
    const decoded = quotedPrintable(text?.body ?? "");
    expect(decoded).toContain(`siunčiame pvm sąskaita faktūra ${inv.number} (2026-03-10), suma 2\u00a0016,66 EUR, apmokėti iki`);
    expect(decoded).toContain(`please find attached vat invoice ${inv.number} (2026-03-10), total 2016.66 EUR, due`);
    const pdf = attachment(mail!, `${inv.number}.pdf`);
    expect(pdf?.headers).toMatch(/application\/pdf/);
    expect(pdf?.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const ubl = attachment(mail!, `${inv.number}.xml`);
    expect(ubl?.bytes.toString("utf8")).toContain(`<cbc:ID>${inv.number}</cbc:ID>`);

    const events = (await eventsOf("sale_invoice.sent")).filter((e) => e.data.id === send.id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ id: send.id, status: "sent", invoiceId: inv.id });
    const list = await w.api.sales.invoices.sends.list({ filter: [{ field: "invoiceId", op: "eq", value: inv.id }] });
    expect(list.rows.map((s) => s.id)).toEqual([send.id]);
  }, 120_000);

  test("a temporary refusal (451) is retried until the server accepts; a permanent one (550) fails at once with sale_invoice.send_failed", async () => {
    const inv = await issue("PIRK");
    expect([inv.sentAt, inv.lastSendStatus]).toEqual([null, null]);
    const busy = await w.api.sales.invoices.send({
      id: inv.id,
      to: ["busy@pirkejas.lt"],
      subject: "Sąskaita",
      message: "Prašome apmokėti.",
      issuer: { name: "Jonas Jonaitis", position: "Direktorius" },
    });
    expect(busy.issuer).toEqual({ name: "Jonas Jonaitis", position: "Direktorius" });
    const retried = await settled(busy.id, 90_000);
    expect(retried).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    // The invoice itself says when it was last sent, and how its latest send went (get and list alike).
    const sendState = async () => {
      const got = await w.api.sales.invoices.get({ id: inv.id });
      const listed = (await w.api.sales.invoices.list({ filter: [{ field: "id", op: "eq", value: inv.id }] })).rows[0];
      expect([listed.sentAt, listed.lastSendStatus]).toEqual([got.sentAt, got.lastSendStatus]);
      return [got.sentAt, got.lastSendStatus];
    };
    expect(retried.sentAt).not.toBeNull();
    expect(await sendState()).toEqual([retried.sentAt, "sent"]);
    const mail = smtp.mails.find((m) => m.to.includes("busy@pirkejas.lt"));
    expect(mail?.subject).toBe("=?UTF-8?Q?S=C4=85skaita?=");
    expect(parts(mail!).some((p) => p.body.includes("Pra=C5=A1ome apmok=C4=97ti.") || p.body.includes("Prašome apmokėti."))).toBe(true);
    // The PDF names the issuer the send asked for.
    const pdf = attachment(mail!, `${inv.number}.pdf`);
    expect((await pdfText(pdf!.bytes)).replace(/\s+/g, " ")).toContain("Jonas Jonaitis, Direktorius");

    const refused = await w.api.sales.invoices.send({ id: inv.id, to: ["nobody@pirkejas.lt"] });
    const failed = await settled(refused.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, sentAt: null });
    expect(failed.lastError).toContain("550");
    // The latest send failed; the document was last sent by the one before it.
    expect(await sendState()).toEqual([retried.sentAt, "failed"]);
    const event = (await eventsOf("sale_invoice.send_failed")).find((e) => e.data.id === refused.id);
    expect(event?.data).toMatchObject({ id: refused.id, status: "failed" });
    expect(smtp.mails.some((m) => m.to.includes("nobody@pirkejas.lt"))).toBe(false);
  }, 120_000);

  test("what was asked is kept: the database refuses changing or deleting a send", async () => {
    const inv = await issue("PIRK");
    const send = await w.api.sales.invoices.send({ id: inv.id });
    await settled(send.id);
    await expect(
      h
        .db("sale_invoice_sends")
        .where({ id: send.id })
        .update({ recipients: ["other@example.test"] }),
    ).rejects.toThrow(/keeps what was asked|does not change/);
    await expect(h.db("sale_invoice_sends").where({ id: send.id }).update({ status: "failed", failed_at: new Date(), sent_at: null })).rejects.toThrow(
      /does not change/,
    );
    await expect(h.db("sale_invoice_sends").where({ id: send.id }).delete()).rejects.toThrow(/never deleted/);
    expect((await h.db("sale_invoice_sends").where({ id: send.id }).first()).recipients).toEqual(["saskaitos@pirkejas.lt"]);
  }, 120_000);
});

describe("refusals leave nothing queued", () => {
  const nothingStored = async (invoiceId: string) =>
    expect(await h.db("sale_invoice_sends").where({ company_id: w.companyId, invoice_id: invoiceId })).toEqual([]);

  test("a draft: 409 sale_invoice.not_issued", async () => {
    const draft = await w.api.sales.invoices.create({ partnerCode: "PIRK", issueDate: "2026-03-10", lines: [LINE] });
    await expectApiError(w.api.sales.invoices.send({ id: draft.id }), 409, "conflict", "sale_invoice.not_issued");
    await nothingStored(draft.id);
  });

  test("no `to` and a partner without e-mail: 422 sale_invoice.recipient_missing naming `to`", async () => {
    const inv = await issue("NOMAIL");
    const error = await expectApiError(w.api.sales.invoices.send({ id: inv.id }), 422, "unprocessable", "sale_invoice.recipient_missing");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["to"]);
    await nothingStored(inv.id);
  });

  test("the UBL of a buyer Peppol cannot address: 422 peppol.endpoint_unknown; the PDF alone goes", async () => {
    const inv = await issue("USBUY", [{ description: "Export", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "0", vatClassifier: "PVM12" }]);
    await expectApiError(w.api.sales.invoices.send({ id: inv.id, attach: ["ubl"] }), 422, "unprocessable", "peppol.endpoint_unknown");
    await nothingStored(inv.id);
    const pdfOnly = await w.api.sales.invoices.send({ id: inv.id });
    expect((await settled(pdfOnly.id)).status).toBe("sent");
  }, 120_000);

  test("a server without SMTP_URL: 422 mail.not_configured", async () => {
    const bare = await startHarness({ config: { smtpUrl: undefined } });
    try {
      const other = await world(bare, {
        company: { vatCode: "LT100001919017" },
        partners: [{ code: "PIRK", name: "Pirkėjas UAB", countryCode: "LT", email: "a@pirkejas.lt" }],
      });
      const draft = await other.api.sales.invoices.create({ partnerCode: "PIRK", issueDate: "2026-03-10", lines: [LINE] });
      const inv = await other.api.sales.invoices.issue({ id: draft.id });
      await expectApiError(other.api.sales.invoices.send({ id: inv.id }), 422, "unprocessable", "mail.not_configured");
      expect(await bare.db("sale_invoice_sends").where({ company_id: other.companyId })).toEqual([]);
    } finally {
      await bare.close();
    }
  }, 120_000);

  test("another tenant's invoice is not found", async () => {
    const inv = await issue("PIRK");
    const other = await world(h, { chart: false });
    await expectApiError(other.api.sales.invoices.send({ id: inv.id, to: ["x@example.test"] }), 404, "not_found", "sale_invoice.not_found");
    expect((await other.api.sales.invoices.sends.list({})).rows).toEqual([]);
  });
});
