// Operator e-mail (issue 9: a paused webhook subscription's owners are told). Over SMTP with nodemailer when
// SMTP_URL is set (e.g. smtp://user:pass@mail.example.com:587); without it each mail is written to the
// outbound_emails table and logged as one JSON line, so none is lost silently. Sending is a worker task
// (src/jobs/send-email.ts), queued in the transaction that decides to send, and retried when the server fails.
import nodemailer, { type SendMailOptions, type Transporter } from "nodemailer";
import type { Config } from "./config.js";
import type { Db } from "./db/connection.js";
import type { Logger } from "./log.js";

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

export const SEND_EMAIL_TASK = "send_email";

let transport: { url: string; transporter: Transporter } | undefined;
function transporterFor(url: string): Transporter {
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  return transport.transporter;
}

/** A mail with attachments, sent now over SMTP_URL (customer mail: `sales/invoices/send`); an SMTP failure throws. */
export async function sendSmtp(config: Config, message: Omit<SendMailOptions, "from">): Promise<void> {
  if (!config.smtpUrl) throw new Error("sendSmtp: SMTP_URL is not set");
  await transporterFor(config.smtpUrl).sendMail({ from: config.mailFrom, ...message });
}

/** Queues a mail inside `trx`: it is sent after commit, by the worker. */
export async function queueMail(trx: Db, mail: Mail): Promise<void> {
  await trx.raw("select graphile_worker.add_job(?, ?::json, max_attempts := 25)", [SEND_EMAIL_TASK, JSON.stringify(mail)]);
}

/** Sends now: SMTP when configured, else the outbound_emails table and one log line. */
export async function deliverMail(db: Db, config: Config, log: Logger, mail: Mail): Promise<"smtp" | "stored"> {
  if (config.smtpUrl && mail.to.length > 0) {
    await transporterFor(config.smtpUrl).sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
    log.info({ mail: { to: mail.to, subject: mail.subject } }, "e-mail sent");
    return "smtp";
  }
  const [row] = await db("outbound_emails").insert({ recipients: mail.to, subject: mail.subject, body: mail.text }).returning("id");
  log.warn(
    { mail: { id: row.id, to: mail.to, subject: mail.subject, text: mail.text } },
    mail.to.length ? "e-mail not sent (no SMTP_URL): kept in outbound_emails" : "e-mail has no recipients: kept in outbound_emails",
  );
  return "stored";
}
