/**
 * The browser check of the consumer proof: bundles `@smsbook/core/Sms` as installed in the consumer project, runs it
 * in a real headless Chromium (the system's, no download), and compares its answers with core's in Node.
 */
import * as esbuild from "esbuild"
import { createRequire } from "node:module"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import * as zlib from "node:zlib"
import { chromium } from "playwright-core"

/** Texts that cover GSM-7, extension characters, UCS-2, surrogate pairs and multipart boundaries. */
const texts = [
  "Hello",
  "Shop opens at 9 — don’t be late",
  "Price: 5€ {today} [only] ~ ^ | \\",
  "x".repeat(154),
  "x".repeat(155),
  "€".repeat(80),
  "Привет, как дела?",
  "🎉".repeat(40),
  "Größe: 42, Ærø, ñandú, çà",
  ""
]

const [app = "", executablePath = "/usr/bin/chromium", budgetKb = "40"] = process.argv.slice(2)
if (app === "") throw new Error("usage: node browser.ts CONSUMER_DIR [CHROMIUM] [BUDGET_KB]")

const bundled = await esbuild.build({
  stdin: { contents: `import "./page.js"`, resolveDir: app, sourcefile: "entry.js" },
  absWorkingDir: app,
  bundle: true,
  minify: true,
  format: "esm",
  platform: "browser",
  write: false,
  metafile: true
})
const script = bundled.outputFiles[0]?.text ?? ""
const gzipped = zlib.gzipSync(script, { level: 9 }).length
// Modules that put code in the bundle (esbuild also lists modules it read and then shook out entirely).
const inputs = Object.values(bundled.metafile.outputs).flatMap((output) =>
  Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0).map(([input]) => input)
)
const heavy = inputs.filter((input) => /effect\/dist\/Schema|libphonenumber-js/.test(input))
console.log(`browser bundle of Sms: ${script.length} bytes, ${(gzipped / 1000).toFixed(2)} kB gzipped, ${inputs.length} modules`)
if (heavy.length > 0) throw new Error(`the Sms bundle pulls in ${heavy.join(", ")}`)
if (gzipped > Number(budgetKb) * 1000) throw new Error(`the Sms bundle is over ${budgetKb} kB gzipped`)

interface SmsModule {
  readonly analyzePrefixed: (shortName: string, text: string) => { encoding: string; units: number; segments: number }
  readonly checkBudget: (shortName: string, text: string) => { readonly _tag: string }
}
const Sms: SmsModule =
  await import(pathToFileURL(createRequire(path.join(app, "package.json")).resolve("@smsbook/core/Sms")).href)
const expected = texts.map((text) => {
  const { encoding, units, segments } = Sms.analyzePrefixed("ACME", text)
  return { encoding, units, segments, fits: Sms.checkBudget("ACME", text)._tag === "Success" }
})

const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] })
try {
  const page = await browser.newPage()
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(error.message))
  await page.setContent("<!doctype html><title>segments</title>")
  await page.addScriptTag({ content: script, type: "module" })
  await page.waitForFunction(() => "countSegments" in globalThis)
  const actual = await page.evaluate(
    ([shortName, list]) => {
      const count: unknown = Reflect.get(globalThis, "countSegments")
      if (typeof count !== "function") throw new Error("countSegments is missing")
      return JSON.stringify(count(shortName, list))
    },
    ["ACME", texts] as const
  )
  const version = browser.version()
  if (errors.length > 0) throw new Error(`page errors: ${errors.join("; ")}`)
  if (actual !== JSON.stringify(expected)) throw new Error(`Chromium and Node disagree:\n${actual}\n${JSON.stringify(expected)}`)
  console.log(`Chromium ${version}: ${texts.length} texts counted as Node counts them (${expected.map((e) => e.segments).join(", ")} segments)`)
} finally {
  await browser.close()
}
