// FFData, the XML the tax authority's EDS portal imports for a form (issue 24; layouts and sources in
// notes/research-declarations.md §1-2 and the README's "Lithuanian declarations").
//   FR0600 version 02: VMI's own blank template FR0600(2).ffdata (Apskaita5's copy): root FFData Version="1" with
//     CreatedByApp/CreatedByLogin/CreatedOn, Form FormDefId {DFDCC8EC-…}, DocumentPages "Visa forma" with one page,
//     one Page FR0600 with its 40 fields in the template's order; amounts whole euros without separators.
//   FR0564: the RoboLabs generator's layout (cross-checked with Microsoft Dynamics 365's): FormDefId {69D689D5-…},
//     page FR0564 with 9 lines, each further page FR0564P with 16; unused line slots written empty. Open points
//     (the form version, E6/E9-n of Dynamics' newer layout, the VAT code's prefix) are listed in the README.
import { XmlWriter, type XmlFile } from "../xml-writer.js";
import { FR0600_FORM } from "./fr0600-boxes.js";

export interface FfDataHeader {
  createdByApp: string;
  createdByLogin: string;
  /** `YYYY-MM-DD`. */
  createdOn: string;
}

/** Text for a field the form declares upper case with `cells` cells: upper-cased (Lithuanian rules), cut to fit. */
export const formText = (value: string, cells: number) => value.toLocaleUpperCase("lt-LT").slice(0, cells);

function begin(h: FfDataHeader, formDefId: string): XmlWriter {
  const w = new XmlWriter();
  w.open("FFData", { Version: "1", CreatedByApp: h.createdByApp, CreatedByLogin: h.createdByLogin, CreatedOn: h.createdOn }).newline();
  w.open("Form", { FormDefId: formDefId }).newline();
  return w;
}

/** FR0600 v02: `values` by field name (E11…, B_MM_…); every field of the template is written, empty when absent. */
export function fr0600FfData(h: FfDataHeader, values: Record<string, string>): XmlFile {
  const w = begin(h, FR0600_FORM.formDefId);
  w.open("DocumentPages")
    .open("Group", { Name: "Visa forma" })
    .open("ListPages")
    .text("ListPage", "FR0600")
    .close("ListPages")
    .close("Group")
    .close("DocumentPages")
    .newline();
  w.open("Pages", { Count: "1" })
    .open("Page", { PageDefName: "FR0600", PageNumber: "1" })
    .open("Fields", { Count: String(FR0600_FORM.fields.length) })
    .newline();
  for (const name of FR0600_FORM.fields) w.text("Field", values[name] ?? "", { Name: name }).newline();
  w.close("Fields").close("Page").close("Pages").newline();
  w.close("Form").newline().close("FFData").newline();
  return w.finish();
}

export const FR0564_FORM_DEF_ID = "{69D689D5-B191-4B58-A03C-ED0A85F76C3E}";
export const FR0564_FIRST_PAGE_LINES = 9;
export const FR0564_PAGE_LINES = 16;

export interface Fr0564FfLine {
  lineNumber: number;
  countryCode: string;
  vatCode: string;
  goods: string;
  triangular: string;
  services: string;
}

export interface Fr0564FfHeader {
  name: string;
  code: string;
  vatCodeDigits: string;
  contact: string;
  filledOn: string;
  year: string;
  month: string;
}

/** The number of pages FR0564 needs for `lines` lines: the first page 9, each FR0564P page 16. */
export const fr0564Pages = (lines: number) => 1 + Math.max(0, Math.ceil((lines - FR0564_FIRST_PAGE_LINES) / FR0564_PAGE_LINES));

/** FR0564 with its FR0564P pages; page totals of goods in E15, all pages' goods in E16, the extra pages in E17. */
export function fr0564FfData(h: FfDataHeader, head: Fr0564FfHeader, lines: Fr0564FfLine[]): XmlFile {
  const pages = fr0564Pages(lines.length);
  const pageLines = (p: number) =>
    p === 0
      ? lines.slice(0, FR0564_FIRST_PAGE_LINES)
      : lines.slice(FR0564_FIRST_PAGE_LINES + (p - 1) * FR0564_PAGE_LINES, FR0564_FIRST_PAGE_LINES + p * FR0564_PAGE_LINES);
  const sum = (ls: Fr0564FfLine[]) => ls.reduce((s, l) => s + BigInt(l.goods), 0n).toString();
  const w = begin(h, FR0564_FORM_DEF_ID);
  w.open("DocumentPages").open("Group", { Name: "Visa forma" }).open("ListPages").text("ListPage", "FR0564").close("ListPages");
  for (let p = 1; p < pages; p++) w.open("Group", { Name: "Priedas_FR0564P" }).open("ListPages").text("ListPage", "FR0564P").close("ListPages").close("Group");
  w.close("Group").close("DocumentPages").newline();
  w.open("Pages", { Count: String(pages) }).newline();
  for (let p = 0; p < pages; p++) {
    const slots = p === 0 ? FR0564_FIRST_PAGE_LINES : FR0564_PAGE_LINES;
    const these = pageLines(p);
    const fields: [string, string][] = [];
    if (p === 0) {
      fields.push(
        ["B_MM_Pavad", formText(head.name, 52)],
        ["B_MM_ID", head.code],
        ["B_MM_PVM", head.vatCodeDigits],
        ["B_MM_Tel", formText(head.contact, 30)],
        ["B_UzpildData", head.filledOn],
        ["B_ML_Metai", head.year],
        ["B_ML_Ketvirtis", ""],
        ["B_ML_Menuo", head.month],
      );
    }
    for (let i = 0; i < slots; i++) {
      const l = these[i];
      const n = i + 1;
      fields.push(
        [`E10-${n}`, l ? String(l.lineNumber) : ""],
        [`E11-${n}`, l?.countryCode ?? ""],
        [`E12-${n}`, l?.vatCode ?? ""],
        [`E13-${n}`, l?.goods ?? ""],
        [`E14-${n}`, l?.triangular ?? ""],
        [`E18-${n}`, l?.services ?? ""],
      );
    }
    fields.push(["E15", sum(these)]);
    if (p === 0) fields.push(["E16", sum(lines)], ["E17", String(pages - 1)], ["B_FormNr", ""], ["B_FormVerNr", ""], ["Text-20", ""]);
    else
      fields.push(
        ["LapoNr", String(p)],
        ["B_FormNr", ""],
        ["B_FormVerNr", ""],
        ["B_MM_ID", head.code],
        ["Text-LT", ""],
        ["B_MM_PVM", head.vatCodeDigits],
        ["B_ML_Ketvirtis", ""],
        ["B_ML_Menuo", head.month],
        ["B_ML_Metai", head.year],
      );
    w.open("Page", { PageDefName: p === 0 ? "FR0564" : "FR0564P", PageNumber: String(p + 1) })
      .open("Fields", { Count: String(fields.length) })
      .newline();
    for (const [name, value] of fields) w.text("Field", value, { Name: name }).newline();
    w.close("Fields").close("Page").newline();
  }
  w.close("Pages").newline().close("Form").newline().close("FFData").newline();
  return w.finish();
}
