// What the SDK's types refuse at compile time (`npm test` type-checks this file; a `@ts-expect-error` that no longer
// meets an error fails it): "exactly one of id and code" on the six operations whose contract says so (a oneOf of two
// closed objects, typed by scripts/openapi-ts-transform.mjs so that a body with both keys is refused too), error codes
// and keys outside the contract's unions, and a client without baseUrl. The same bodies sent on purpose: test/contract/
// sdk.test.ts. The runtime part checks the contract the types come from.
import { describe, expect, test } from "@jest/globals";
import { loadDocument } from "../../src/http/openapi.js";
import { AccountingApi, type AccountingApiError, type RequestBody } from "../../sdk/typescript/src/index.js";

const ID = "3f1c0a5e-1f4b-4c8a-9e2d-5b6a7c8d9e0f";
const body = <Id extends Parameters<typeof check>[0]>(_id: Id, value: RequestBody<Id>) => value;
const check = (_id: "partners_get" | "partners_delete" | "catalog_items_get" | "catalog_items_delete" | "inventory_warehouses_get" | "ledger_accounts_get") =>
  undefined;

/** Never called: these lines matter to the type-checker only. */
// biome-ignore lint/suspicious/noExportsInTest: exported so that the unused function is not an error; jest never calls it
export function refusedAtCompileTime(api: AccountingApi, error: AccountingApiError): unknown[] {
  return [
    body("partners_get", { id: ID }),
    body("partners_get", { code: "P1" }),
    // @ts-expect-error neither id nor code
    body("partners_get", {}),
    // @ts-expect-error both id and code
    body("partners_get", { id: ID, code: "P1" }),
    // @ts-expect-error neither id nor code
    body("partners_delete", {}),
    // @ts-expect-error both id and code
    body("partners_delete", { id: ID, code: "P1" }),
    // @ts-expect-error neither id nor code
    body("catalog_items_get", {}),
    // @ts-expect-error both id and code
    body("catalog_items_get", { id: ID, code: "P1" }),
    // @ts-expect-error neither id nor code
    body("catalog_items_delete", {}),
    // @ts-expect-error both id and code
    body("catalog_items_delete", { id: ID, code: "P1" }),
    // @ts-expect-error neither id nor code
    body("inventory_warehouses_get", {}),
    // @ts-expect-error both id and code
    body("inventory_warehouses_get", { id: ID, code: "P1" }),
    // @ts-expect-error neither id nor code
    body("ledger_accounts_get", {}),
    // @ts-expect-error both id and code
    body("ledger_accounts_get", { id: ID, code: "2410" }),
    // @ts-expect-error both, through a client
    api.partners.get({ id: ID, code: "P1" }),
    // @ts-expect-error an error key the contract does not declare
    error.key === "partner.code_tkaen",
    error.key === "partner.code_taken",
    // @ts-expect-error an error code the contract does not have
    error.code === "not_fonud",
    error.code === "connection_error",
    // @ts-expect-error baseUrl is required
    new AccountingApi({ apiKey: "ak_x" }),
  ];
}

describe("the contract the SDK's types come from", () => {
  const document = loadDocument() as any;
  const schema = (ref: string) => document.components.schemas[ref.replace("#/components/schemas/", "")];

  test.each([
    "/v1/partners/get",
    "/v1/partners/delete",
    "/v1/catalog/items/get",
    "/v1/catalog/items/delete",
    "/v1/inventory/warehouses/get",
    "/v1/ledger/accounts/get",
  ])("%s takes a oneOf of {id} and {code}, each closed", (path) => {
    const request = schema(document.paths[path].post.requestBody.content["application/json"].schema.$ref);
    expect(request.oneOf).toHaveLength(2);
    const branches = request.oneOf.map((b: { $ref: string }) => schema(b.$ref));
    expect(branches.map((b: any) => [Object.keys(b.properties), b.required, b.additionalProperties])).toEqual([
      [["id"], ["id"], false],
      [["code"], ["code"], false],
    ]);
  });
});
