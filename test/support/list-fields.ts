// The list operations of a contract and their field-name enums (issue 14), and the same contract with those enums
// widened back to any name: a server on it lets the list engine itself answer for a name it does not accept, which
// is how the tests hold the enums to the engine and keep testing the engine's own defences.
import type { Document } from "openapi-backend";

export interface ListOperation {
  path: string;
  operationId: string;
  companyScoped: boolean;
  /** The request schema's name in components.schemas. */
  request: string;
  filter: string[];
  sort: string[];
  totals: string[];
}

const refName = (node: any): string => {
  const ref = node.$ref ?? node.allOf?.[0]?.$ref;
  if (!ref) throw new Error(`not a reference: ${JSON.stringify(node)}`);
  return ref.split("/").pop();
};

/** The enum a field-name schema names, or a message saying that it is not typed (a list on the plain ListRequest). */
const enumOf = (schemas: Record<string, any>, node: any, what: string, operationId: string): string[] => {
  const values = node.$ref || node.allOf ? schemas[refName(node)]?.enum : undefined;
  if (!Array.isArray(values))
    throw new Error(`${operationId}: its ${what} field names are not an enum; declare the list's request with ListRequestOf<…> (README, "Working on it")`);
  return values;
};

export function listOperations(document: Document): ListOperation[] {
  const schemas = (document as any).components.schemas as Record<string, any>;
  return Object.entries((document as any).paths)
    .filter(([path]) => path.endsWith("/list"))
    .map(([path, item]: [string, any]) => {
      const op = item.post;
      const request = refName(op.requestBody.content["application/json"].schema);
      const props = schemas[request].properties;
      const resolved = (n: any) => (n.$ref ? schemas[refName(n)] : n);
      return {
        path,
        operationId: op.operationId,
        companyScoped: op["x-company-scoped"] === true,
        request,
        filter: enumOf(schemas, resolved(props.filter.items).properties.field, "filter", op.operationId),
        sort: enumOf(schemas, resolved(props.sort.items).properties.field, "sort", op.operationId),
        totals: props.totals.maxItems === 0 ? [] : enumOf(schemas, props.totals.items, "totals", op.operationId),
      };
    });
}

/** The contract with every list's field names widened to any name of 1 to 64 characters (at most 10 totals). */
export function widenListFields(document: Document): Document {
  const doc = structuredClone(document) as any;
  const anyName = { type: "string", minLength: 1, maxLength: 64 };
  for (const list of listOperations(document)) {
    const props = doc.components.schemas[list.request].properties;
    props.filter.items.properties.field = anyName;
    props.sort.items.properties.field = anyName;
    props.totals = { type: "array", maxItems: 10, items: anyName };
  }
  return doc as Document;
}
