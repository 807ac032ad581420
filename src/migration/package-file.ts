// A historical-books package read from a file by the operator CLI (cli.ts), held to what the API holds a request
// body to — src/shared/json-input.ts (UTF-8 JSON nested at most 32 levels, no string PostgreSQL cannot store) and the
// contract's schema `Migration.BooksPackage` — without importing the HTTP layer (STYLE.md, practice 16: layers run
// one way). Every failure is a 400 naming the fields, at most 100.
import { readFileSync } from "node:fs";
import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";
import { loadDocument } from "../contract-document.js";
import { validationError, type FieldErrors } from "../shared/errors.js";
import { parseJsonInput } from "../shared/json-input.js";
import type { BooksPackage } from "./types.js";

type AjvLike = {
  addSchema(s: unknown, key: string): void;
  getSchema(ref: string): ((v: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
};
const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (o: object) => AjvLike;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: AjvLike, formats: string[]) => void;

const MAX_LISTED = 100;

/** The package of `file` as the API would accept it, or a 400 naming what is wrong. */
export function readPackageFile(file: string): BooksPackage {
  const value = parseJsonInput(readFileSync(file), "The package");
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
  addFormats(ajv, ["date", "date-time", "uuid", "email"]);
  ajv.addSchema(loadDocument(), "contract");
  const validate = ajv.getSchema("contract#/components/schemas/Migration.BooksPackage");
  if (!validate(value)) {
    const errors: FieldErrors = {};
    for (const e of (validate.errors ?? []).slice(0, MAX_LISTED)) {
      (errors[
        e.instancePath
          .replace(/^\//, "")
          .replace(/\/(\d+)/g, "[$1]")
          .replace(/\//g, ".") || "body"
      ] ??= []).push(e.message ?? "is not valid");
    }
    throw validationError(errors, "The package does not match the contract (Migration.BooksPackage).");
  }
  return value as BooksPackage;
}
