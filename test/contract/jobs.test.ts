import { describe, expect, test } from "@jest/globals";
import { parseCrontab } from "graphile-worker";
import { loadConfig } from "../../src/config.js";
import { createTaskList, crontab } from "../../src/jobs/index.js";

describe("the worker's schedule", () => {
  test("parses, and every scheduled task exists", () => {
    const items = parseCrontab(crontab);
    expect(items.length).toBeGreaterThanOrEqual(4);
    const tasks = createTaskList({ db: undefined as never, config: loadConfig() });
    for (const item of items) expect(Object.keys(tasks)).toContain(item.task);
    expect(
      items
        .filter((i) => i.task === "sync_exchange_rates")
        .map((i) => i.identifier)
        .sort(),
    ).toEqual(["ecb_after_publication", "ecb_late_publication"]);
  });
});
