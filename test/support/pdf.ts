// Reading a PDF the product wrote, as a buyer's viewer would: its text by pdf.js (pdfjs-dist, pinned), with each
// text item's box on the page, and page 1 rendered to PNG by poppler's pdftoppm (Debian's poppler-utils, installed
// by .ci/run) — one home for the suites that read documents.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

async function open(bytes: Buffer) {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
}

/** The text of every page, items joined by a space, pages by a newline. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await open(bytes);
  let text = "";
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    text += `${(content.items as TextItem[]).map((i) => i.str ?? "").join(" ")}\n`;
  }
  return text;
}

export interface TextBox {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The boxes of a page's non-blank text items, in PDF points (origin bottom left). */
export async function textBoxes(bytes: Buffer, page = 1): Promise<TextBox[]> {
  const doc = await open(bytes);
  const content = await (await doc.getPage(page)).getTextContent();
  return (content.items as TextItem[])
    .filter((i) => typeof i.str === "string" && i.str.trim() !== "")
    .map((i) => ({ text: i.str, x: i.transform[4], y: i.transform[5], width: i.width, height: i.height || Math.abs(i.transform[3]) }));
}

/** Pairs of boxes that overlap by more than `tolerance` points both ways (text printed over text). */
export function overlapping(boxes: TextBox[], tolerance = 0.5): [TextBox, TextBox][] {
  const pairs: [TextBox, TextBox][] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      const dx = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const dy = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (dx > tolerance && dy > tolerance) pairs.push([a, b]);
    }
  }
  return pairs;
}

/** Page 1 as a PNG (pdftoppm at `dpi`): its bytes and size in pixels. */
export function renderFirstPage(bytes: Buffer, dpi = 72): { png: Buffer; width: number; height: number } {
  const dir = mkdtempSync(join(tmpdir(), "pdf-"));
  try {
    writeFileSync(join(dir, "doc.pdf"), bytes);
    const run = spawnSync("pdftoppm", ["-png", "-r", String(dpi), "-f", "1", "-l", "1", "-singlefile", join(dir, "doc.pdf"), join(dir, "page")], {
      encoding: "utf8",
    });
    if (run.error || run.status !== 0) throw new Error(`pdftoppm failed (install Debian's poppler-utils): ${run.error?.message ?? run.stderr}`);
    const png = readFileSync(join(dir, "page.png"));
    return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
