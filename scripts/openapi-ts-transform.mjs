// The one transform both generated type files (generated/types.ts, sdk/typescript) pass to openapi-typescript.
import ts from "typescript";

/**
 * `{type, not: {}}` matches nothing (the items of an array that must stay empty, scripts/gen.mjs `x-no-items`): typed
 * `never`, not `unknown`. (openapi-typescript consults a transform only for schemas with a `type`.)
 */
export function neverForNothing(schema) {
  if (schema.not && typeof schema.not === "object" && Object.keys(schema.not).length === 0) {
    return ts.factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword);
  }
  return undefined;
}
