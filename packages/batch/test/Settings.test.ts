/**
 * Laws of where settings come from: flags over environment over `smsbook.json` over defaults, blanks
 * skipped, a short name never guessed, and every value checked before a command runs.
 */
import { Account } from "@smsbook/core"
import { ConfigProvider, Effect, Option, Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { InvalidSettings } from "../src/CliErrors.ts"
import * as Settings from "../src/Settings.ts"

const keys = ["store", "short_name", "short_code", "user", "time_zone", "spam_period_seconds"] as const
type Key = (typeof keys)[number]

const environmentNames: { readonly [K in Key]: string } = {
  store: "SMSBOOK_STORE",
  short_name: "SMSBOOK_SHORT_NAME",
  short_code: "SMSBOOK_SHORT_CODE",
  user: "SMSBOOK_USER",
  time_zone: "SMSBOOK_TIME_ZONE",
  spam_period_seconds: "SMSBOOK_SPAM_PERIOD"
}

/** Valid values per setting, so any combination resolves. */
const valid: { readonly [K in Key]: ReadonlyArray<string> } = {
  store: ["memory:", "sqlite:./a.db", "postgres://localhost/book"],
  short_name: ["ACME", "Shop", "My Bank"],
  short_code: ["12345", "ACME", "60000"],
  user: ["first", "second", "ops@example.com"],
  time_zone: ["UTC", "Europe/London", "America/New_York", "Asia/Tokyo"],
  spam_period_seconds: ["0", "60", "86400", "999999999999999"]
}

/** A layer's say on one setting: nothing, a blank, or a valid value. */
const say = (key: Key) => fc.oneof(fc.constant(undefined), fc.constant(""), fc.constantFrom(...valid[key]))

const layer: fc.Arbitrary<Settings.Given> = fc.record({
  store: say("store"),
  short_name: say("short_name"),
  short_code: say("short_code"),
  user: say("user"),
  time_zone: say("time_zone"),
  spam_period_seconds: say("spam_period_seconds")
}).map((given) => Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)))

const firstSaid = (layers: ReadonlyArray<Settings.Given>, key: Key): string | undefined =>
  layers.map((given) => given[key]).find((value) => value !== undefined && value !== "")

const succeed = <A, E>(result: Result.Result<A, E>): A => {
  if (Result.isFailure(result)) throw new Error(`expected a success, got ${String(result.failure)}`)
  return result.success
}

const fail = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

/** What a provider says, as the settings it gives (blanks are not said). */
const sayOf = (provider: ConfigProvider.ConfigProvider): Settings.Given => {
  const said = Effect.runSync(Settings.said.parse(provider))
  return Object.fromEntries(Object.entries(said).flatMap(([key, value]) => Option.isSome(value) ? [[key, value.value]] : []))
}

/** `Settings.resolve` over layers given as flags are. */
const resolve = (layers: ReadonlyArray<Settings.Given | ConfigProvider.ConfigProvider>, options: { readonly needsShortName: boolean }) =>
  Effect.runSync(Effect.result(Settings.resolve(
    Settings.layered(layers.map((layer) => "load" in layer ? layer : Settings.fromGiven(layer))),
    options
  )))

const settingsFailure = <A>(result: Result.Result<A, InvalidSettings>): InvalidSettings => {
  const error = fail(result)
  expect(error).toBeInstanceOf(InvalidSettings)
  return error
}

describe("Settings.fromEnvironment", () => {
  it("law: exactly the SMSBOOK_ variables that are set become settings, under their keys", () => {
    const env = fc.dictionary(
      fc.oneof(fc.constantFrom(...Object.values(environmentNames)), fc.string({ maxLength: 12 })),
      fc.option(fc.string({ maxLength: 10 }), { nil: undefined })
    )
    fc.assert(fc.property(env, (variables) => {
      const set = Object.fromEntries(Object.entries(variables).flatMap(([name, value]) => value === undefined ? [] : [[name, value]]))
      const given = sayOf(Settings.fromEnvironment(set))
      for (const key of keys) {
        const value = variables[environmentNames[key]]
        if (value === undefined || value === "") expect(Object.hasOwn(given, key)).toBe(false)
        else expect(given[key]).toBe(value)
      }
      expect(Object.keys(given).every((key) => (keys as ReadonlyArray<string>).includes(key))).toBe(true)
    }))
  })

  it("example", () => {
    expect(sayOf(Settings.fromEnvironment({
      SMSBOOK_SHORT_NAME: "ACME",
      SMSBOOK_SPAM_PERIOD: "60",
      SMSBOOK_STORE: "memory:",
      PATH: "/bin",
      SHORT_NAME: "nope",
      SMSBOOK_USER: ""
    }))).toStrictEqual({ store: "memory:", short_name: "ACME", spam_period_seconds: "60" })
  })
})

describe("Settings.fromFile", () => {
  it("law: an object of known keys with text or number values gives those settings as text", () => {
    const entries = fc.dictionary(
      fc.constantFrom(...keys),
      fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
    )
    fc.assert(fc.property(entries, (object) => {
      const given = succeed(Settings.fromFile(JSON.stringify(object), "smsbook.json"))
      expect(given).toStrictEqual(Object.fromEntries(Object.entries(object).map(([key, value]) => [key, String(value)])))
    }))
  })

  it("numbers are allowed and read as their text", () => {
    expect(succeed(Settings.fromFile(`{"spam_period_seconds": 60, "short_code": 12345}`, "smsbook.json")))
      .toStrictEqual({ spam_period_seconds: "60", short_code: "12345" })
  })

  it("an empty object says nothing", () => {
    expect(succeed(Settings.fromFile("{}", "smsbook.json"))).toStrictEqual({})
  })

  it("text that is not JSON is refused, naming the file", () => {
    for (const text of ["", "{", "short_name = ACME", "{'short_name': 'ACME'}", "{\"short_name\": \"ACME\",}"]) {
      const error = settingsFailure(Settings.fromFile(text, "conf/smsbook.json"))
      expect(error.setting).toBe("conf/smsbook.json")
      expect(error.reason).toMatch(/is not JSON/)
    }
  })

  it("a file that is not JSON is refused without quoting it: it may hold a store URL with its password", () => {
    const text = "{\"store\": \"postgres://postgres:TopSecret@127.0.0.1:5432/book\",\n \"short_name\": \"ACME\",}\n"
    const error = settingsFailure(Settings.fromFile(text, "smsbook.json"))
    expect(error.message).not.toContain("TopSecret")
    expect(error.reason).toMatch(/^is not JSON \(at position \d+/)
  })

  it("JSON that is not an object is refused", () => {
    for (const text of ["[]", "[{\"short_name\": \"ACME\"}]", "\"ACME\"", "42", "null", "true"]) {
      const error = settingsFailure(Settings.fromFile(text, "smsbook.json"))
      expect(error.setting).toBe("smsbook.json")
      expect(error.reason).toBe("must be a JSON object")
    }
  })

  it("an unknown key is refused by name, inherited object properties included", () => {
    for (const key of ["shortName", "SHORT_NAME", "constructor", "__proto__", "toString", "hasOwnProperty", "prefix"]) {
      const error = settingsFailure(Settings.fromFile(`{"short_name": "ACME", ${JSON.stringify(key)}: "x"}`, "smsbook.json"))
      expect(error.setting).toBe(`smsbook.json: ${key}`)
      expect(error.reason).toMatch(/^unknown setting/)
    }
  })

  it("law: any key that is not a setting is refused", () => {
    fc.assert(fc.property(fc.string().filter((key) => !(keys as ReadonlyArray<string>).includes(key)), (key) => {
      const error = settingsFailure(Settings.fromFile(JSON.stringify({ [key]: "x" }), "smsbook.json"))
      expect(error.setting).toBe(`smsbook.json: ${key}`)
    }))
  })

  it("a value that is neither text nor a number is refused, with the value shown", () => {
    for (const value of [{ name: "ACME" }, ["ACME"], true, false, null]) {
      const error = settingsFailure(Settings.fromFile(JSON.stringify({ short_name: value }), "smsbook.json"))
      expect(error.setting).toBe("smsbook.json: short_name")
      expect(error.value).toBe(JSON.stringify(value))
      expect(error.reason).toBe("must be text or a number")
    }
  })
})

describe("Settings.resolve", () => {
  it("law: each setting comes from the first layer that says it (blanks skipped), else the default", () => {
    fc.assert(fc.property(fc.array(layer, { maxLength: 4 }), (layers) => {
      const resolved = succeed(resolve(layers, { needsShortName: false }))
      expect(resolved.store).toBe(firstSaid(layers, "store") ?? Settings.defaultStore)
      expect(resolved.account.short_name).toBe(firstSaid(layers, "short_name") ?? Account.defaults.short_name)
      expect(resolved.account.short_code).toBe(firstSaid(layers, "short_code") ?? Account.defaults.short_code)
      expect(resolved.account.user).toBe(firstSaid(layers, "user") ?? Account.defaults.user)
      expect(resolved.account.time_zone).toBe(firstSaid(layers, "time_zone") ?? Account.defaults.time_zone)
      const spam = firstSaid(layers, "spam_period_seconds")
      expect(resolved.account.spam_period_seconds).toBe(spam === undefined ? Account.defaults.spam_period_seconds : Number(spam))
    }))
  })

  it("flags > environment > file > defaults, end to end", () => {
    const flags: Settings.Given = { short_name: "Flag", store: "" }
    const environment = Settings.fromEnvironment({ SMSBOOK_SHORT_NAME: "Env", SMSBOOK_USER: "env-user", SMSBOOK_STORE: "memory:" })
    const file = Settings.fromGiven(succeed(Settings.fromFile(
      `{"short_name": "File", "user": "file-user", "time_zone": "Europe/Paris", "spam_period_seconds": 60}`,
      "smsbook.json"
    )))
    const resolved = succeed(resolve([flags, environment, file], { needsShortName: true }))
    expect(resolved).toStrictEqual({
      store: "memory:",
      account: {
        short_name: "Flag",
        short_code: Account.defaults.short_code,
        user: "env-user",
        time_zone: "Europe/Paris",
        spam_period_seconds: 60
      }
    })
  })

  it("nothing said anywhere gives the defaults", () => {
    expect(succeed(resolve([], { needsShortName: false })))
      .toStrictEqual({ store: Settings.defaultStore, account: Account.defaults })
  })

  it("law: a command that needs the short name is refused when no layer says it, whatever else is said", () => {
    fc.assert(fc.property(fc.array(layer, { maxLength: 4 }), (layers) => {
      const without = layers.map(({ short_name: _, ...rest }, index) => index % 2 === 0 ? rest : { ...rest, short_name: "" })
      const error = settingsFailure(resolve(without, { needsShortName: true }))
      expect(error.setting).toBe("short_name")
      expect(error.reason).toMatch(/is required/)
    }))
  })

  it("law: a short name said in any layer satisfies a command that needs it", () => {
    fc.assert(fc.property(fc.array(layer, { maxLength: 3 }), fc.nat(3), fc.constantFrom(...valid.short_name), (layers, at, name) => {
      const index = Math.min(at, layers.length)
      const withName = [...layers.slice(0, index), { short_name: name }, ...layers.slice(index)]
      const resolved = succeed(resolve(withName, { needsShortName: true }))
      expect(resolved.account.short_name).toBe(firstSaid(withName, "short_name"))
    }))
  })

  it("a short name, short code or user that is not one printable line (a NUL, a line break, an escape) is refused by name", () => {
    for (const setting of ["short_name", "short_code", "user"] as const) {
      for (const value of ["a\u0000b", "two\nlines", "\u001b[31mred"]) {
        expect(settingsFailure(resolve([{ [setting]: value }], { needsShortName: false }))).toMatchObject({ setting, value })
      }
    }
  })

  it("law: a spam period of 1 to 15 ASCII digits is that many seconds", () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 15 }), (digits) => {
      const resolved = succeed(resolve([{ spam_period_seconds: digits }], { needsShortName: false }))
      expect(resolved.account.spam_period_seconds).toBe(Number(digits))
    }))
  })

  it("law: a spam period with any other character than digits and surrounding blanks is refused", () => {
    const other = fc.string({ minLength: 1, maxLength: 3 }).filter((text) => /[^\d\s]/.test(text))
    const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 4 })
    fc.assert(fc.property(digits, other, digits, (before, middle, after) => {
      const spam = before + middle + after
      const error = settingsFailure(resolve([{ spam_period_seconds: spam }], { needsShortName: false }))
      expect(error.setting).toBe("spam_period_seconds")
      expect(error.value).toBe(spam)
    }))
  })

  it("spam periods that Number() would accept but are not plain digits are refused", () => {
    for (const spam of ["0x10", "1e3", "-1", "+5", "12.5", "1_000", "Infinity", "NaN", " ", "\t", "0b11", "1 000", "١٢", "1234567890123456"]) {
      const error = settingsFailure(resolve([{ spam_period_seconds: spam }], { needsShortName: false }))
      expect([spam, error.setting]).toStrictEqual([spam, "spam_period_seconds"])
    }
  })

  it("a blank spam period is not said: a later layer or the default applies", () => {
    expect(succeed(resolve([{ spam_period_seconds: "" }], { needsShortName: false })).account.spam_period_seconds)
      .toBe(Account.defaults.spam_period_seconds)
    expect(succeed(resolve([{ spam_period_seconds: "" }, { spam_period_seconds: "30" }], { needsShortName: false }))
      .account.spam_period_seconds).toBe(30)
  })

  it("a spam period from smsbook.json as a number is checked like text", () => {
    const read = (json: string) => resolve([succeed(Settings.fromFile(json, "smsbook.json"))], { needsShortName: false })
    expect(succeed(read(`{"spam_period_seconds": 3600}`)).account.spam_period_seconds).toBe(3600)
    for (const json of [`{"spam_period_seconds": 12.5}`, `{"spam_period_seconds": -1}`, `{"spam_period_seconds": 1e21}`]) {
      expect(settingsFailure(read(json)).setting).toBe("spam_period_seconds")
    }
  })

  it("a time zone that is not an IANA zone is refused (checked by Account.make)", () => {
    for (const zone of ["+01:00", "-05:00", "Mars/Olympus", "GMT+1 ", "Europe/Londres"]) {
      const error = settingsFailure(resolve([{ time_zone: zone }], { needsShortName: false }))
      expect([zone, error.setting, error.value]).toStrictEqual([zone, "time_zone", zone])
    }
  })

  it("values refused by Account.make come back as its InvalidSettings", () => {
    const tooLong = "N".repeat(160)
    expect(settingsFailure(resolve([{ short_name: tooLong }], { needsShortName: true })).setting).toBe("short_name")
    expect(settingsFailure(resolve([{ short_code: "   " }], { needsShortName: false })).setting).toBe("short_code")
  })
})
