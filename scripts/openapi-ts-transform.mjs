// The one transform both generated type files (generated/types.ts, sdk/typescript) pass to openapi-typescript.
import ts from "typescript";

const NEVER = () => ts.factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword);
const SCHEMA_REF = "#/components/schemas/";

/**
 * - `{type, not: {}}` matches nothing (the items of an array that must stay empty, scripts/gen.mjs `x-no-items`): typed
 *   `never`, not `unknown`. (openapi-typescript consults a transform only for schemas with a `type`, and for every
 *   component.)
 * - A component that is a `oneOf` of closed objects (`additionalProperties: false`), such as "exactly one of `id` and
 *   `code`" (issue 28): each branch also says that the other branches' properties are absent
 *   (`{id: Id; code?: never} | {code: Code; id?: never}`). A plain union of `{id}` and `{code}` would accept
 *   `{id, code}`, since TypeScript checks excess properties against every member of a union at once.
 */
export function contractTypes(schema, options) {
  if (schema.not && typeof schema.not === "object" && Object.keys(schema.not).length === 0) return NEVER();
  if (Array.isArray(schema.oneOf) && options?.ctx?.resolve) return exclusiveOneOf(schema.oneOf, options.ctx.resolve);
  return undefined;
}

function exclusiveOneOf(branches, resolve) {
  const refs = branches.map((b) => (typeof b.$ref === "string" && b.$ref.startsWith(SCHEMA_REF) ? b.$ref : undefined));
  if (refs.some((r) => r === undefined)) return undefined;
  const resolved = refs.map((r) => resolve(r));
  if (!resolved.every((s) => s && s.type === "object" && s.additionalProperties === false && s.properties)) return undefined;
  const all = new Set(resolved.flatMap((s) => Object.keys(s.properties)));
  const members = refs.map((ref, i) => {
    const own = new Set(Object.keys(resolved[i].properties));
    const absent = [...all].filter((p) => !own.has(p));
    const reference = ts.factory.createIndexedAccessTypeNode(
      ts.factory.createIndexedAccessTypeNode(
        ts.factory.createTypeReferenceNode("components"),
        ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral("schemas")),
      ),
      ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(ref.slice(SCHEMA_REF.length))),
    );
    if (!absent.length) return reference;
    const never = ts.factory.createTypeLiteralNode(
      absent.map((p) =>
        ts.factory.createPropertySignature(undefined, ts.factory.createStringLiteral(p), ts.factory.createToken(ts.SyntaxKind.QuestionToken), NEVER()),
      ),
    );
    return ts.factory.createIntersectionTypeNode([reference, never]);
  });
  return ts.factory.createUnionTypeNode(members);
}
