/**
 * The parameters of one statement, added where the statement's text uses them: `p.uuid(companyId)` keeps the value
 * and returns its placeholder with the type PostgreSQL reads it as (`$3::uuid`), so the text names what it passes
 * instead of counting to `$41`. A value used in several places is added once and its placeholder kept in a constant.
 *
 *     const p = new SqlParams();
 *     const company = p.uuid(companyId);
 *     const rows = await preparedQuery(trx, "name", `select … where company_id = ${company} and id = ${p.uuid(id)}`, p.values);
 *
 * A statement run by name (preparedQuery) is one text per name on a connection (node-postgres refuses another), so
 * build its text the same way on every call: no parameter added on one call and not on another.
 */
export class SqlParams {
  /** The values, in the order of their placeholders ($1, $2, …). */
  readonly values: unknown[] = [];

  private add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }

  uuid = (value: string | null) => this.add(value, "uuid");
  text = (value: string | null) => this.add(value, "text");
  int = (value: number | null) => this.add(value, "int");
  /** A decimal as a string (never a JS number: see src/shared/decimal.ts). */
  numeric = (value: string | null) => this.add(value, "numeric");
  date = (value: string | null) => this.add(value, "date");
  boolean = (value: boolean | null) => this.add(value, "boolean");
  /** Any JSON value, sent as its text; null is SQL NULL. */
  jsonb = (value: unknown) => this.add(value === null || value === undefined ? null : JSON.stringify(value), "jsonb");
  /** A JSON value written as text already. */
  jsonbText = (text: string | null) => this.add(text, "jsonb");
  uuids = (values: readonly (string | null)[]) => this.add(values, "uuid[]");
  texts = (values: readonly (string | null)[]) => this.add(values, "text[]");
  numerics = (values: readonly (string | null)[]) => this.add(values, "numeric[]");
  booleans = (values: readonly boolean[]) => this.add(values, "boolean[]");
  /** A value whose type a table names (a SQL function's signature, read next to the values it lists). */
  typed = (value: unknown, type: string) => this.add(value, type);
}
