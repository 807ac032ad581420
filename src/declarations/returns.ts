// declarations/lt/fr0600/compute and declarations/lt/fr0564/generate: the returns of a month, read in one snapshot
// of the books, with the FFData the portal imports.
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { type Declarant, loadDeclarant, SOFTWARE, vatAccounts } from "./declarant.js";
import { fr0564FfData, fr0564Pages } from "./lt/ffdata.js";
import { computeFr0564 } from "./lt/fr0564.js";
import { computeBoxes, fr0600File } from "./lt/fr0600.js";
import type { XmlFile } from "./xml-writer.js";
import { inOneSnapshot, vilniusNow } from "./snapshot.js";

type Fr0600Return = components["schemas"]["Declarations.Fr0600Return"];
type Fr0564Report = components["schemas"]["Declarations.Fr0564Report"];

export interface ReturnOptions {
  /** FR0600 box 8: a correction (tikslinimas). */
  correction?: boolean;
  /** FFData CreatedByLogin: who made the file (the API key's id). */
  createdBy: string;
}

export interface Built<T> {
  result: T;
  declarant: Declarant;
  file: { file: XmlFile; fileName: string } | null;
}

const fileOf = (f: { file: XmlFile; fileName: string }) => ({
  fileName: f.fileName,
  contentType: "application/xml" as const,
  contentBase64: f.file.toBase64(),
  sha256: f.file.sha256,
});

export async function buildFr0600(db: Db, companyId: string, period: string, documentsPerBox: number, o: ReturnOptions): Promise<Built<Fr0600Return>> {
  return inOneSnapshot(db, async (trx) => {
    const declarant = await loadDeclarant(trx, companyId);
    const { boxes, reconciliation } = await computeBoxes(trx, declarant, period, await vatAccounts(trx, companyId), { documentsPerBox });
    const { date } = await vilniusNow(trx);
    const made = fr0600File(declarant, period, boxes, { correction: o.correction ?? false, createdOn: date, createdBy: o.createdBy, app: SOFTWARE.name });
    const file = "reason" in made ? null : made;
    return {
      declarant,
      file,
      result: {
        period,
        formVersion: "02",
        boxes,
        reconciliation,
        ffdata: file ? fileOf(file) : null,
        ffdataUnavailableReason: "reason" in made ? made.reason : null,
      },
    };
  });
}

export async function computeFr0600(db: Db, companyId: string, body: { period: string; documentsPerBox?: number }, keyId: string): Promise<Fr0600Return> {
  return (await buildFr0600(db, companyId, body.period, body.documentsPerBox ?? 100, { createdBy: keyId })).result;
}

export async function buildFr0564(db: Db, companyId: string, period: string, o: ReturnOptions): Promise<Built<Fr0564Report>> {
  return inOneSnapshot(db, async (trx) => {
    const declarant = await loadDeclarant(trx, companyId);
    const lines = await computeFr0564(trx, declarant, period, await vatAccounts(trx, companyId));
    const { date } = await vilniusNow(trx);
    const sum = (pick: (l: (typeof lines)[number]) => string) => lines.reduce((s, l) => s + BigInt(pick(l)), 0n).toString();
    const file = fr0564FfData(
      { createdByApp: SOFTWARE.name, createdByLogin: o.createdBy, createdOn: date },
      {
        name: declarant.name,
        code: declarant.code,
        vatCodeDigits: declarant.vatCode.replace(/^LT/, ""),
        contact: declarant.phone ?? declarant.email ?? "",
        filledOn: date,
        year: period.slice(0, 4),
        month: period.slice(5, 7),
      },
      lines,
    );
    const named = { file, fileName: `FR0564_${declarant.code}_${period}.ffdata` };
    return {
      declarant,
      file: named,
      result: {
        period,
        lines,
        totals: { goods: sum((l) => l.goods), triangular: sum((l) => l.triangular), services: sum((l) => l.services) },
        pages: fr0564Pages(lines.length),
        ffdata: fileOf(named),
      },
    };
  });
}

export async function generateFr0564(db: Db, companyId: string, period: string, keyId: string): Promise<Fr0564Report> {
  return (await buildFr0564(db, companyId, period, { createdBy: keyId })).result;
}
