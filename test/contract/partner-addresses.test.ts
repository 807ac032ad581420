// partners/addresses/create|list|update|delete and account/companies/addresses/create|list|update|delete (issue 27):
// a partner's and the company's structured addresses, one of them the default; a SAF-T file names each of a
// customer's and the company's addresses with its type, and refuses one none of whose addresses has a postal code;
// the free address of an existing partner or company becomes its registered default address where it parses.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { XMLParser } from "fast-xml-parser";
import { copyFreeAddresses } from "../../src/db/migrations/20261128000500_partner_addresses.js";
import { copyCompanyAddresses } from "../../src/db/migrations/20261128000600_company_addresses.js";
import { createLogger } from "../../src/log.js";
import { startWorker, type Worker } from "../../src/worker.js";
import { expectApiError } from "../support/expect.js";
import { settledSaft } from "../support/saft.js";
import { startHarness, type Harness } from "../support/harness.js";
import { world, type World } from "../support/world.js";
import { validateAgainstXsd } from "../support/xsd.js";

let h: Harness;
let worker: Worker;
beforeAll(async () => {
  h = await startHarness();
  worker = await startWorker(h.connectionString, 1, createLogger("silent"), { db: h.db, config: h.config });
});
afterAll(async () => {
  await worker?.stop();
  await h.close();
});

const COMPANY = {
  address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" },
  phone: "+370 600 00000",
  contactPerson: { firstName: "Ona", lastName: "Onaitė" },
  vatCode: "LT100001919017",
};

async function addressesWorld(): Promise<World & { partnerId: string }> {
  const w = await world(h, { company: COMPANY, partners: [{ code: "PIRK", name: "Pirkėjas UAB" }] });
  const [p] = (await w.api.partners.list({})).rows;
  return { ...w, partnerId: p.id };
}

const stored = (w: World, partnerId: string) =>
  h.db("partner_addresses").where({ company_id: w.companyId, partner_id: partnerId }).orderBy(["created_at", "id"]).select("city", "type", "is_default");

describe("partners/addresses", () => {
  test("the first address is the default; another made the default takes it; the list in order, one partner's", async () => {
    const w = await addressesWorld();
    const first = await w.api.partners.addresses.create({
      partnerId: w.partnerId,
      type: "registered",
      street: "Laisvės al.",
      building: "5",
      city: "Kaunas",
      postalCode: "LT-44240",
      countryCode: "LT",
    });
    expect(first).toMatchObject({
      partnerId: w.partnerId,
      type: "registered",
      street: "Laisvės al.",
      building: "5",
      city: "Kaunas",
      postalCode: "LT-44240",
      countryCode: "LT",
      isDefault: true,
    });
    const second = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "shipping", city: "Alytus", countryCode: "LT" });
    expect(second).toMatchObject({ isDefault: false, street: null, building: null, postalCode: null });
    const third = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "billing", city: "Riga", countryCode: "LV", isDefault: true });
    expect(third.isDefault).toBe(true);
    expect(await stored(w, w.partnerId)).toEqual([
      { city: "Kaunas", type: "registered", is_default: false },
      { city: "Alytus", type: "shipping", is_default: false },
      { city: "Riga", type: "billing", is_default: true },
    ]);
    const listed = await w.api.partners.addresses.list({ filter: [{ field: "partnerId", op: "eq", value: w.partnerId }] });
    expect(listed.rows.map((a) => [a.city, a.isDefault])).toEqual([
      ["Kaunas", false],
      ["Alytus", false],
      ["Riga", true],
    ]);
    const defaults = await w.api.partners.addresses.list({ filter: [{ field: "isDefault", op: "eq", value: true }] });
    expect(defaults.rows.map((a) => a.id)).toEqual([third.id]);
  });

  test("update: only what is sent changes; the default cannot be unset, only moved", async () => {
    const w = await addressesWorld();
    const a = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "registered", city: "Kaunas", postalCode: "LT-44240", countryCode: "LT" });
    const b = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "shipping", city: "Alytus", countryCode: "LT" });
    const changed = await w.api.partners.addresses.update({ id: b.id, postalCode: "LT-62001", street: "Pulko g." });
    expect(changed).toMatchObject({ city: "Alytus", postalCode: "LT-62001", street: "Pulko g.", type: "shipping", isDefault: false });
    const error = await expectApiError(
      w.api.partners.addresses.update({ id: a.id, isDefault: false, city: "Vilnius" }),
      422,
      "unprocessable",
      "partner_address.default_required",
    );
    expect(error.params).toEqual({ id: a.id });
    // Nothing of the refused request was written.
    expect(await stored(w, w.partnerId)).toEqual([
      { city: "Kaunas", type: "registered", is_default: true },
      { city: "Alytus", type: "shipping", is_default: false },
    ]);
    await w.api.partners.addresses.update({ id: b.id, isDefault: true });
    expect((await stored(w, w.partnerId)).map((r) => r.is_default)).toEqual([false, true]);
    const cleared = await w.api.partners.addresses.update({ id: b.id, street: null });
    expect(cleared.street).toBeNull();
  });

  test("delete: the default passes to the oldest address left; the last one leaves none", async () => {
    const w = await addressesWorld();
    const a = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "registered", city: "Kaunas", countryCode: "LT" });
    await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "shipping", city: "Alytus", countryCode: "LT" });
    const c = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "billing", city: "Utena", countryCode: "LT" });
    expect(await w.api.partners.addresses.delete({ id: a.id })).toMatchObject({ id: a.id, isDefault: true });
    expect(await stored(w, w.partnerId)).toEqual([
      { city: "Alytus", type: "shipping", is_default: true },
      { city: "Utena", type: "billing", is_default: false },
    ]);
    await w.api.partners.addresses.delete({ id: c.id });
    await expectApiError(w.api.partners.addresses.delete({ id: c.id }), 404, "not_found", "partner_address.not_found");
    // Deleting the partner deletes its addresses.
    await w.api.partners.delete({ id: w.partnerId });
    expect(await h.db("partner_addresses").where({ company_id: w.companyId })).toEqual([]);
  });

  test("refused: an unknown partner, an unassigned country, a city over 35 characters, another company's address; nothing written", async () => {
    const w = await addressesWorld();
    await expectApiError(
      w.api.partners.addresses.create({ partnerId: "00000000-0000-4000-8000-000000000000", type: "registered", city: "Kaunas", countryCode: "LT" }),
      404,
      "not_found",
      "partner.not_found",
    );
    const country = await expectApiError(
      w.api.partners.addresses.create({ partnerId: w.partnerId, type: "registered", city: "Kaunas", countryCode: "XX" }),
      422,
      "unprocessable",
      "country_code.unknown",
    );
    expect(country.fieldErrors).toEqual({ countryCode: [expect.any(String)] });
    await expectApiError(
      w.api.partners.addresses.create({ partnerId: w.partnerId, type: "registered", city: "K".repeat(36), countryCode: "LT" }),
      400,
      "validation",
    );
    expect(await stored(w, w.partnerId)).toEqual([]);
    const mine = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "registered", city: "Kaunas", countryCode: "LT" });
    const other = await addressesWorld();
    await expectApiError(other.api.partners.addresses.update({ id: mine.id, city: "Vilnius" }), 404, "not_found", "partner_address.not_found");
    await expectApiError(other.api.partners.addresses.delete({ id: mine.id }), 404, "not_found", "partner_address.not_found");
    await expectApiError(
      other.api.partners.addresses.create({ partnerId: w.partnerId, type: "registered", city: "Kaunas", countryCode: "LT" }),
      404,
      "not_found",
      "partner.not_found",
    );
    expect((await other.api.partners.addresses.list({})).rows).toEqual([]);
    expect(await stored(w, w.partnerId)).toEqual([{ city: "Kaunas", type: "registered", is_default: true }]);
  });

  test("an existing partner's free address becomes its registered default address where it parses", async () => {
    const w = await world(h, {
      partners: [
        {
          code: "GERAS",
          name: "Geras UAB",
          address: { line1: "Laisvės al. 5", line2: "2 aukštas", city: "Kaunas", postalCode: "LT-44240", countryCode: "LT" },
        },
        { code: "ILGAS", name: "Ilgas UAB", address: { line1: "Gatvė 1", city: "K".repeat(40), postalCode: "LT-44240", countryCode: "LT" } },
        { code: "BEADR", name: "Be adreso UAB" },
      ],
    });
    await copyFreeAddresses(h.db);
    const rows = await h
      .db("partner_addresses as a")
      .join("partners as p", function () {
        this.on("p.company_id", "a.company_id").andOn("p.id", "a.partner_id");
      })
      .where("a.company_id", w.companyId)
      .select("p.code", "a.type", "a.street", "a.city", "a.postal_code", "a.country_code", "a.is_default");
    expect(rows).toEqual([
      { code: "GERAS", type: "registered", street: "Laisvės al. 5, 2 aukštas", city: "Kaunas", postal_code: "LT-44240", country_code: "LT", is_default: true },
    ]);
    // Run again: a partner that has structured addresses gets none more.
    await copyFreeAddresses(h.db);
    expect(await h.db("partner_addresses").where({ company_id: w.companyId }).count({ n: "*" })).toEqual([{ n: "1" }]);
  });
});

describe("account/companies/addresses", () => {
  const storedOf = (w: World) =>
    h.db("company_addresses").where({ company_id: w.companyId }).orderBy(["created_at", "id"]).select("city", "type", "is_default", "postal_code");

  test("the company's addresses: the first is the default, another takes it, the default cannot be unset, deleting it hands it on", async () => {
    const w = await world(h, {});
    const registered = await w.api.account.companies.addresses.create({
      type: "registered",
      street: "Gedimino pr.",
      building: "1",
      city: "Vilnius",
      postalCode: "LT-01103",
      countryCode: "LT",
    });
    expect(registered).toMatchObject({
      type: "registered",
      street: "Gedimino pr.",
      building: "1",
      city: "Vilnius",
      postalCode: "LT-01103",
      countryCode: "LT",
      isDefault: true,
    });
    const billing = await w.api.account.companies.addresses.create({ type: "billing", city: "Kaunas", countryCode: "LT", isDefault: true });
    expect(billing.isDefault).toBe(true);
    expect(await storedOf(w)).toEqual([
      { city: "Vilnius", type: "registered", is_default: false, postal_code: "LT-01103" },
      { city: "Kaunas", type: "billing", is_default: true, postal_code: null },
    ]);
    const error = await expectApiError(
      w.api.account.companies.addresses.update({ id: billing.id, isDefault: false, postalCode: "LT-44240" }),
      422,
      "unprocessable",
      "company_address.default_required",
    );
    expect(error.params).toEqual({ id: billing.id });
    expect((await storedOf(w))[1]).toEqual({ city: "Kaunas", type: "billing", is_default: true, postal_code: null });
    expect(await w.api.account.companies.addresses.update({ id: billing.id, postalCode: "LT-44240" })).toMatchObject({
      postalCode: "LT-44240",
      isDefault: true,
    });
    const listed = await w.api.account.companies.addresses.list({ filter: [{ field: "type", op: "eq", value: "billing" }] });
    expect(listed.rows.map((a) => a.id)).toEqual([billing.id]);
    await w.api.account.companies.addresses.delete({ id: billing.id });
    expect(await storedOf(w)).toEqual([{ city: "Vilnius", type: "registered", is_default: true, postal_code: "LT-01103" }]);
    await expectApiError(w.api.account.companies.addresses.delete({ id: billing.id }), 404, "not_found", "company_address.not_found");
    await expectApiError(
      w.api.account.companies.addresses.create({ type: "registered", city: "Vilnius", countryCode: "XX" }),
      422,
      "unprocessable",
      "country_code.unknown",
    );
    // Another company's key finds none of them.
    const other = await world(h, {});
    await expectApiError(other.api.account.companies.addresses.update({ id: registered.id, city: "Riga" }), 404, "not_found", "company_address.not_found");
    expect((await other.api.account.companies.addresses.list({})).rows).toEqual([]);
    expect(await storedOf(w)).toEqual([{ city: "Vilnius", type: "registered", is_default: true, postal_code: "LT-01103" }]);
  });

  test("an existing company's free address becomes its registered default address where it parses", async () => {
    const w = await world(h, { company: { address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" } } });
    const long = await world(h, { company: { address: { line1: "Gatvė 1", city: "V".repeat(40), postalCode: "LT-01103", countryCode: "LT" } } });
    await copyCompanyAddresses(h.db);
    expect(await storedOf(w)).toEqual([{ city: "Vilnius", type: "registered", is_default: true, postal_code: "LT-01103" }]);
    expect(await storedOf(long)).toEqual([]);
    await copyCompanyAddresses(h.db);
    expect(await storedOf(w)).toHaveLength(1);
  });
});

describe("in a SAF-T file", () => {
  const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => ["Customer", "Address"].includes(name) });

  test("a customer's addresses with their types; one with no postal code on any address is refused; partners/list knows it", async () => {
    const w = await addressesWorld();
    await w.api.ledger.journal.transactions.create({
      date: "2026-03-02",
      entries: [
        { accountCode: "2410", debit: "10.00", partnerCode: "PIRK" },
        { accountCode: "5000", credit: "10.00" },
      ],
    });
    const shipping = await w.api.partners.addresses.create({ partnerId: w.partnerId, type: "shipping", city: "Alytus", countryCode: "LT" });
    const incomplete = (value: boolean) => w.api.partners.list({ filter: [{ field: "addressComplete", op: "eq", value }] });
    expect((await incomplete(false)).rows.map((p) => p.code)).toEqual(["PIRK"]);
    const refused = await expectApiError(
      w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" }),
      422,
      "unprocessable",
      "saft.partner_incomplete",
    );
    expect(refused.params).toEqual({ partners: [{ code: "PIRK", name: "Pirkėjas UAB", missing: ["addresses[].postalCode"] }] });

    await w.api.partners.addresses.update({ id: shipping.id, postalCode: "LT-62001", street: "Pulko g.", building: "12A" });
    await w.api.partners.addresses.create({
      partnerId: w.partnerId,
      type: "registered",
      street: "Laisvės al.",
      building: "5",
      city: "Kaunas",
      postalCode: "LT-44240",
      countryCode: "LT",
      isDefault: true,
    });
    expect((await incomplete(true)).rows.map((p) => p.code)).toEqual(["PIRK"]);
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
    expect((await settledSaft(w, asked.id)).status).toBe("ready");
    const part = await w.api.declarations.lt.saft.download({ id: asked.id, part: 1 });
    const xml = Buffer.from(part.contentBase64, "base64");
    expect((await validateAgainstXsd(xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    const [customer] = parser.parse(xml.toString("utf8")).AuditFile.MasterFiles.Customers.Customer;
    // The default first, then the others in the order they were added.
    expect(customer.Address).toEqual([
      { StreetName: "Laisvės al.", Number: "5", City: "Kaunas", PostalCode: "LT-44240", Country: "LT", AddressType: "BA" },
      { StreetName: "Pulko g.", Number: "12A", City: "Alytus", PostalCode: "LT-62001", Country: "LT", AddressType: "PIA" },
    ]);
    // The company had no structured address: its free address, as the registered office.
    const header = parser.parse(xml.toString("utf8")).AuditFile.Header.Company;
    expect(header.Address).toEqual([{ StreetName: "Gedimino pr. 1", City: "Vilnius", PostalCode: "LT-01103", Country: "LT", AddressType: "BA" }]);
  });

  test("the company's structured addresses in the header; one with no postal code on any is refused", async () => {
    const w = await addressesWorld();
    const billing = await w.api.account.companies.addresses.create({ type: "billing", city: "Kaunas", countryCode: "LT" });
    const refused = await expectApiError(
      w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" }),
      422,
      "unprocessable",
      "saft.company_incomplete",
    );
    expect(refused.params).toEqual({ fields: ["addresses[].postalCode"] });
    await w.api.account.companies.addresses.update({ id: billing.id, postalCode: "LT-44240", street: "Laisvės al.", building: "5" });
    await w.api.account.companies.addresses.create({
      type: "registered",
      street: "Gedimino pr.",
      building: "1",
      city: "Vilnius",
      postalCode: "LT-01103",
      countryCode: "LT",
      isDefault: true,
    });
    const asked = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
    expect((await settledSaft(w, asked.id)).status).toBe("ready");
    const part = await w.api.declarations.lt.saft.download({ id: asked.id, part: 1 });
    const xml = Buffer.from(part.contentBase64, "base64");
    expect((await validateAgainstXsd(xml, "lt/SAFT_2_01.xsd")).errors).toEqual([]);
    expect(parser.parse(xml.toString("utf8")).AuditFile.Header.Company.Address).toEqual([
      { StreetName: "Gedimino pr.", Number: "1", City: "Vilnius", PostalCode: "LT-01103", Country: "LT", AddressType: "BA" },
      { StreetName: "Laisvės al.", Number: "5", City: "Kaunas", PostalCode: "LT-44240", Country: "LT", AddressType: "KA" },
    ]);
  });
});
