// Amounts in words (src/invoicing/amount-in-words.ts): the table is written by hand, each Lithuanian line checked
// against the agreement rules (vienas euras, du eurai, dešimt eurų, vienuolika eurų, dvidešimt vienas euras, šimtas
// eurų, vienas tūkstantis eurų) — never produced by the code under test.
import { describe, expect, test } from "@jest/globals";
import { amountInWords } from "../../src/invoicing/amount-in-words.js";

describe("Lithuanian", () => {
  test.each([
    ["0", "Nulis eurų 00 ct"],
    ["0.01", "Nulis eurų 01 ct"],
    ["1", "Vienas euras 00 ct"],
    ["2", "Du eurai 00 ct"],
    ["9.5", "Devyni eurai 50 ct"],
    ["10", "Dešimt eurų 00 ct"],
    ["11", "Vienuolika eurų 00 ct"],
    ["12", "Dvylika eurų 00 ct"],
    ["19.99", "Devyniolika eurų 99 ct"],
    ["20", "Dvidešimt eurų 00 ct"],
    ["21", "Dvidešimt vienas euras 00 ct"],
    ["22", "Dvidešimt du eurai 00 ct"],
    ["100", "Šimtas eurų 00 ct"],
    ["101", "Šimtas vienas euras 00 ct"],
    ["111", "Šimtas vienuolika eurų 00 ct"],
    ["245", "Du šimtai keturiasdešimt penki eurai 00 ct"],
    ["1000", "Vienas tūkstantis eurų 00 ct"],
    ["1001", "Vienas tūkstantis vienas euras 00 ct"],
    ["1666.66", "Vienas tūkstantis šeši šimtai šešiasdešimt šeši eurai 66 ct"],
    ["2000", "Du tūkstančiai eurų 00 ct"],
    ["11000", "Vienuolika tūkstančių eurų 00 ct"],
    ["21000", "Dvidešimt vienas tūkstantis eurų 00 ct"],
    ["100000", "Šimtas tūkstančių eurų 00 ct"],
    ["312000.3", "Trys šimtai dvylika tūkstančių eurų 30 ct"],
    ["1000000", "Vienas milijonas eurų 00 ct"],
    ["1001000", "Vienas milijonas vienas tūkstantis eurų 00 ct"],
    ["2000000", "Du milijonai eurų 00 ct"],
    ["15000000", "Penkiolika milijonų eurų 00 ct"],
    ["1000000000", "Vienas milijardas eurų 00 ct"],
    ["3000000000", "Trys milijardai eurų 00 ct"],
    ["1000000000000", "Vienas trilijonas eurų 00 ct"],
    [
      "999999999999999.99",
      "Devyni šimtai devyniasdešimt devyni trilijonai devyni šimtai devyniasdešimt devyni milijardai devyni šimtai devyniasdešimt devyni milijonai devyni šimtai devyniasdešimt devyni tūkstančiai devyni šimtai devyniasdešimt devyni eurai 99 ct",
    ],
    ["-121", "Minus šimtas dvidešimt vienas euras 00 ct"],
  ])("%s EUR", (amount, words) => {
    expect(amountInWords(amount, "EUR", "lt")).toBe(words);
  });

  test("other currencies: US dollars and pounds by name, the rest by code", () => {
    expect(amountInWords("21.05", "USD", "lt")).toBe("Dvidešimt vienas JAV doleris 05 ct");
    expect(amountInWords("12", "GBP", "lt")).toBe("Dvylika svarų sterlingų 00 ct");
    expect(amountInWords("3.5", "SEK", "lt")).toBe("Trys SEK 50/100");
  });
});

describe("English", () => {
  test.each([
    ["0", "Zero euros 00 ct"],
    ["0.01", "Zero euros 01 ct"],
    ["1", "One euro 00 ct"],
    ["11", "Eleven euros 00 ct"],
    ["21", "Twenty-one euros 00 ct"],
    ["100", "One hundred euros 00 ct"],
    ["1000", "One thousand euros 00 ct"],
    ["1666.66", "One thousand six hundred sixty-six euros 66 ct"],
    ["1001000", "One million one thousand euros 00 ct"],
    [
      "999999999999999.99",
      "Nine hundred ninety-nine trillion nine hundred ninety-nine billion nine hundred ninety-nine million nine hundred ninety-nine thousand nine hundred ninety-nine euros 99 ct",
    ],
  ])("%s EUR", (amount, words) => {
    expect(amountInWords(amount, "EUR", "en")).toBe(words);
  });

  test("more than 15 integer digits is refused (no Money has them)", () => {
    expect(() => amountInWords("1000000000000000", "EUR", "en")).toThrow(RangeError);
  });
});
