// camt.053 files built by the tests, in either version: 001.02 names parties directly (Dbtr/Nm) and gives a detail's
// amount in AmtDtls/TxAmt, 001.08 names them through Pty (Dbtr/Pty/Nm), gives the detail's own Amt and CdtDbtInd, and
// nests the entry status in Sts/Cd.
import { Decimal } from "decimal.js";

/** An amount instructed in another currency (AmtDtls/InstdAmt): what a foreign payer sent, unsigned. */
export interface CamtInstructed {
  amount: string;
  currency: string;
}

export interface CamtDetail {
  amount?: string;
  instructed?: CamtInstructed;
  name?: string;
  iban?: string;
  ustrd?: string;
  /** A structured creditor reference (RF…). */
  rf?: string;
  e2e?: string;
  ref?: string;
}

export interface CamtEntry {
  /** Signed: positive credit, negative debit. */
  amount: string;
  currency?: string;
  bookingDate?: string;
  valueDate?: string;
  ref?: string;
  reversal?: boolean;
  status?: "BOOK" | "PDNG";
  details?: CamtDetail[];
}

export interface CamtStatementSpec {
  id?: string;
  iban: string;
  currency?: string;
  opening: string;
  /** Default: opening plus the booked entries. */
  closing?: string;
  openingCode?: "OPBD" | "PRCD";
  entries: CamtEntry[];
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const ind = (amount: Decimal) => (amount.isNegative() ? "DBIT" : "CRDT");

export function buildCamt(version: "02" | "08", statements: CamtStatementSpec[]): string {
  const v08 = version === "08";
  const party = (role: "Dbtr" | "Cdtr", d: CamtDetail) =>
    (d.name ? (v08 ? `<${role}><Pty><Nm>${esc(d.name)}</Nm></Pty></${role}>` : `<${role}><Nm>${esc(d.name)}</Nm></${role}>`) : "") +
    (d.iban ? `<${role}Acct><Id><IBAN>${d.iban}</IBAN></Id></${role}Acct>` : "");
  const detail = (entryAmount: Decimal, currency: string, d: CamtDetail) => {
    const amount = d.amount === undefined ? undefined : new Decimal(d.amount);
    const incoming = (amount ?? entryAmount).isPositive();
    const instructed = d.instructed ? `<InstdAmt><Amt Ccy="${d.instructed.currency}">${d.instructed.amount}</Amt></InstdAmt>` : "";
    const amt =
      amount === undefined
        ? instructed
          ? `<AmtDtls>${instructed}</AmtDtls>`
          : ""
        : v08
          ? `<Amt Ccy="${currency}">${amount.abs().toFixed(2)}</Amt><CdtDbtInd>${ind(amount)}</CdtDbtInd>${instructed ? `<AmtDtls>${instructed}</AmtDtls>` : ""}`
          : `<AmtDtls>${instructed}<TxAmt><Amt Ccy="${currency}">${amount.abs().toFixed(2)}</Amt></TxAmt></AmtDtls>`;
    return (
      `<TxDtls><Refs>${d.ref ? `<AcctSvcrRef>${d.ref}</AcctSvcrRef>` : ""}<EndToEndId>${d.e2e ?? "NOTPROVIDED"}</EndToEndId></Refs>${amt}` +
      `<RltdPties>${incoming ? party("Dbtr", d) : party("Cdtr", d)}</RltdPties>` +
      `<RmtInf>${d.ustrd ? `<Ustrd>${esc(d.ustrd)}</Ustrd>` : ""}${d.rf ? `<Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>${d.rf}</Ref></CdtrRefInf></Strd>` : ""}</RmtInf></TxDtls>`
    );
  };
  const entry = (e: CamtEntry, currency: string) => {
    const amount = new Decimal(e.amount);
    const status = e.status ?? "BOOK";
    return (
      `<Ntry>${e.ref ? `<NtryRef>${e.ref}</NtryRef>` : ""}<Amt Ccy="${e.currency ?? currency}">${amount.abs().toFixed(2)}</Amt><CdtDbtInd>${ind(amount)}</CdtDbtInd>` +
      `${e.reversal ? "<RvslInd>true</RvslInd>" : ""}<Sts>${v08 ? `<Cd>${status}</Cd>` : status}</Sts>` +
      `<BookgDt><Dt>${e.bookingDate ?? "2026-03-15"}</Dt></BookgDt><ValDt><Dt>${e.valueDate ?? e.bookingDate ?? "2026-03-15"}</Dt></ValDt>` +
      `${e.ref ? `<AcctSvcrRef>${e.ref}</AcctSvcrRef>` : ""}<BkTxCd><Domn><Cd>PMNT</Cd></Domn></BkTxCd>` +
      `<NtryDtls>${(e.details ?? [{}]).map((d) => detail(amount, e.currency ?? currency, d)).join("")}</NtryDtls></Ntry>`
    );
  };
  const balance = (code: string, amount: Decimal, currency: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount.abs().toFixed(2)}</Amt><CdtDbtInd>${ind(amount)}</CdtDbtInd><Dt><Dt>2026-03-31</Dt></Dt></Bal>`;
  const stmt = (s: CamtStatementSpec, i: number) => {
    const currency = s.currency ?? "EUR";
    const opening = new Decimal(s.opening);
    const booked = s.entries.filter((e) => (e.status ?? "BOOK") === "BOOK").reduce((sum, e) => sum.plus(e.amount), new Decimal(0));
    const closing = s.closing === undefined ? opening.plus(booked) : new Decimal(s.closing);
    return (
      `<Stmt><Id>${s.id ?? `STMT-${i + 1}`}</Id><ElctrncSeqNb>${i + 1}</ElctrncSeqNb><CreDtTm>2026-04-01T06:00:00</CreDtTm>` +
      `<FrToDt><FrDtTm>2026-03-01T00:00:00</FrDtTm><ToDtTm>2026-03-31T23:59:59</ToDtTm></FrToDt>` +
      `<Acct><Id><IBAN>${s.iban}</IBAN></Id><Ccy>${currency}</Ccy></Acct>` +
      balance(s.openingCode ?? "OPBD", opening, currency) +
      balance("CLBD", closing, currency) +
      s.entries.map((e) => entry(e, currency)).join("") +
      `</Stmt>`
    );
  };
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    `<BkToCstmrStmt><GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2026-04-01T06:00:00</CreDtTm></GrpHdr>${statements.map(stmt).join("")}</BkToCstmrStmt></Document>`
  );
}

export const base64 = (xml: string) => Buffer.from(xml, "utf8").toString("base64");
