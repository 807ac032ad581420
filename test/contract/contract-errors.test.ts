// Issue 14: every `error.key` the server can send is declared, per operation and status, in the responses'
// `x-error-keys` (the harness also checks every key a test run sees: test/support/harness.ts). The keys the code can
// raise are read from src/ with the TypeScript compiler (test/support/error-keys.ts).
import { describe, expect, test } from "@jest/globals";
import { loadDocument } from "../../src/http/openapi.js";
import { allRaisedKeys, keysByOperation, type KeySite } from "../support/error-keys.js";

const document = loadDocument() as any;
const resolve = (r: any) => (r.$ref ? document.components.responses[r.$ref.split("/").pop()] : r);
const operations = Object.entries(document.paths).map(([path, item]: [string, any]) => ({ path, op: item.post }));

/** status -> keys an operation declares. */
function declaredKeys(op: any): Map<string, Set<string>> {
  const byStatus = new Map<string, Set<string>>();
  for (const [status, response] of Object.entries(op.responses)) {
    if (status !== "200") byStatus.set(status, new Set(resolve(response)["x-error-keys"] ?? []));
  }
  return byStatus;
}

/** Every declaration of the document: status -> keys, over every operation, the shared and the unrouted keys. */
const everywhere = new Map<string, Set<string>>();
const note = (status: string, key: string) => everywhere.set(status, (everywhere.get(status) ?? new Set()).add(key));
for (const { op } of operations) for (const [status, keys] of declaredKeys(op)) for (const k of keys) note(status, k);
for (const root of ["x-error-keys", "x-unrouted-error-keys"])
  for (const [status, keys] of Object.entries(document[root] as Record<string, string[]>)) for (const k of keys) note(status, k);
for (const byStatus of Object.values(document["x-trait-error-keys"] as Record<string, Record<string, string[]>>)) {
  for (const [status, keys] of Object.entries(byStatus)) for (const k of keys) note(status, k);
}

/** Sites the declarations miss: a plain key must be declared; of a template's expansions, at least one. */
function missing(sites: KeySite[], declared: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const templates = new Map<string, KeySite[]>();
  for (const site of sites) {
    if (site.template) templates.set(site.template, [...(templates.get(site.template) ?? []), site]);
    else if (!declared.get(String(site.status))?.has(site.key)) problems.push(`${site.status} ${site.key} (${site.at})`);
  }
  for (const [template, expansions] of templates) {
    if (!expansions.some((s) => declared.get(String(s.status))?.has(s.key)))
      problems.push(`${expansions[0].status} one of ${expansions.map((s) => s.key).join(" | ")} (${template})`);
  }
  return [...new Set(problems)].sort();
}

const raised = allRaisedKeys();
const byOperation = keysByOperation();

describe("error keys", () => {
  test("the scan finds the keys of every kind of raise (a sanity check of test/support/error-keys.ts)", () => {
    const found = new Set(raised.map((s) => `${s.status} ${s.key}`));
    for (const expected of [
      "404 partner.not_found", // notFound(what, key)
      "409 period.locked", // conflict(message, key)
      "403 api_key.scope_escalation", // forbidden(message, key)
      "400 request.invalid", // validationError(...)
      "401 auth.key_missing", // new ApiError(code, message, { key: cond ? a : b })
      "422 vat_code.invalid", // check(field, key, problem) -> throwRuleFailures
      "422 sale_invoice.partner_not_customer", // a template key
      "400 request.headers_too_large", // the HTTP parser's answers (src/server.ts)
    ]) {
      expect(found).toContain(expected);
    }
    expect(new Set(raised.map((s) => s.key)).size).toBeGreaterThan(100);
  });

  test("every key the code can raise is declared, with the status it is raised with", () => {
    expect(missing(raised, everywhere)).toEqual([]);
  });

  test("every operation declares the keys its handler can raise, following its calls", () => {
    expect(byOperation.size).toBe(operations.length);
    const problems: string[] = [];
    for (const { op } of operations) {
      const sites = byOperation.get(op.operationId);
      if (!sites) {
        problems.push(`${op.operationId}: no handler found`);
        continue;
      }
      for (const m of missing(sites, declaredKeys(op))) problems.push(`${op.operationId}: ${m}`);
    }
    expect(problems).toEqual([]);
  });

  test("every declared key is one the code can raise (no stale declarations)", () => {
    const raisable = new Set(raised.map((s) => s.key));
    const declared = [...everywhere.values()].flatMap((keys) => [...keys]);
    expect([...new Set(declared.filter((k) => !raisable.has(k)))].sort()).toEqual([]);
  });

  test("an operation's own error response names each of its keys in its description", () => {
    const problems: string[] = [];
    for (const { op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const r = resolve(response);
        const shared = new Set(document["x-error-keys"][status] ?? []);
        for (const key of r["x-error-keys"] ?? [])
          if (!shared.has(key) && !r.description.includes(`\`${key}\``)) problems.push(`${op.operationId} ${status} ${key}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
