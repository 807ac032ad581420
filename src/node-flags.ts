// The V8 flags the product's server processes run with (`npm start`, `npm run worker`: package.json's scripts carry
// them, and test/contract/platform.test.ts checks they match; bench/ and test/support/processes.ts start their
// servers with them).
//
// --max-semi-space-size=16: V8 sizes the young generation from the machine's memory (on these 24 GB machines far
// above 16 MB a semi-space), and an API process that makes a large answer (an i.SAF part of 50,000 invoices) grew its
// heap for garbage it then kept as resident memory: 312 MiB idle after start-up and ~500 MiB after an i.SAF month,
// against 205 MiB and ~300 MiB with 16 MB semi-spaces, which also made the i.SAF month faster (9.0 s against 10.2 s,
// in-process, same minutes; issue 24).
export const SERVER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=16"];
