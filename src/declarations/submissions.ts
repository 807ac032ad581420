// declarations/submissions/*: what was filed with the tax authority (issue 24). `create` computes the declaration
// as its own operation would now and stores it as it is filed: the snapshot (FR0600's boxes, FR0564's lines, i.SAF's
// counts), the files (FFData, every i.SAF part) with their SHA-256, the SHA-256 of the snapshot's JSON text (which
// names each file's), and the key. The tables refuse every update and delete (migration 20261127001000); `mark`
// appends a status step, which the database checks against the one before it.
import { createHash } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { plainQuery } from "../db/prepared.js";
import { violatedConstraint } from "../db/transaction.js";
import { emitEvent } from "../events/index.js";
import { conflict, notFound, unprocessable, validationError } from "../shared/errors.js";
import { type ListRequest, type ListSpec, runList } from "../shared/list-engine.js";
import { buildIsaf, type IsafSizes } from "./isaf.js";
import type { IsafDataType } from "./lt/isaf.js";
import { buildFr0564, buildFr0600 } from "./returns.js";
import { vilniusNow } from "./snapshot.js";
import type { XmlFile } from "./xml-writer.js";

type Submission = components["schemas"]["Declarations.Submission"];
type Snapshot = Submission["snapshot"];
type DeclarationKind = Submission["declaration"];

export interface SubmissionCreate {
  declaration: DeclarationKind;
  period: string;
  dataType?: IsafDataType;
}

interface FileToStore {
  partNumber: number;
  fileName: string;
  file: XmlFile;
}

const EMPTY_SNAPSHOT: Snapshot = { boxes: null, ffdataUnavailableReason: null, lines: null, invoices: null, invoicesPerPart: null };

const submissionNotFound = (id: string) => notFound("The submission", "declaration_submission.not_found", { id });

/** Computes what is filed: the snapshot and its files. */
async function compute(trx: Db, companyId: string, body: SubmissionCreate, version: number, keyId: string, sizes: IsafSizes) {
  const files: FileToStore[] = [];
  let snapshot: Snapshot = EMPTY_SNAPSHOT;
  if (body.declaration === "lt.fr0600") {
    const built = await buildFr0600(trx, companyId, body.period, 0, { correction: version > 1, createdBy: keyId });
    snapshot = {
      ...EMPTY_SNAPSHOT,
      boxes: built.result.boxes.map((b) => ({ box: b.box, amount: b.amount, exact: b.exact })),
      ffdataUnavailableReason: built.result.ffdataUnavailableReason,
    };
    if (built.file) files.push({ partNumber: 1, ...built.file });
  } else if (body.declaration === "lt.fr0564") {
    const built = await buildFr0564(trx, companyId, body.period, { correction: version > 1, createdBy: keyId });
    snapshot = { ...EMPTY_SNAPSHOT, lines: built.result.lines };
    if (built.file) files.push({ partNumber: 1, ...built.file });
  } else {
    const { parts } = await buildIsaf(trx, companyId, { period: body.period, dataType: body.dataType! }, sizes);
    const invoices = parts.reduce((s, p) => ({ sales: s.sales + p.invoices.sales, purchases: s.purchases + p.invoices.purchases }), { sales: 0, purchases: 0 });
    snapshot = { ...EMPTY_SNAPSHOT, invoices, invoicesPerPart: sizes.partSize };
    for (const p of parts) files.push({ partNumber: p.partNumber, fileName: p.fileName, file: p.file });
  }
  return { snapshot, files };
}

export async function createSubmission(trx: Db, companyId: string, keyId: string, body: SubmissionCreate, sizes: IsafSizes): Promise<Submission> {
  if ((body.declaration === "lt.isaf") !== (body.dataType !== undefined)) {
    throw validationError({ dataType: [body.declaration === "lt.isaf" ? "required for lt.isaf" : `not sent for ${body.declaration}`] });
  }
  const { date } = await vilniusNow(trx);
  if (body.period >= date.slice(0, 7)) {
    throw unprocessable(
      `${body.period} has not ended (today is ${date} in Vilnius): a declaration is filed for a month that has ended.`,
      "declaration.period_not_ended",
      {
        period: body.period,
        today: date,
      },
    );
  }
  const dataType = body.dataType ?? "";
  // One filing of a declaration and month at a time: the next version is counted under this lock.
  await trx.raw("select pg_advisory_xact_lock(hashtext(?))", [`declaration_submission:${companyId}:${body.declaration}:${body.period}:${dataType}`]);
  const [{ version }] = await plainQuery<{ version: number }>(
    trx,
    `select coalesce(max(version), 0)::int + 1 as version from declaration_submissions
      where company_id = $1 and declaration = $2 and period = $3 and data_type = $4`,
    [companyId, body.declaration, body.period, dataType],
  );
  const { snapshot, files } = await compute(trx, companyId, body, version, keyId, sizes);
  const stored = {
    declaration: body.declaration,
    period: body.period,
    dataType: body.dataType ?? null,
    version,
    ...snapshot,
    files: files.map((f) => ({ partNumber: f.partNumber, fileName: f.fileName, size: f.file.bytes, sha256: f.file.sha256 })),
  };
  const text = JSON.stringify(stored);
  const sha256 = createHash("sha256").update(text).digest("hex");
  const [row] = await plainQuery<{ id: string }>(
    trx,
    `insert into declaration_submissions (company_id, declaration, period, data_type, version, snapshot, sha256, created_by_key_id)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8) returning id`,
    [companyId, body.declaration, body.period, dataType, version, text, sha256, keyId],
  );
  for (const f of files) {
    await plainQuery(
      trx,
      `insert into declaration_submission_files (company_id, submission_id, part_number, file_name, content_type, content, sha256)
       values ($1, $2, $3, $4, 'application/xml', $5, $6)`,
      [companyId, row.id, f.partNumber, f.fileName, f.file.toBuffer(), f.file.sha256],
    );
  }
  await plainQuery(trx, `insert into declaration_submission_statuses (company_id, submission_id, seq, status, key_id) values ($1, $2, 1, 'created', $3)`, [
    companyId,
    row.id,
    keyId,
  ]);
  const submission = (await loadSubmissions(trx, companyId, [row.id], false))[0];
  await emitEvent(trx, companyId, "declaration.submitted", submission);
  return submission;
}

interface SubmissionRow extends Record<string, unknown> {
  id: string;
  declaration: DeclarationKind;
  period: string;
  data_type: string;
  version: number;
  snapshot: Partial<Snapshot>;
  sha256: string;
  created_by_key_id: string | null;
  created_at: string | Date;
  history: { status: Submission["status"]; registrationNumber: string | null; submittedOn: string | null; keyId: string | null; at: string }[];
  files: { partNumber: number; fileName: string; contentType: "application/xml"; size: number; sha256: string; contentBase64: string | null }[];
}

/** Submissions by id, in the order of `ids`, with their history and files (content only with `withContent`). */
async function loadSubmissions(db: Db, companyId: string, ids: string[], withContent: boolean): Promise<Submission[]> {
  if (!ids.length) return [];
  const rows = await plainQuery<SubmissionRow>(
    db,
    `select s.id, s.declaration, s.period, s.data_type, s.version, s.snapshot, s.sha256, s.created_by_key_id, s.created_at,
            (select coalesce(jsonb_agg(jsonb_build_object('status', t.status, 'registrationNumber', t.registration_number,
                      'submittedOn', t.submitted_on, 'keyId', t.key_id, 'at', t.created_at) order by t.seq), '[]')
               from declaration_submission_statuses t where t.company_id = s.company_id and t.submission_id = s.id) as history,
            (select coalesce(jsonb_agg(jsonb_build_object('partNumber', f.part_number, 'fileName', f.file_name, 'contentType', f.content_type,
                      'size', octet_length(f.content), 'sha256', f.sha256,
                      'contentBase64', case when $3 then translate(encode(f.content, 'base64'), E'\\n', '') end) order by f.part_number), '[]')
               from declaration_submission_files f where f.company_id = s.company_id and f.submission_id = s.id) as files
       from declaration_submissions s where s.company_id = $1 and s.id = any($2::uuid[])`,
    [companyId, ids, withContent],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.filter((id) => byId.has(id)).map((id) => toApi(byId.get(id)!));
}

function toApi(r: SubmissionRow): Submission {
  const history = r.history.map((h) => ({
    status: h.status,
    registrationNumber: h.registrationNumber ?? null,
    submittedOn: h.submittedOn ?? null,
    keyId: h.keyId ?? null,
    at: new Date(h.at).toISOString(),
  }));
  const last = history[history.length - 1];
  const submitted = [...history].reverse().find((h) => h.status === "submitted");
  const snap = r.snapshot;
  return {
    id: r.id,
    declaration: r.declaration,
    period: r.period,
    dataType: (r.data_type || null) as Submission["dataType"],
    version: r.version,
    correction: r.version > 1,
    sha256: r.sha256,
    createdByKeyId: r.created_by_key_id,
    createdAt: new Date(r.created_at).toISOString(),
    status: last.status,
    registrationNumber: submitted?.registrationNumber ?? null,
    submittedOn: submitted?.submittedOn ?? null,
    statusHistory: history,
    snapshot: {
      boxes: snap.boxes ?? null,
      ffdataUnavailableReason: snap.ffdataUnavailableReason ?? null,
      lines: snap.lines ?? null,
      invoices: snap.invoices ?? null,
      invoicesPerPart: snap.invoicesPerPart ?? null,
    },
    files: r.files.map((f) => ({
      partNumber: f.partNumber,
      fileName: f.fileName,
      contentType: f.contentType,
      size: f.size,
      sha256: f.sha256,
      contentBase64: f.contentBase64 ?? null,
    })),
  };
}

export async function getSubmission(db: Db, companyId: string, id: string, withContent: boolean): Promise<Submission> {
  const [submission] = await loadSubmissions(db, companyId, [id], withContent);
  if (!submission) throw submissionNotFound(id);
  return submission;
}

const STATUS = `(select t.status from declaration_submission_statuses t
                  where t.company_id = declaration_submissions.company_id and t.submission_id = declaration_submissions.id
                  order by t.seq desc limit 1)`;

const listSpec: ListSpec = {
  fields: {
    id: { column: "id", type: "uuid", sort: false },
    declaration: { column: "declaration", type: "string" },
    period: { column: "period", type: "string" },
    dataType: { column: "nullif(data_type, '')", type: "string", sort: false },
    version: { column: "version", type: "integer" },
    status: { column: STATUS, type: "string" },
    createdAt: { column: "created_at", type: "timestamp" },
  },
  tieBreaker: "id",
  defaultSort: [{ field: "createdAt", dir: "desc" }],
};

export async function listSubmissions(db: Db, companyId: string, request: ListRequest) {
  const result = await runList<{ id: string }>(db, () => db("declaration_submissions").where("company_id", companyId), listSpec, request, ["id"]);
  return {
    ...result,
    rows: await loadSubmissions(
      db,
      companyId,
      result.rows.map((r) => r.id),
      false,
    ),
  };
}

export interface SubmissionMark {
  id: string;
  status: "submitted" | "accepted" | "rejected";
  registrationNumber?: string;
  submittedOn?: string;
}

/** The steps the status machine allows (the database's check says the same). */
const NEXT: Record<string, string[]> = { created: ["submitted"], submitted: ["accepted", "rejected"], accepted: [], rejected: [] };

export async function markSubmission(trx: Db, companyId: string, keyId: string, body: SubmissionMark): Promise<Submission> {
  const withNumber = body.registrationNumber !== undefined || body.submittedOn !== undefined;
  if (body.status === "submitted" && (body.registrationNumber === undefined || body.submittedOn === undefined)) {
    const fieldErrors: Record<string, string[]> = {};
    if (body.registrationNumber === undefined) fieldErrors.registrationNumber = ["required with status submitted"];
    if (body.submittedOn === undefined) fieldErrors.submittedOn = ["required with status submitted"];
    throw validationError(fieldErrors);
  }
  if (body.status !== "submitted" && withNumber) {
    const fieldErrors: Record<string, string[]> = {};
    if (body.registrationNumber !== undefined) fieldErrors.registrationNumber = [`only with status submitted, not ${body.status}`];
    if (body.submittedOn !== undefined) fieldErrors.submittedOn = [`only with status submitted, not ${body.status}`];
    throw validationError(fieldErrors);
  }
  const [row] = await plainQuery<{ id: string }>(trx, "select id from declaration_submissions where company_id = $1 and id = $2 for update", [
    companyId,
    body.id,
  ]);
  if (!row) throw submissionNotFound(body.id);
  const [last] = await plainQuery<{ seq: number; status: string }>(
    trx,
    "select seq, status from declaration_submission_statuses where company_id = $1 and submission_id = $2 order by seq desc limit 1",
    [companyId, body.id],
  );
  const refused = () =>
    conflict(
      `The submission is ${last.status}; it cannot become ${body.status} (created → submitted → accepted or rejected).`,
      "declaration_submission.status_invalid",
      {
        status: last.status,
        requested: body.status,
      },
    );
  if (!NEXT[last.status].includes(body.status)) throw refused();
  try {
    await plainQuery(
      trx,
      `insert into declaration_submission_statuses (company_id, submission_id, seq, status, previous_status, registration_number, submitted_on, key_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [companyId, body.id, last.seq + 1, body.status, last.status, body.registrationNumber ?? null, body.submittedOn ?? null, keyId],
    );
  } catch (error) {
    if (violatedConstraint(error)) throw refused();
    throw error;
  }
  return getSubmission(trx, companyId, body.id, false);
}
