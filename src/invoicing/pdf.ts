// A document as an A4 PDF (pdfkit). The text is set in DejaVu Sans, embedded in the file (the npm package
// dejavu-fonts-ttf), so every Lithuanian letter — ą č ę ė į š ų ū ž and capitals — renders in any viewer; the
// PDF's own standard fonts cover only Latin-1. Labels in the partner's document language (issue 25): Lithuanian,
// English, or Lithuanian with English beside it; every label is written once as "lietuviškai / in English" and the
// language picks its side. Numbers in Lithuanian format on Lithuanian documents ("1 666,66", "21 %"), in English
// format on English ones ("1,666.66", "21%"); the total in words below the totals (./amount-in-words.ts).
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import { Decimal } from "../shared/decimal.js";
import { amountInWords } from "./amount-in-words.js";
import { formatEnNumber, formatLtAmount, formatLtNumber } from "./lt-format.js";

const require = createRequire(import.meta.url);
const FONT_DIR = require.resolve("dejavu-fonts-ttf/package.json").replace(/package\.json$/, "ttf/");
const REGULAR = `${FONT_DIR}DejaVuSans.ttf`;
const BOLD = `${FONT_DIR}DejaVuSans-Bold.ttf`;

export interface PdfParty {
  name: string;
  registrationCode: string | null;
  vatCode: string | null;
  address: string | null;
  iban?: string | null;
}

export type DocumentLanguage = "lt" | "en" | "lt-en";

/** A label written "lietuviškai / in English" in the document's language. */
export function inLanguage(text: string, language: DocumentLanguage): string {
  if (language === "lt-en") return text;
  const at = text.indexOf(" / ");
  if (at < 0) return text;
  return language === "lt" ? text.slice(0, at) : text.slice(at + 3);
}

export interface PdfDocument {
  /** The labels' language (default `lt-en`). */
  language?: DocumentLanguage;
  title: string;
  subtitle?: string;
  number: string;
  draft: boolean;
  issueDate: string;
  /** The tax point: the day of the supply. */
  supplyDate: string;
  dueDate: string;
  currency: string;
  seller: PdfParty;
  buyer: PdfParty;
  lines: { description: string; quantity: string; unit: string; unitPrice: string; discountPercent: string; vatRatePercent: string; netAmount: string }[];
  breakdown: { vatRatePercent: string; vatClassifier: string; taxableAmount: string; vatAmount: string }[];
  netTotal: string;
  vatTotal: string;
  grossTotal: string;
  notes: string | null;
  /** Legal wording printed under the totals (the article a 0% or reverse-charge supply rests on), in the document's language. */
  legalNotes?: string[];
  /** A document without VAT (a seller that is not a VAT payer): no VAT column, breakdown or VAT total. */
  withoutVat?: boolean;
  /** A document in another currency: its VAT in EUR as posted, at the document's rate (units per 1 EUR) of `date`. */
  vatInEur?: { amount: string; rate: string; date: string };
  /** Who issued it ("Sąskaitą išrašė / Issued by"). */
  issuer?: { name: string; position?: string | null } | null;
  /** Words for a breakdown row instead of "apmokestinama / taxable", by classifier (a 0 %, exempt or reverse-charge supply). */
  breakdownWords?: Record<string, string>;
  footer?: string;
}

export function renderPdf(doc: PdfDocument): Promise<Buffer> {
  const pdf = new PDFDocument({ size: "A4", margin: 40, info: { Title: `${doc.title} ${doc.number}`, Producer: "Accounting API" } });
  const chunks: Buffer[] = [];
  pdf.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
  pdf.registerFont("regular", REGULAR);
  pdf.registerFont("bold", BOLD);
  const left = 40;
  const width = pdf.page.width - 80;
  const language = doc.language ?? "lt-en";
  const L = (text: string) => inLanguage(text, language);
  const lithuanian = language !== "en";
  const money = (v: string) => (lithuanian ? formatLtAmount(v) : formatEnNumber(v, 2));
  const number = (v: string, minDecimals = 0) => (lithuanian ? formatLtNumber(v, minDecimals) : formatEnNumber(v, minDecimals));
  const rate = (v: string) => (lithuanian ? `${number(v)}\u00a0%` : `${number(v)}%`);

  pdf.font("bold").fontSize(16).text(L(doc.title), left, 40, { width, align: "center" });
  if (doc.subtitle) pdf.font("regular").fontSize(9).text(L(doc.subtitle), { width, align: "center" });
  pdf
    .font("regular")
    .fontSize(11)
    .text(`${L("Serija ir Nr. / No.")}: ${doc.number}`, { width, align: "center" });
  if (doc.draft) pdf.font("bold").fontSize(11).fillColor("#b00000").text(L("JUODRAŠTIS / DRAFT"), { width, align: "center" }).fillColor("black");
  pdf.moveDown(0.5);
  pdf
    .font("regular")
    .fontSize(9)
    .text(`${L("Išrašymo data / Issue date")}: ${doc.issueDate}    ${L("Tiekimo data / Supply date")}: ${doc.supplyDate}`, { width, align: "center" });
  pdf
    .font("regular")
    .fontSize(9)
    .text(`${L("Apmokėti iki / Due date")}: ${doc.dueDate}    ${L("Valiuta / Currency")}: ${doc.currency}`, { width, align: "center" });

  const partyTop = pdf.y + 12;
  const party = (label: string, p: PdfParty, x: number) => {
    pdf
      .font("bold")
      .fontSize(10)
      .text(L(label), x, partyTop, { width: width / 2 - 10 });
    pdf.font("regular").fontSize(9);
    pdf.text(p.name, { width: width / 2 - 10 });
    if (p.registrationCode) pdf.text(`${L("Įmonės kodas / Company code")}: ${p.registrationCode}`, { width: width / 2 - 10 });
    if (p.vatCode) pdf.text(`${L("PVM mokėtojo kodas / VAT code")}: ${p.vatCode}`, { width: width / 2 - 10 });
    if (p.address) pdf.text(`${L("Adresas / Address")}: ${p.address}`, { width: width / 2 - 10 });
    if (p.iban) pdf.text(`${L("Sąskaita / IBAN")}: ${p.iban}`, { width: width / 2 - 10 });
    return pdf.y;
  };
  const sellerBottom = party("Pardavėjas / Seller", doc.seller, left);
  const buyerBottom = party("Pirkėjas / Buyer", doc.buyer, left + width / 2 + 10);

  // Lines (without VAT: no VAT column, its width to the description).
  const vatColumn = doc.withoutVat ? [] : [{ label: "PVM / VAT", width: 36, align: "right" as const }];
  const columns = [
    { label: "Nr.", width: 24, align: "left" as const },
    { label: "Pavadinimas / Description", width: doc.withoutVat ? 221 : 185, align: "left" as const },
    { label: "Kiekis / Qty", width: 52, align: "right" as const },
    { label: "Mato vnt. / Unit", width: 44, align: "right" as const },
    { label: "Kaina / Price", width: 62, align: "right" as const },
    { label: "Nuol. % / Disc. %", width: 36, align: "right" as const },
    ...vatColumn,
    { label: doc.withoutVat ? "Suma / Amount" : "Suma / Net", width: 76, align: "right" as const },
  ];
  let y = Math.max(sellerBottom, buyerBottom) + 16;
  const row = (cells: string[], font: "regular" | "bold") => {
    pdf.font(font).fontSize(8);
    const heights = cells.map((c, i) => pdf.heightOfString(c, { width: columns[i].width - 4 }));
    const height = Math.max(...heights) + 4;
    if (y + height > pdf.page.height - 60) {
      pdf.addPage();
      y = 40;
    }
    let x = left;
    cells.forEach((c, i) => {
      pdf.text(c, x + 2, y + 2, { width: columns[i].width - 4, align: columns[i].align });
      x += columns[i].width;
    });
    y += height;
    pdf
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.3)
      .stroke();
  };
  row(
    columns.map((c) => L(c.label)),
    "bold",
  );
  doc.lines.forEach((l, i) =>
    row(
      [
        String(i + 1),
        l.description,
        number(l.quantity),
        l.unit,
        number(l.unitPrice, 2),
        new Decimal(l.discountPercent).isZero() ? "" : rate(l.discountPercent),
        ...(doc.withoutVat ? [] : [rate(l.vatRatePercent)]),
        money(l.netAmount),
      ],
      "regular",
    ),
  );

  // VAT breakdown and totals.
  y += 10;
  if (!doc.withoutVat) {
    pdf.font("bold").fontSize(9).text(L("PVM / VAT"), left, y);
    y = pdf.y + 2;
    pdf.font("regular").fontSize(8);
    for (const b of doc.breakdown) {
      const words = L(doc.breakdownWords?.[b.vatClassifier] ?? "apmokestinama / taxable");
      pdf.text(`${rate(b.vatRatePercent)}:  ${words} ${money(b.taxableAmount)}, ${L("PVM / VAT")} ${money(b.vatAmount)}`, left, y);
      y = pdf.y + 1;
    }
  }
  const totalsX = left + width - 220;
  y += 6;
  const total = (label: string, value: string, font: "regular" | "bold") => {
    pdf.font(font).fontSize(10).text(L(label), totalsX, y, { width: 140 });
    pdf.text(`${money(value)} ${doc.currency}`, totalsX + 120, y, { width: 100, align: "right" });
    y = pdf.y + 2;
  };
  if (!doc.withoutVat) {
    total("Suma be PVM / Net", doc.netTotal, "regular");
    total("PVM / VAT", doc.vatTotal, "regular");
  }
  total("Iš viso / Total", doc.grossTotal, "bold");
  if (doc.vatInEur) {
    const { amount, rate: fx, date } = doc.vatInEur;
    pdf
      .font("regular")
      .fontSize(9)
      .text(`${L("PVM eurais / VAT in EUR")}: ${money(amount)} EUR (${L("kursas / rate")} ${number(fx)} ${doc.currency} = 1 EUR, ${date})`, left, y + 4, {
        width,
      });
    y = pdf.y;
  }
  const words = (lang: "lt" | "en") => amountInWords(doc.grossTotal, doc.currency, lang);
  const inWords = language === "lt-en" ? `${words("lt")} / ${words("en")}` : words(language);
  pdf
    .font("regular")
    .fontSize(9)
    .text(`${L("Suma žodžiais / Amount in words")}: ${inWords}`, left, y + 4, { width });
  y = pdf.y;
  for (const note of doc.legalNotes ?? []) {
    pdf
      .font("regular")
      .fontSize(9)
      .text(note, left, y + 6, { width });
    y = pdf.y;
  }
  if (doc.issuer) {
    const who = [doc.issuer.name, doc.issuer.position].filter(Boolean).join(", ");
    pdf
      .font("regular")
      .fontSize(9)
      .text(`${L("Sąskaitą išrašė / Issued by")}: ${who}`, left, y + 10, { width });
    y = pdf.y;
  }
  if (doc.notes) {
    pdf
      .font("regular")
      .fontSize(9)
      .text(`${L("Pastabos / Notes")}: ${doc.notes}`, left, y + 10, { width });
  }
  if (doc.footer)
    pdf
      .font("regular")
      .fontSize(7)
      .text(doc.footer, left, pdf.page.height - 50, { width, align: "center" });
  pdf.end();
  return done;
}

/** An address object as one line: street, postal code and city, country. */
export function addressLine(stored: unknown): string | null {
  if (!stored) return null;
  // An address column (companies, partners, snapshots) as the contract's Address writes it.
  const address = stored as Record<string, string | null | undefined>;
  const cityLine = [address.postalCode, address.city].filter(Boolean).join(" ");
  const parts = [address.line1, address.line2, cityLine, address.countryCode].filter((p) => p);
  return parts.length ? parts.join(", ") : null;
}
