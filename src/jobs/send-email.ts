import type { Task } from "graphile-worker";
import { createLogger } from "../log.js";
import { deliverMail, type Mail } from "../mail.js";
import type { JobDeps } from "./deps.js";

function parseMail(payload: unknown): Mail {
  const p = payload as Partial<Mail> | null;
  if (!p || !Array.isArray(p.to) || typeof p.subject !== "string" || typeof p.text !== "string") throw new Error("send_email needs {to, subject, text}");
  return { to: p.to.map(String), subject: p.subject, text: p.text };
}

/** Sends one queued e-mail (src/mail.ts); an SMTP failure throws, and graphile-worker retries with backoff. */
export const sendEmailTask =
  ({ db, config, log }: JobDeps): Task =>
  async (payload) => {
    await deliverMail(db, config, log ?? createLogger(config.logLevel), parseMail(payload));
  };
