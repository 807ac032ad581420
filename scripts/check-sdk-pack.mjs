// Proves the SDK ships: `npm pack` in sdk/typescript (its prepack builds JS + .d.ts), then in an empty temporary
// project `npm install <tarball>`, an import of the installed package from plain Node (a call against a local stub
// server, a webhook signature made with node:crypto), and a type-check of a consumer file against the shipped .d.ts.
// Run by .ci/run; alone: `node scripts/check-sdk-pack.mjs`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sdk = join(root, "sdk/typescript");
const work = mkdtempSync(join(tmpdir(), "sdk-pack-"));
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });

try {
  run("npm", ["pack", "--silent", "--pack-destination", work], sdk);
  const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  const app = join(work, "app");
  run("mkdir", ["-p", app], work);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "sdk-consumer", private: true, type: "module" }));
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--silent", join(work, tarball)], app);

  writeFileSync(
    join(app, "smoke.mjs"),
    `import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { AccountingApi, AccountingApiConnectionError, AccountingApiError, API_VERSION, constructWebhookEvent } from "@accounting-api/sdk";

const seen = [];
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    seen.push({ path: req.url, auth: req.headers.authorization, company: req.headers["x-company-id"], idem: req.headers["idempotency-key"], body: JSON.parse(body), ua: req.headers["user-agent"], client: req.headers["x-client-name"], rid: req.headers["x-request-id"] });
    const ok = req.url === "/v1/partners/create";
    res.writeHead(ok ? 200 : 404, { "content-type": "application/json", "x-request-id": "r1" });
    res.end(JSON.stringify(ok ? { id: "p1", name: "Pirkėjas UAB" } : { error: { code: "not_found", message: "No such partner.", requestId: "r1", key: "partner.not_found" } }));
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const api = new AccountingApi({ apiKey: "ak_test", companyId: "c1", baseUrl: "http://127.0.0.1:" + server.address().port });
const partner = await api.partners.create({ name: "Pirkėjas UAB", code: "P1" }, { idempotencyKey: "k1" });
await api.partners.create({ name: "Antras UAB", code: "P2" });
let error;
try { await api.partners.get({ code: "NO" }); } catch (e) { error = e; }
server.close();
const want = { path: "/v1/partners/create", auth: "Bearer ak_test", company: "c1", idem: "k1", body: { name: "Pirkėjas UAB", code: "P1" } };
const { ua, client, rid, ...first } = seen[0];
if (JSON.stringify(first) !== JSON.stringify(want)) throw new Error("request: " + JSON.stringify(seen[0]));
if (ua !== "accounting-api-sdk/" + API_VERSION + " (node " + process.versions.node + ")" || client !== "accounting-api-sdk/" + API_VERSION) throw new Error("the SDK names itself: " + JSON.stringify(seen[0]));
if (!/^sdk_[0-9a-f-]{36}$/.test(rid) || rid === seen[1].rid) throw new Error("each call has its own X-Request-Id: " + JSON.stringify(seen.map((s) => s.rid)));
if (!/^sdk-[0-9a-f-]{36}$/.test(seen[1].idem)) throw new Error("a write without a key gets a generated Idempotency-Key: " + JSON.stringify(seen[1]));
if (seen[2].idem !== undefined) throw new Error("a read carries no Idempotency-Key: " + JSON.stringify(seen[2]));
if (partner.id !== "p1") throw new Error("response: " + JSON.stringify(partner));
if (!(error instanceof AccountingApiError) || error.status !== 404 || error.key !== "partner.not_found") throw new Error("error: " + error);
// A port nothing listens on any more: the connection is refused.
const gone = createServer();
await new Promise((r) => gone.listen(0, "127.0.0.1", r));
const port = gone.address().port;
await new Promise((r) => gone.close(r));
const closed = new AccountingApi({ apiKey: "ak_test", baseUrl: "http://127.0.0.1:" + port, maxRetries: 0 });
const refused = await closed.partners.list().then(() => undefined, (e) => e);
if (!(refused instanceof AccountingApiConnectionError) || refused.status !== 0 || !/^sdk_/.test(refused.requestId)) throw new Error("connection refused: " + refused);

const secret = "whsec_test", body = JSON.stringify({ id: "e1", eventType: "partner.created" }), t = Math.floor(Date.now() / 1000);
const v1 = createHmac("sha256", secret).update(t + "." + body).digest("hex");
const event = await constructWebhookEvent(body, { "x-service-signature-v2": "t=" + t + ",v1=" + v1 }, secret);
if (event.id !== "e1") throw new Error("webhook: " + JSON.stringify(event));
console.log("installed @accounting-api/sdk " + API_VERSION + ": a call, an error, a refused connection and a webhook verified");
`,
  );
  process.stdout.write(run(process.execPath, ["smoke.mjs"], app));

  writeFileSync(
    join(app, "consumer.ts"),
    `import { AccountingApi, AccountingApiError, paginate, type components } from "@accounting-api/sdk";
const api = new AccountingApi({ apiKey: "ak_test", baseUrl: "https://api.example.lt" });
// @ts-expect-error baseUrl is required
new AccountingApi({ apiKey: "ak_test" });
export async function use(): Promise<string[]> {
  const partner: components["schemas"]["Partners.Partner"] = await api.partners.create({ name: "Pirkėjas UAB", code: "P1" });
  // @ts-expect-error name and code are required
  await api.partners.create({});
  // @ts-expect-error exactly one of id and code
  await api.partners.get({ id: partner.id, code: partner.code });
  try {
    await api.partners.get({ code: "P1" });
  } catch (e) {
    // @ts-expect-error not a key of the contract
    if (e instanceof AccountingApiError && e.key === "partner.not_fonud") return [];
  }
  const codes: string[] = [partner.code];
  for await (const row of paginate(api.partners.list, { pageSize: 100 })) codes.push(row.code);
  return codes;
}
`,
  );
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "nodenext", moduleResolution: "nodenext", lib: ["ES2022", "DOM"], types: [], strict: true, noEmit: true },
      files: ["consumer.ts"],
    }),
  );
  run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", app], app);
  console.log(`${tarball}: installs, imports and type-checks in a fresh project`);
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(join(sdk, "dist"), { recursive: true, force: true });
}
