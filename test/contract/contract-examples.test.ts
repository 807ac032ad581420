// Issue 14: every request body and every 200 response of the contract has an example (spec/examples/*.yaml), and
// each example is valid against its schema as the server validates requests and the harness responses, so no
// example can rot when a schema changes.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { createContractApi, loadDocument, type ContractApi } from "../../src/http/openapi.js";

const document = loadDocument() as any;
const operations = Object.values(document.paths).map((item: any) => item.post);

let contract: ContractApi;
beforeAll(async () => {
  contract = await createContractApi(loadDocument());
});

describe("examples", () => {
  test("every operation has a request example and a 200 response example", () => {
    const missing = operations.flatMap((op) => [
      ...(op.requestBody.content["application/json"].example === undefined ? [`${op.operationId} request`] : []),
      ...(op.responses["200"].content["application/json"].example === undefined ? [`${op.operationId} response`] : []),
    ]);
    expect(missing).toEqual([]);
  });

  test.each(operations.map((op) => [op.operationId as string, op]))("%s: the examples are valid against their schemas", (_id, op: any) => {
    const path = Object.entries(document.paths).find(([, item]: [string, any]) => item.post === op)![0];
    const request = contract.backend.validator.validateRequest(
      { method: "post", path, headers: { "content-type": "application/json" }, body: structuredClone(op.requestBody.content["application/json"].example) },
      op.operationId,
    );
    expect(request.errors ?? []).toEqual([]);
    const response = contract.backend.validator.validateResponse(op.responses["200"].content["application/json"].example, op.operationId, 200);
    expect(response.errors ?? []).toEqual([]);
  });

  test("the validator does refuse a broken example (the check is real)", () => {
    const op = document.paths["/v1/partners/create"].post;
    const broken = { ...op.responses["200"].content["application/json"].example, paymentTermDays: "14" };
    expect(contract.backend.validator.validateResponse(broken, op.operationId, 200).errors?.length).toBeGreaterThan(0);
    const request = { ...op.requestBody.content["application/json"].example, code: "" };
    expect(
      contract.backend.validator.validateRequest(
        { method: "post", path: "/v1/partners/create", headers: { "content-type": "application/json" }, body: request },
        op.operationId,
      ).errors?.length,
    ).toBeGreaterThan(0);
  });

  test("amounts are decimal strings and names Lithuanian", () => {
    const text = JSON.stringify(
      operations.map((op) => [op.requestBody.content["application/json"].example, op.responses["200"].content["application/json"].example]),
    );
    expect(text).toContain("UAB „Saulėtekis“");
    for (const field of ["grossTotal", "unitPriceExclVat", "debit", "rate"]) expect(text).toMatch(new RegExp(`"${field}":"-?[0-9]+(\\.[0-9]+)?"`));
    expect(text).not.toMatch(/"(grossTotal|netTotal|vatTotal|debit|credit|rate|unitPriceExclVat)":-?[0-9]/);
  });
});
