// The baseline: a bare Koa handler answering POST with the same JSON partners/get returns, no database.
import Koa from "koa";

const body = JSON.parse(process.env.BARE_BODY ?? "{}");
const app = new Koa();
app.use(async (ctx) => {
  for await (const _chunk of ctx.req) {
    // drain the request body, as the real server does
  }
  ctx.body = body;
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
