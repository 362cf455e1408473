/**
 * The old generation's cap takes only from node's command line: a process started with `flags` is
 * capped, one started without is not, and setting the flag at run time does not cap it.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import * as ServeHeap from "../src/ServeHeap.ts"

const module = fileURLToPath(new URL("../src/ServeHeap.ts", import.meta.url))

/** What `capped()` answers in a fresh node started with `args`, after `before` ran in it. */
const cappedIn = (args: ReadonlyArray<string>, before = ""): boolean => {
  const script = `import * as V8 from "node:v8"; import { capped } from ${JSON.stringify(module)}; ${before}; process.stdout.write(String(capped()))`
  return execFileSync(process.execPath, [...args, "--input-type=module", "-e", script], { encoding: "utf8" }) === "true"
}

describe("ServeHeap", () => {
  it("caps the old generation when its flags start the process", () => {
    expect(ServeHeap.flags()).toEqual(["--max-old-space-size=256", "--no-allocation-site-pretenuring"])
    expect(ServeHeap.flags(10)).toEqual(["--max-old-space-size=64", "--no-allocation-site-pretenuring"])
    expect(cappedIn(ServeHeap.flags())).toBe(true)
    expect(cappedIn([])).toBe(false)
  })

  it("is not capped by the same flag set at run time", () => {
    expect(cappedIn([], `V8.setFlagsFromString(${JSON.stringify(ServeHeap.flags()[0])})`)).toBe(false)
  })
})
