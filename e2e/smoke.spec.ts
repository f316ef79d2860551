import { expect, test } from "./support";

test("the landing page is served by the worker and the API answers", async ({ page, request }) => {
  const health = await request.get("/api/health");
  expect(await health.json()).toMatchObject({ status: "ok", providers: "sandbox" });
  await page.goto("/");
  await expect(page).toHaveURL(/#\/homepage\/1$/);
});
