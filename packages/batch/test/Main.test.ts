/** The command line's hint for values that start with `-`. */
import { describe, expect, it } from "vitest"
import * as Main from "../src/Main.ts"

describe("Main.dashValueHint", () => {
  it("names the flag=value form for a value starting with -", () => {
    expect(Main.dashValueHint(["broadcast", "--message", "-5"])).toMatch(/--message=-5/)
    expect(Main.dashValueHint(["broadcast", "--message", "hello"])).toBeUndefined()
    expect(Main.dashValueHint(["import", "-", "--dry-run"])).toBeUndefined()
    expect(Main.dashValueHint(["report", "--summary", "--json"])).toBeUndefined()
  })
})
