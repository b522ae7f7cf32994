// Firefox (Debian's firefox-esr) driven over WebDriver BiDi by puppeteer-core, for the site's tests in another
// engine (tests/other_browsers.py). Reads a journey from stdin, as JSON: {"browser": the executable, "width",
// "height", "steps": [{"goto": url} | {"wait": selector, "timeout": ms} | {"evaluate": an async function's source,
// "arg": its argument}]}; writes {"results": what each evaluate gave, "errors": the page's errors} to stdout.
import puppeteer from "puppeteer-core";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const journey = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const browser = await puppeteer.launch({
  browser: "firefox", executablePath: journey.browser, headless: true, protocol: "webDriverBiDi",
  extraPrefsFirefox: { "network.proxy.type": 0 } });
const results = [], errors = [];
try {
  const page = await browser.newPage();
  await page.setViewport({ width: journey.width, height: journey.height });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => { if (message.type() === "error") errors.push(message.text()); });
  for (const step of journey.steps) {
    if (step.goto) await page.goto(step.goto);
    if (step.wait) await page.waitForSelector(step.wait, { timeout: step.timeout || 180_000 });
    if (step.evaluate) results.push(await page.evaluate(`(${step.evaluate})(${JSON.stringify(step.arg ?? null)})`));
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify({ results, errors }));
