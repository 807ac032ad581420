// Scope rules (spec: "Authentication"): `*` covers everything; `<module>:write` also grants `<module>:read`.

export function grants(held: readonly string[], required: string): boolean {
  if (held.includes("*") || held.includes(required)) return true;
  const [module, access] = required.split(":");
  return access === "read" && held.includes(`${module}:write`);
}

/** True when every scope in `wanted` is granted by `held` (a key cannot hand out more than it has). */
export function grantsAll(held: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((scope) => (scope === "*" ? held.includes("*") : grants(held, scope)));
}
