// Issue 14: what an integrator reads first — summaries, tags, info, and a `servers` entry that names the public URL.
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import YAML from "yaml";
import { DEFAULT_PUBLIC_URL, loadConfig } from "../../src/config.js";
import { DOCUMENT_PATH, loadDocument } from "../../src/http/openapi.js";
import { startHarness, type Harness } from "../support/harness.js";

const document = loadDocument() as any;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, any>).map(([method, op]) => ({ path, method, op })),
);

describe("the contract reads well", () => {
  test("the server's JSON copy of the contract is the published YAML, value for value", () => {
    expect(document).toEqual(loadDocument(DOCUMENT_PATH));
    expect(document.paths["/v1/partners/create"]).toBeDefined();
  });

  test("every operation has a short summary and exactly one tag, its module's, described at the top", () => {
    const described = new Map<string, string>(document.tags.map((t: { name: string; description: string }) => [t.name, t.description]));
    const moduleTag: Record<string, string> = {};
    for (const { path, op } of operations) {
      expect(typeof op.summary).toBe("string");
      expect(op.summary.length).toBeGreaterThan(3);
      expect(op.summary.length).toBeLessThanOrEqual(50);
      expect(op.summary).not.toMatch(/\.$/);
      expect(op.tags).toHaveLength(1);
      expect(described.get(op.tags[0])).toMatch(/\S/);
      const module = path.split("/")[2];
      moduleTag[module] ??= op.tags[0];
      expect([path, op.tags[0]]).toEqual([path, moduleTag[module]]);
    }
    const summaries = operations.map(({ op }) => op.summary);
    expect(new Set(summaries).size).toBe(summaries.length);
  });

  test("info carries contact, license and external documentation", () => {
    expect(document.info.contact).toEqual(expect.objectContaining({ name: expect.any(String), email: expect.stringContaining("@") }));
    expect(document.info.license).toEqual(expect.objectContaining({ name: expect.any(String), url: expect.stringMatching(/^https?:\/\//) }));
    expect(document.externalDocs.url).toMatch(/^https?:\/\//);
    expect(document.servers).toEqual([{ url: DEFAULT_PUBLIC_URL, description: expect.any(String) }]);
  });
});

/**
 * What Swagger UI is started with when the reference page's /docs/init.js runs in a page loaded from `origin`: the
 * script is run as a browser would, with its fetch reaching the server.
 */
async function runDocsInit(h: Harness, origin: string): Promise<{ url?: string; servers?: unknown }> {
  const script = await (await h.get("/docs/init.js")).text();
  let started: ((config: Record<string, any>) => void) | undefined;
  const config = new Promise<Record<string, any>>((resolve) => (started = resolve));
  const window: Record<string, unknown> = { location: { origin } };
  const context = vm.createContext({
    window,
    fetch: (path: string) => h.get(path),
    SwaggerUIBundle: (c: Record<string, any>) => started!(c),
  });
  vm.runInContext(script, context);
  const c = await config;
  return c.spec ? { servers: c.spec.servers } : { url: c.url };
}

describe("the reference page without PUBLIC_URL", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { publicUrl: DEFAULT_PUBLIC_URL } });
  });
  afterAll(() => h.close());

  test("Swagger UI's Try it out sends to the origin the page was loaded from, not http://localhost:3000", async () => {
    expect(await runDocsInit(h, "http://10.1.2.3:8080")).toEqual({
      servers: [{ url: "http://10.1.2.3:8080", description: expect.stringContaining("PUBLIC_URL is not set") }],
    });
    // The served document keeps its server.
    expect(((await (await h.get("/openapi.json")).json()) as { servers: { url: string }[] }).servers[0].url).toBe(DEFAULT_PUBLIC_URL);
  });
});

describe("PUBLIC_URL", () => {
  const cases = [
    { name: "unset", env: undefined, expected: "http://localhost:3000" },
    { name: "a host", env: "https://API.Sauletekis.lt", expected: "https://api.sauletekis.lt" },
    { name: "a path, trailing slash dropped", env: "https://apskaita.example.lt/api/", expected: "https://apskaita.example.lt/api" },
  ];
  test.each(cases)("setting: $name", ({ env, expected }) => {
    const saved = process.env.PUBLIC_URL;
    try {
      if (env === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = env;
      expect(loadConfig().publicUrl).toBe(expected);
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = saved;
    }
  });

  test.each(["api.example.lt", "ftp://api.example.lt", "https://user:pw@api.example.lt", "https://api.example.lt/?x=1"])("refuses %s", (value) => {
    const saved = process.env.PUBLIC_URL;
    try {
      process.env.PUBLIC_URL = value;
      expect(() => loadConfig()).toThrow(/PUBLIC_URL must be an absolute http\(s\) URL/);
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = saved;
    }
  });

  describe("in the served documents", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ config: { publicUrl: "https://apskaita.example.lt/api" } });
    });
    afterAll(() => h.close());

    test.each([
      { path: "/openapi.json", parse: (t: string) => JSON.parse(t), version: "3.0.0" },
      { path: "/openapi.yaml", parse: (t: string) => YAML.parse(t), version: "3.0.0" },
      { path: "/openapi.3.1.json", parse: (t: string) => JSON.parse(t), version: "3.1.0" },
      { path: "/openapi.3.1.yaml", parse: (t: string) => YAML.parse(t), version: "3.1.0" },
    ])("$path names it as the server, in info and externalDocs", async ({ path, parse, version }) => {
      const res = await h.get(path);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain(DEFAULT_PUBLIC_URL);
      const served = parse(text);
      expect(served.openapi).toBe(version);
      expect(served.servers).toEqual([{ url: "https://apskaita.example.lt/api", description: expect.any(String) }]);
      expect(served.externalDocs.url).toBe("https://apskaita.example.lt/api/docs");
      expect(served.info.contact.url).toBe("https://apskaita.example.lt/api/docs");
      // Nothing else differs from the committed document.
      expect(JSON.parse(JSON.stringify(served).replaceAll("https://apskaita.example.lt/api", DEFAULT_PUBLIC_URL)).paths).toEqual(
        version === "3.0.0" ? document.paths : expect.anything(),
      );
    });

    test("Swagger UI's Try it out sends to PUBLIC_URL, the served document's server", async () => {
      const ui = await runDocsInit(h, "http://10.1.2.3:8080");
      expect(ui).toEqual({ url: "/api/openapi.json" });
    });

    test("the reference page's links and Swagger UI's document carry PUBLIC_URL's path; the license link has its anchor", async () => {
      const html = await (await h.get("/docs")).text();
      const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
      expect(links.length).toBe(8);
      for (const link of links) expect(link.startsWith("/api/")).toBe(true);
      expect(await (await h.get("/docs/init.js")).text()).toContain('url: "/api/openapi.json"');
      const license = ((await (await h.get("/openapi.json")).json()) as { info: { license: { url: string } } }).info.license.url;
      expect(license).toBe("https://apskaita.example.lt/api/docs#license");
      expect(html).toContain('id="license"');
    });
  });
});
