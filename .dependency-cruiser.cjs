// The import rules of the house (issue 23; STYLE 16 and 20), checked in CI by `npm run lint:deps`:
//   http → handlers → modules → (db, auth, shared); a module reaches another only through its face (index.ts);
//   no cycles anywhere. Migrations depend on nothing that changes after they ship.
const MODULES = "(account|partners|catalog|reference|ledger|invoicing|sales|purchases|bank|assets|inventory|webhooks|events|migration|declarations)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: "no-cycles", severity: "error", comment: "No two files (and so no two modules) depend on each other.", from: {}, to: { circular: true } },
    {
      name: "module-through-its-face",
      severity: "error",
      comment: "A module uses another only through that module's index.ts (its face).",
      from: { path: `^src/${MODULES}/` },
      to: { path: `^src/${MODULES}/`, pathNot: [`^src/$1/`, `^src/${MODULES}/index\\.ts$`] },
    },
    {
      name: "nothing-below-reaches-up",
      severity: "error",
      comment: "Modules, shared code, the database layer and auth never import the HTTP layer, handlers, jobs or the CLI.",
      from: { path: [`^src/${MODULES}/`, "^src/(shared|db|auth)/"] },
      to: { path: "^src/(http|handlers|jobs|cli)/" },
    },
    {
      name: "handlers-below-http",
      severity: "error",
      comment: "Handlers are called by the HTTP layer; they do not import it.",
      from: { path: "^src/handlers/" },
      to: { path: "^src/http/" },
    },
    {
      name: "shared-is-a-leaf",
      severity: "error",
      comment: "src/shared holds pure helpers every layer may use; it uses nothing of the service.",
      from: { path: "^src/shared/" },
      to: { path: "^src/", pathNot: "^src/shared/" },
    },
    {
      name: "db-and-auth-below-modules",
      severity: "error",
      comment: "The database layer and auth sit below the modules.",
      from: { path: "^src/(db|auth)/" },
      to: { path: `^src/${MODULES}/` },
    },
    {
      name: "migrations-are-frozen",
      severity: "error",
      comment: "A migration replays the same way forever: it imports nothing of the live code but the database layer and shared helpers.",
      from: { path: "^src/db/migrations/" },
      to: { path: "^src/", pathNot: ["^src/db/", "^src/shared/"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(generated|sdk)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
