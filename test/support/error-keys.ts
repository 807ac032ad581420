// Reads src/ with the TypeScript compiler to find every `error.key` the code can raise, and which operation can
// raise which (issue 14: "a test checks that every key the code can raise is declared").
//
// A key is raised where:
//  - `notFound(what, KEY)`, `conflict(msg, KEY)`, `unprocessable(msg, KEY)`, `forbidden(msg, KEY)` (src/shared/errors.ts)
//    is called: 404, 409, 422, 403;
//  - `validationError(...)` is called: 400 `request.invalid`;
//  - `new ApiError(CODE, msg, { key: KEY })` is built: the status of CODE;
//  - a key-like literal is the `key` property of some other object (the problems a rule check collects) or is
//    passed to a parameter whose name ends in `key` (`check(field, key, problem)`, `throwRuleFailures(…, severalKey)`,
//    a method's `failures.add(path, key, why)`, or such a parameter's default) or assigned into a `…keys` object
//    (`keys.barcode = "barcode.invalid_checksum"`):
//    such keys end in the 422 a rule failure throws (src/shared/identifiers.ts, src/invoicing/*).
// KEY is a string literal, a conditional of two, or a template; a template's `${…}` parts are expanded with
// EXPANSIONS below (a part not listed there fails the scan, so a new dynamic key cannot go unseen).
//
// Which operation raises which key follows the calls from each handler's function (src/handlers/<path>.ts) through
// the functions it calls, as the type checker resolves them; the pipeline's own keys are added by the operation's
// traits (company-scoped, mutating) in the contract test.
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { STATUS_OF, type ErrorCode } from "../../src/shared/errors.js";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** What a `${…}` inside a key template can be, by the expression's text. */
const EXPANSIONS: Record<string, string[]> = {
  "KEY_PREFIX[side]": ["sale_invoice", "purchase_invoice"],
  prefix: ["sale_invoice", "purchase_invoice"],
  role: ["customer", "supplier"],
  "book.kind": ["partner_address", "company_address"],
};

const THROWERS: Record<string, number> = { notFound: 404, conflict: 409, unprocessable: 422, forbidden: 403 };
const KEY_LIKE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

export interface KeySite {
  key: string;
  status: number;
  /** file:line in src/ */
  at: string;
  /** Set when the key is one expansion of a template: at least one of the site's expansions must be declared. */
  template?: string;
}

/** Rule-failure keys (`key: "…"` literals) end in a 422, except where a file builds another answer with them. */
const INDIRECT_STATUS_BY_FILE: Record<string, number> = { "src/server.ts": 400 };

function program(): ts.Program {
  const configPath = join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const files = parsed.fileNames.filter((f) => f.startsWith(`${join(ROOT, "src")}/`));
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

function site(node: ts.Node): string {
  const file = node.getSourceFile();
  return `${relative(ROOT, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
}

/** The key(s) an expression can be; undefined when it is not a literal form (a variable: the key came from elsewhere). */
function keysOf(expr: ts.Expression | undefined): { keys: string[]; template?: string } | undefined {
  const keys = keysOfInner(expr);
  if (!keys || !expr) return undefined;
  return { keys, template: ts.isTemplateExpression(expr) ? expr.getText() : undefined };
}

function keysOfInner(expr: ts.Expression | undefined): string[] | undefined {
  if (!expr) return undefined;
  if (ts.isParenthesizedExpression(expr)) return keysOfInner(expr.expression);
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr.text];
  if (ts.isConditionalExpression(expr)) {
    const a = keysOfInner(expr.whenTrue);
    const b = keysOfInner(expr.whenFalse);
    return a && b ? [...a, ...b] : undefined;
  }
  if (ts.isTemplateExpression(expr)) {
    let results = [expr.head.text];
    for (const span of expr.templateSpans) {
      const text = span.expression.getText();
      const values = EXPANSIONS[text];
      if (!values) throw new Error(`${site(span)}: the error key template part \${${text}} is not in EXPANSIONS of test/support/error-keys.ts`);
      results = results.flatMap((r) => values.map((v) => r + v + span.literal.text));
    }
    return results;
  }
  return undefined;
}

/** The keys raised directly in `node` (not through the functions it calls). */
function keysRaisedIn(node: ts.Node, checker: ts.TypeChecker, sites: KeySite[]): void {
  const emit = (found: ReturnType<typeof keysOf>, status: number, at: ts.Node, indirect = false) => {
    const where = site(at);
    const file = where.split(":")[0];
    if (indirect && INDIRECT_STATUS_BY_FILE[file]) status = INDIRECT_STATUS_BY_FILE[file];
    for (const key of found?.keys ?? []) {
      if (indirect && !KEY_LIKE.test(key)) continue;
      sites.push({ key, status, at: where, template: found!.template && `${where} ${found!.template}` });
    }
  };
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) {
      const name = n.expression.text;
      if (name in THROWERS && declaredIn(checker, n.expression, "src/shared/errors.ts")) {
        emit(keysOf(n.arguments[1]), THROWERS[name], n);
      } else if (name === "validationError" && declaredIn(checker, n.expression, "src/shared/errors.ts")) {
        sites.push({ key: "request.invalid", status: 400, at: site(n) });
      } else {
        // A literal handed to a parameter named `…key` of the function called.
        const declaration = resolve(checker, n.expression);
        if (declaration) {
          declaration.parameters.forEach((p, i) => {
            if (ts.isIdentifier(p.name) && /key$/i.test(p.name.text)) {
              emit(keysOf(n.arguments[i]), 422, n, true);
            }
          });
        }
      }
    } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      // The same through a method (`failures.add(path, key, why)`: src/inventory/checks.ts).
      const declaration = resolve(checker, n.expression);
      if (declaration) {
        declaration.parameters.forEach((p, i) => {
          if (ts.isIdentifier(p.name) && /key$/i.test(p.name.text)) emit(keysOf(n.arguments[i]), 422, n, true);
        });
      }
    }
    // A `…key` parameter's default (`throwIfAny(severalKey = "inventory.invalid_lines")`).
    if (ts.isParameter(n) && ts.isIdentifier(n.name) && /key$/i.test(n.name.text) && n.initializer) emit(keysOf(n.initializer), 422, n, true);
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "ApiError" && n.arguments) {
      const code = n.arguments[0];
      const options = n.arguments[2];
      if (code && ts.isStringLiteral(code) && options && ts.isObjectLiteralExpression(options)) {
        const status = STATUS_OF[code.text as ErrorCode];
        for (const prop of options.properties) {
          if (ts.isPropertyAssignment(prop) && prop.name.getText() === "key") {
            emit(keysOf(prop.initializer), status, prop);
          }
        }
      }
    } else if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      (ts.isPropertyAccessExpression(n.left) || ts.isElementAccessExpression(n.left)) &&
      /keys$/i.test(n.left.expression.getText())
    ) {
      // `keys.barcode = "barcode.invalid_checksum"`: the key a rule failure of that field throws with.
      emit(keysOf(n.right), 422, n, true);
    } else if (ts.isPropertyAssignment(n) && n.name.getText() === "key" && !isApiErrorOptions(n)) {
      emit(keysOf(n.initializer), 422, n, true);
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
}

function isApiErrorOptions(prop: ts.PropertyAssignment): boolean {
  const object = prop.parent;
  const call = object.parent;
  return ts.isNewExpression(call) && ts.isIdentifier(call.expression) && call.expression.text === "ApiError";
}

function declaredIn(checker: ts.TypeChecker, id: ts.Identifier, file: string): boolean {
  let symbol = checker.getSymbolAtLocation(id);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return !!symbol?.declarations?.some((d) => relative(ROOT, d.getSourceFile().fileName) === file);
}

type FunctionLike = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration;

/** The function an identifier or property access calls, when it is one of ours. */
function resolve(checker: ts.TypeChecker, callee: ts.Expression): FunctionLike | undefined {
  let symbol = checker.getSymbolAtLocation(callee);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  for (const d of symbol?.declarations ?? []) {
    if (!d.getSourceFile().fileName.startsWith(`${join(ROOT, "src")}/`)) continue;
    if (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d)) return d.body ? d : undefined;
    if (ts.isVariableDeclaration(d) && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) return d.initializer;
  }
  return undefined;
}

let cached: { program: ts.Program; checker: ts.TypeChecker } | undefined;
function load() {
  if (!cached) {
    const p = program();
    cached = { program: p, checker: p.getTypeChecker() };
  }
  return cached;
}

/** Every key raised anywhere in src/. */
export function allRaisedKeys(): KeySite[] {
  const { program, checker } = load();
  const out: KeySite[] = [];
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(`${join(ROOT, "src")}/`)) continue;
    keysRaisedIn(file, checker, out);
  }
  return out;
}

/** The keys each operation's handler can raise, following its calls: operationId -> sites. */
export function keysByOperation(): Map<string, KeySite[]> {
  const { program, checker } = load();
  const result = new Map<string, KeySite[]>();
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(`${join(ROOT, "src/handlers")}/`)) continue;
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === "defineHandler") {
        const [id, fn] = n.arguments;
        if (id && ts.isStringLiteral(id) && fn) result.set(id.text, reachableKeys(fn, checker));
      }
      ts.forEachChild(n, visit);
    };
    visit(file);
  }
  return result;
}

function reachableKeys(start: ts.Node, checker: ts.TypeChecker): KeySite[] {
  const out: KeySite[] = [];
  const seen = new Set<ts.Node>();
  const queue: ts.Node[] = [start];
  while (queue.length) {
    const node = queue.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    keysRaisedIn(node, checker, out);
    const calls = (n: ts.Node) => {
      if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
        const target = resolve(checker, n.expression);
        if (target && !seen.has(target)) queue.push(target);
      }
      // A function passed by name (`rows.map(toApi)`, `withTransaction(db, run)`) runs too.
      if (ts.isIdentifier(n) && !ts.isCallExpression(n.parent)) {
        const target = resolve(checker, n);
        if (target && !seen.has(target)) queue.push(target);
      }
      ts.forEachChild(n, calls);
    };
    calls(node);
  }
  return out;
}
