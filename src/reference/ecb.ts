// Reading the ECB euro foreign exchange reference rates (https://www.ecb.europa.eu/stats/eurofxref/):
//   gesmes:Envelope > Cube > Cube[time] > Cube[currency, rate]   (units of currency per 1 EUR)
// Three files share one folder: eurofxref-daily.xml (latest day), eurofxref-hist-90d.xml, eurofxref-hist.xml.
import { XMLParser } from "fast-xml-parser";
import { isIsoDate } from "../shared/dates.js";
import { Decimal } from "../shared/decimal.js";
import { ApiError } from "../shared/errors.js";

export const DEFAULT_ECB_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml";
const FETCH_TIMEOUT_MS = 20_000;
const RATE = /^[0-9]{1,10}(\.[0-9]{1,8})?$/;

export interface EcbDay {
  date: string;
  rates: { currency: string; rate: string }[];
}

/** A Cube element as the parser gives it (any of it may be missing or of another type in a hostile file). */
interface Cube {
  time?: unknown;
  currency?: unknown;
  rate?: unknown;
  /** Always an array (the parser's isArray). */
  Cube?: Cube[];
}

export type EcbFile = "daily" | "hist-90d" | "hist";

/** The address of one of the three files, from EXCHANGE_RATES_URL (the folder, or any `.xml` file in it). */
export function ecbFileUrl(source: string, file: EcbFile): string {
  const url = new URL(source);
  if (url.pathname.endsWith(".xml")) url.pathname = url.pathname.slice(0, url.pathname.lastIndexOf("/") + 1);
  else if (!url.pathname.endsWith("/")) url.pathname += "/";
  url.search = "";
  return new URL(`eurofxref-${file}.xml`, url).toString();
}

const unreachable = (detail: string, params: Record<string, unknown>) =>
  new ApiError("unprocessable", `The exchange rate source could not be read: ${detail}. Nothing was imported.`, {
    key: "exchange_rates.source_unreachable",
    params,
  });

const malformed = (detail: string) =>
  new ApiError("unprocessable", `The exchange rate source did not answer in the ECB format: ${detail}. Nothing was imported.`, {
    key: "exchange_rates.source_malformed",
  });

/** Parses an ECB rates document into days, newest first. Throws `exchange_rates.source_malformed`. */
export function parseEcbXml(xml: string): EcbDay[] {
  let doc: { "gesmes:Envelope"?: { Cube?: Cube[] } };
  try {
    doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", parseAttributeValue: false, isArray: (name) => name === "Cube" }).parse(xml, true);
  } catch (error) {
    throw malformed(`not XML (${(error as Error).message.split("\n")[0]})`);
  }
  const envelope = doc["gesmes:Envelope"];
  const outer = envelope?.Cube?.[0];
  if (!envelope || !outer) throw malformed("no gesmes:Envelope with a Cube");
  const days: EcbDay[] = [];
  for (const dayCube of outer.Cube ?? []) {
    const date = dayCube.time;
    if (typeof date !== "string" || !isIsoDate(date)) throw malformed(`a Cube has time=${JSON.stringify(date)}`);
    const rates = (dayCube.Cube ?? []).map((c) => {
      if (typeof c.currency !== "string" || !/^[A-Z]{3}$/.test(c.currency)) throw malformed(`a rate on ${date} has currency=${JSON.stringify(c.currency)}`);
      if (typeof c.rate !== "string" || !RATE.test(c.rate) || new Decimal(c.rate).isZero())
        throw malformed(`${c.currency} on ${date} has rate=${JSON.stringify(c.rate)}`);
      return { currency: c.currency, rate: c.rate };
    });
    if (rates.length === 0) throw malformed(`no rates on ${date}`);
    days.push({ date, rates });
  }
  if (days.length === 0) throw malformed("no days");
  return days.sort((a, b) => (a.date < b.date ? 1 : -1));
}

export async function fetchEcb(source: string, file: EcbFile): Promise<EcbDay[]> {
  const url = ecbFileUrl(source, file);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    throw unreachable((error as Error).name === "TimeoutError" ? "no answer in time" : "no connection", { file });
  }
  if (!response.ok) throw unreachable(`it answered HTTP ${response.status}`, { file, httpStatus: response.status });
  return parseEcbXml(await response.text());
}
