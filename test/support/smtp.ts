// A real SMTP server for tests (the smtp-server package) on 127.0.0.1: it accepts every mail and keeps it, with the
// envelope recipients and the message decoded enough to read (headers, quoted-printable body).
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

function decode(raw: string): { subject: string; text: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = /^Subject: (.*)$/im.exec(unfolded)?.[1] ?? "";
  let text = rest.join("\n\n");
  if (/Content-Transfer-Encoding: quoted-printable/i.test(unfolded)) {
    text = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    text = Buffer.from(text, "latin1").toString("utf8");
  }
  return { subject, text: text.replace(/\r\n/g, "\n") };
}

/**
 * How the sink answers a recipient: undefined accepts it; `{code, message}` refuses it with that SMTP reply (a 4xx is
 * temporary, a 5xx permanent). `count` is how many times this address was offered so far, this time included.
 */
export type RecipientReply = (address: string, count: number) => { code: number; message: string } | undefined;

export async function startSmtpSink(options: { recipient?: RecipientReply } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const offered = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const count = (offered.get(address.address) ?? 0) + 1;
      offered.set(address.address, count);
      const reply = options.recipient?.(address.address, count);
      if (!reply) return callback();
      callback(Object.assign(new Error(reply.message), { responseCode: reply.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          ...decode(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
