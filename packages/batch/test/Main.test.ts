/** The command line's hint for values that start with `-`, and which command modules a run loads. */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Main from "../src/Main.ts"

describe("Main.dashValueHint", () => {
  it("names the flag=value form for a value starting with -", () => {
    expect(Main.dashValueHint(["broadcast", "--message", "-5"])).toMatch(/--message=-5/)
    expect(Main.dashValueHint(["broadcast", "--message", "hello"])).toBeUndefined()
    expect(Main.dashValueHint(["import", "-", "--dry-run"])).toBeUndefined()
    expect(Main.dashValueHint(["report", "--summary", "--json"])).toBeUndefined()
  })

  it("names the end of flags for an argument starting with - that no flag can be", () => {
    for (const text of ["-5 off", "-20%", "-hello", "--- sale ---"]) {
      expect(Main.dashValueHint(["inspect", text, "--short-name", "ACME"]), text).toBe(
        `an argument starting with "-" goes after "--", which ends the flags (write the flags before it): -- ${JSON.stringify(text)}`
      )
    }
    // A flag's own forms, a short flag, standard input, and anything after the end of flags are no such argument.
    for (const args of [["import", "-", "--dry-run"], ["inspect", "-h"], ["report", "--out=-"], ["inspect", "--", "-5 off"]]) {
      expect(Main.dashValueHint(args), args.join(" ")).toBeUndefined()
    }
  })
})

describe("Main.wantsJson", () => {
  it("reads --json as the flag's parser does: bare, or with any of its true values; never after --", () => {
    // The parser refuses TRUE and Yes: its usage error comes as a JSON document, which whoever wrote them wants.
    for (const flag of ["--json", "--json=true", "--json=1", "--json=y", "--json=yes", "--json=on", "--json=TRUE", "--json=Yes"]) {
      expect(Main.wantsJson(["contacts", "list", flag]), flag).toBe(true)
    }
    for (const flag of ["--json=false", "--json=0", "--json=no", "--json=off", "--jsonx", "--json=maybe"]) {
      expect(Main.wantsJson(["contacts", "list", flag]), flag).toBe(false)
    }
    for (const value of ["false", "0", "no", "off", "n"]) expect(Main.wantsJson(["contacts", "get", "447400123456", "--json", value]), value).toBe(false)
    expect(Main.wantsJson(["contacts", "get", "447400123456", "--json", "true"])).toBe(true)
    expect(Main.wantsJson(["send", "--", "--json"])).toBe(false)
  })
})

describe("Main.needed", () => {
  it("loads only the command a run names, none for --version alone, all for help and typos", () => {
    expect(Main.needed(["report", "--out", "x.csv"])).toEqual(["report"])
    expect(Main.needed(["contacts", "list"])).toEqual(["contacts"])
    expect(Main.needed(["--version"])).toEqual([])
    expect(Main.needed(["-v"])).toEqual([])
    expect(Main.needed(["--version", "--json"])).toEqual(Main.commandNames)
    expect(Main.needed(["--help"])).toEqual(Main.commandNames)
    expect(Main.needed([])).toEqual(Main.commandNames)
    expect(Main.needed(["reprot"])).toEqual(Main.commandNames)
  })

  it("builds the root with every command in help order, each named as it is run", async () => {
    const root = await Effect.runPromise(Main.root())
    expect(root.subcommands.flatMap((group) => group.commands.map((command) => command.name))).toEqual(Main.commandNames)
  })
})
