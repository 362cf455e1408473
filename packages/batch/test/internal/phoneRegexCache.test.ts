/**
 * The libphonenumber-js regex swap must stay the library's own function, only faster: it is
 * checked against the shipped helper and, in a real process, seen to be the one loaded.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as PhoneRegexCache from "../../src/internal/phoneRegexCache.ts"

const library = path.dirname(createRequire(import.meta.url).resolve("libphonenumber-js/package.json"))
const shipped = path.join(library, "es6/helpers/matchesEntirely.js")

const load = async (code: string): Promise<(text: string, pattern: string) => boolean> =>
  (await import(`data:text/javascript,${encodeURIComponent(code)}`)).default

describe("phone regex cache", () => {
  it("replaces a helper the library still ships, with the same body", () => {
    expect(shipped.endsWith(PhoneRegexCache.target.split("/").slice(2).join("/"))).toBe(true)
    const original = fs.readFileSync(shipped, "utf8")
    // If the library changes this helper, the swap must be revisited.
    expect(original).toContain("return new RegExp('^(?:' + regularExpressionText + ')$').test(text);")
    expect(original).toContain("text = text || '';")
  })

  it("answers exactly as the shipped helper", async () => {
    const original = await load(fs.readFileSync(shipped, "utf8"))
    const cached = await load(PhoneRegexCache.source)
    const patterns = ["\\d{10}", "7\\d{9}|1\\d{3}", "(?:7[1-57-9]|8[02-9])\\d{8}", "[1-9]\\d{0,2}", ""]
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.oneof(fc.stringMatching(/^\d{0,12}$/), fc.string()), (pattern, text) => {
        expect(cached(text, pattern)).toBe(original(text, pattern))
        expect(cached(text, pattern)).toBe(original(text, pattern))
      })
    )
  })

  it("is what a process that registers it loads", () => {
    const script = [
      `import * as Cache from ${JSON.stringify(path.resolve(import.meta.dirname, "../../src/internal/phoneRegexCache.ts"))}`,
      "Cache.register()",
      `const helper = await import(${JSON.stringify(shipped)})`,
      "console.log(String(helper.default).includes('compiled.get'))"
    ].join("\n")
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 })
    expect(run.stderr).toBe("")
    expect(run.stdout.trim()).toBe("true")
  })
})
