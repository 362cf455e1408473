/**
 * Laws of broadcast plans: a plan counts exactly the audience a group send would reach, its file is
 * JSON that verifies as written, and any edit of it — or any change of the audience since — is refused.
 * One file over 400 lines: every law reads the same plan fixture and audience, and split they would each rebuild it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Account, ContactBook, MemoryStore, Sms } from "@smsbook/core"
import { Effect, Layer, Schema } from "effect"
import * as fc from "fast-check"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"
import { isSmsbookError } from "../../src/Output.ts"
import * as Plan from "../../src/jobs/BroadcastPlan.ts"

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-plan-test-"))
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }))
let files = 0
const tempFile = (name: string) => path.join(temporary, `${++files}-${name}`)

const acme: Account.Settings = { ...Account.defaults, short_name: "ACME" }
const layer = Layer.mergeAll(MemoryStore.layer, Account.layer(acme))

/**
 * The failure of `effect`, which must be an smsbook error. (Plan's error channel is `unknown`, as its
 * `onBatch` callback may fail with anything.)
 */
const refusal = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  Effect.flatMap(Effect.flip(effect), (error) =>
    isSmsbookError(error) ? Effect.succeed(error) : Effect.die(new Error(`not an smsbook error: ${String(error)}`)))

interface Person {
  readonly tags: ReadonlyArray<string>
  readonly monitoring: boolean
  readonly optedOut: boolean
}

const msisdnOf = (index: number) => `4474001${String(index).padStart(5, "0")}`

/** Creates the contacts through the use cases: created, then edited (tags, monitoring), then opted out. */
const seed = (people: ReadonlyArray<Person>, from = 0) =>
  Effect.forEach(people, (person, index) =>
    Effect.gen(function*() {
      const msisdn = msisdnOf(from + index)
      yield* ContactBook.createContact(msisdn, { first_name: `P${from + index}` })
      yield* ContactBook.editContact(msisdn, { tags: [...person.tags], monitoring: person.monitoring })
      if (person.optedOut) yield* ContactBook.optOut(msisdn)
    }), { discard: true })

/**
 * A book: 0 and 1 carry `news` (any case), 2 only monitors, 3 carries `news` but opted out, 4 carries
 * another tag, 5 carries `news` and monitors (a recipient, once), 6 monitors but opted out.
 */
const book: ReadonlyArray<Person> = [
  { tags: ["news"], monitoring: false, optedOut: false },
  { tags: ["NEWS", "sport"], monitoring: false, optedOut: false },
  { tags: [], monitoring: true, optedOut: false },
  { tags: ["news"], monitoring: false, optedOut: true },
  { tags: ["other"], monitoring: false, optedOut: false },
  { tags: ["News"], monitoring: true, optedOut: false },
  { tags: [], monitoring: true, optedOut: true }
]

/** Who a send to `tags` reaches, by the rules (DESIGN.md), independently of the code under test. */
const model = (people: ReadonlyArray<Person>, tags: ReadonlyArray<string>) => {
  const wanted = new Set(tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag !== ""))
  const members: Array<readonly [string, "recipient" | "monitor"]> = []
  people.forEach((person, index) => {
    if (person.optedOut) return
    if (person.tags.some((tag) => wanted.has(tag.trim().toLowerCase()))) members.push([msisdnOf(index), "recipient"])
    else if (person.monitoring) members.push([msisdnOf(index), "monitor"])
  })
  return members
}

const PlanJson = Schema.Struct({
  audience: Schema.Array(Schema.Tuple([Schema.String, Schema.Literals(["recipient", "monitor"])])),
  plan_sha256: Schema.String,
  audience_sha256: Schema.String
})

/** The plan file as plain JSON, to edit as a reviewer might. */
const readJson = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>
const writeJson = (file: string, value: unknown) => fs.writeFileSync(file, JSON.stringify(value, null, 2))

const sortKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortKeys)
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a < b ? -1 : 1).map(([k, v]) => [k, sortKeys(v)]))
    : value

describe("Plan.resolve", () => {
  it.effect("counts recipients (case-insensitive tags, each contact once) and monitors, never opted-out contacts", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const summary = yield* Plan.resolve({ tags: ["news"], message: "Hello" })
      expect(summary.recipients).toBe(3)
      expect(summary.monitors).toBe(1)
      expect(summary.short_name).toBe("ACME")
      expect(summary.prefixed).toBe("ACME: Hello")
      expect(summary.encoding).toBe("GSM-7")
      expect(summary.segments).toBe(1)
      expect(summary.parts).toStrictEqual(["ACME: Hello"])
      expect(summary.ucs2_characters).toStrictEqual([])
      expect(summary.sent_count).toBe(4)
      expect(summary.tags).toStrictEqual(["news"])
      expect(summary.plan_sha256).toBe(Plan.sealOf(
        (({ audience_sha256: _, plan_sha256: __, ...header }) => header)(summary),
        summary.audience_sha256
      ))
    }).pipe(Effect.provide(layer)))

  it.effect("hands every member to onBatch once, with its role", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const seen: Array<readonly [string, string]> = []
      yield* Plan.resolve({ tags: ["news", "sport"], message: "Hi" }, (members) => Effect.sync(() => void seen.push(...members)))
      expect(seen).toStrictEqual(model(book, ["news", "sport"]))
    }).pipe(Effect.provide(layer)))

  it.effect("sent_count is segments × (recipients + monitors) for a long UCS-2 text", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const message = "Réunion ☺ ".repeat(12)
      const summary = yield* Plan.resolve({ tags: ["news"], message })
      const analysis = Sms.analyzePrefixed("ACME", message)
      expect(summary.encoding).toBe("UCS-2")
      expect(summary.segments).toBe(analysis.segments)
      expect(summary.segments).toBeGreaterThan(1)
      expect(summary.sent_count).toBe(analysis.segments * 4)
      expect(summary.ucs2_characters.map((c) => c.char)).toContain("☺")
    }).pipe(Effect.provide(layer)))

  it("law: the counts and the written audience are those the rules define, and the plan verifies", async () => {
    const person = fc.record({
      tags: fc.array(fc.constantFrom("news", "NEWS", "Sport", "other", " news "), { maxLength: 3 }),
      monitoring: fc.boolean(),
      optedOut: fc.boolean()
    })
    const tags = fc.array(fc.constantFrom("news", "sport", "Other", "nobody", "  "), { minLength: 1, maxLength: 3 })
      .filter((list) => list.some((tag) => tag.trim() !== ""))
    await fc.assert(fc.asyncProperty(fc.array(person, { maxLength: 12 }), tags, fc.string({ maxLength: 30 }), async (people, wanted, message) => {
      const members = model(people, wanted)
      const recipients = members.filter(([, role]) => role === "recipient").length
      const file = tempFile("law.json")
      const { summary, verified } = await Effect.runPromise(Effect.gen(function*() {
        yield* seed(people)
        const summary = yield* Plan.resolve({ tags: wanted, message, allowEmpty: true })
        yield* Plan.write({ tags: wanted, message, allowEmpty: true }, file)
        const verified = yield* Plan.verify(file, { allowEmpty: true })
        return { summary, verified }
      }).pipe(Effect.provide(layer)))
      expect(summary.recipients).toBe(recipients)
      expect(summary.monitors).toBe(members.length - recipients)
      expect(summary.sent_count).toBe(summary.segments * members.length)
      expect(Schema.decodeUnknownSync(PlanJson)(readJson(file)).audience).toStrictEqual(members)
      expect(verified).toStrictEqual(summary)
    }), { numRuns: 40 })
  })

  it.effect("no tags (or only blank ones) is refused: MissingTags", () =>
    Effect.gen(function*() {
      yield* seed(book)
      for (const tags of [[], [""], ["  ", "\t"]]) {
        const error = yield* refusal(Plan.resolve({ tags, message: "Hello", allowEmpty: true }))
        expect(error._tag).toBe("MissingTags")
      }
    }).pipe(Effect.provide(layer)))

  it.effect("an audience without recipients is refused (NoRecipients), monitors alone included, unless allowEmpty", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const error = yield* refusal(Plan.resolve({ tags: ["nobody"], message: "Hello" }))
      expect(error._tag).toBe("NoRecipients")
      const allowed = yield* Plan.resolve({ tags: ["nobody"], message: "Hello", allowEmpty: true })
      expect([allowed.recipients, allowed.monitors, allowed.sent_count]).toStrictEqual([0, 2, 2])
    }).pipe(Effect.provide(layer)))

  it.effect("an empty book is refused unless allowEmpty", () =>
    Effect.gen(function*() {
      const error = yield* refusal(Plan.resolve({ tags: ["news"], message: "Hello" }))
      expect(error._tag).toBe("NoRecipients")
      const allowed = yield* Plan.resolve({ tags: ["news"], message: "Hello", allowEmpty: true })
      expect([allowed.recipients, allowed.monitors, allowed.sent_count]).toStrictEqual([0, 0, 0])
    }).pipe(Effect.provide(layer)))

  it.effect("a message beyond the budget is refused: MessageTooLong", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const error = yield* refusal(Plan.resolve({ tags: ["news"], message: "x".repeat(Sms.budget("ACME") + 1) }))
      expect(error._tag).toBe("MessageTooLong")
    }).pipe(Effect.provide(layer)))
})

describe("Plan.write and Plan.verify", () => {
  it.effect("the file is JSON with the audience as [msisdn, role] pairs, and verifies as written", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("plan.json")
      const written = yield* Plan.write({ tags: ["news"], message: "Hello", id: "promo-1" }, file)
      const json = readJson(file)
      const plan = Schema.decodeUnknownSync(Plan.PlanFile)(json)
      expect(plan.audience).toStrictEqual(model(book, ["news"]))
      expect(Object.keys(json)[0]).toBe("audience")
      const { audience: _, ...rest } = plan
      expect(rest).toStrictEqual(written)
      expect(plan.id).toBe("promo-1")
      const verified = yield* Plan.verify(file, { allowEmpty: false })
      expect(verified).toStrictEqual(written)
      expect(fs.readdirSync(temporary).filter((name) => name.endsWith(".partial"))).toStrictEqual([])
    }).pipe(Effect.provide(layer)))

  it.effect("a UCS-2 text with look-alike suggestions verifies as written", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("ucs2.json")
      const written = yield* Plan.write({ tags: ["news"], message: "“Sale” – 50 % off ☺ café" }, file)
      expect(written.ucs2_characters.some((c) => c.suggestion !== undefined)).toBe(true)
      const verified = yield* Plan.verify(file, { allowEmpty: false })
      expect(verified.plan_sha256).toBe(written.plan_sha256)
    }).pipe(Effect.provide(layer)))

  it.effect("an empty audience writes a valid plan with allowEmpty, and verifies only with allowEmpty", () =>
    Effect.gen(function*() {
      const file = tempFile("empty.json")
      const written = yield* Plan.write({ tags: ["news"], message: "Hello", allowEmpty: true }, file)
      expect(Schema.decodeUnknownSync(PlanJson)(readJson(file)).audience).toStrictEqual([])
      expect((yield* Plan.verify(file, { allowEmpty: true })).plan_sha256).toBe(written.plan_sha256)
      const error = yield* refusal(Plan.verify(file, { allowEmpty: false }))
      expect(error._tag).toBe("NoRecipients")
    }).pipe(Effect.provide(layer)))

  it.effect("a refused plan leaves no file behind", () =>
    Effect.gen(function*() {
      const file = tempFile("refused.json")
      const error = yield* refusal(Plan.write({ tags: ["news"], message: "Hello" }, file))
      expect(error._tag).toBe("NoRecipients")
      expect(fs.existsSync(file)).toBe(false)
      expect(fs.readdirSync(temporary).filter((name) => name.startsWith(path.basename(file)))).toStrictEqual([])
    }).pipe(Effect.provide(layer)))

  it.effect("re-indenting the file changes nothing", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("reindented.json")
      const written = yield* Plan.write({ tags: ["news"], message: "Hello" }, file)
      fs.writeFileSync(file, JSON.stringify(readJson(file)))
      expect((yield* Plan.verify(file, { allowEmpty: false })).plan_sha256).toBe(written.plan_sha256)
    }).pipe(Effect.provide(layer)))

  it.effect("a file re-saved with its keys sorted (as `jq -S` does) still verifies: only content is sealed", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("sorted.json")
      const written = yield* Plan.write({ tags: ["news"], message: "“Sale” ☺", id: "p-2" }, file)
      writeJson(file, sortKeys(readJson(file)))
      expect((yield* Plan.verify(file, { allowEmpty: false })).plan_sha256).toBe(written.plan_sha256)
    }).pipe(Effect.provide(layer)))

  const headerEdits: ReadonlyArray<readonly [string, (plan: Record<string, unknown>) => Record<string, unknown>]> = [
    ["message", (plan) => ({ ...plan, message: "Hello!" })],
    ["prefixed", (plan) => ({ ...plan, prefixed: "ACME: Hello!" })],
    ["sent_count", (plan) => ({ ...plan, sent_count: 1 })],
    ["recipients", (plan) => ({ ...plan, recipients: 2 })],
    ["monitors", (plan) => ({ ...plan, monitors: 0 })],
    ["segments", (plan) => ({ ...plan, segments: 2 })],
    ["tags", (plan) => ({ ...plan, tags: ["news", "sport"] })],
    ["short_name", (plan) => ({ ...plan, short_name: "ACME2" })],
    ["id added", (plan) => ({ ...plan, id: "x" })]
  ]

  for (const [field, edit] of headerEdits) {
    it.effect(`an edited header (${field}) with the audience intact is refused: plan_sha256 does not match`, () =>
      Effect.gen(function*() {
        yield* seed(book)
        const file = tempFile("edited.json")
        yield* Plan.write({ tags: ["news"], message: "Hello" }, file)
        writeJson(file, edit(readJson(file)))
        const error = yield* refusal(Plan.verify(file, { allowEmpty: false }))
        expect(error._tag).toBe("PlanMismatch")
        expect(error.message).toMatch(/plan_sha256/)
      }).pipe(Effect.provide(layer)))
  }

  const audienceEdits: ReadonlyArray<
    readonly [string, (audience: ReadonlyArray<readonly [string, string]>) => ReadonlyArray<readonly [string, string]>]
  > = [
    ["a member dropped", (audience) => audience.slice(1)],
    ["a member added", (audience) => [...audience, [msisdnOf(99), "recipient"]]],
    ["a role changed", (audience) => audience.map(([msisdn, role], i) => i === 0 ? [msisdn, role === "recipient" ? "monitor" : "recipient"] : [msisdn, role])],
    ["a number changed", (audience) => audience.map(([msisdn, role], i) => i === 0 ? [msisdnOf(98), role] : [msisdn, role])],
    ["members reordered", (audience) => [...audience].reverse()]
  ]

  for (const [what, edit] of audienceEdits) {
    it.effect(`an edited audience (${what}) is refused: audience_sha256 does not match`, () =>
      Effect.gen(function*() {
        yield* seed(book)
        const file = tempFile("audience.json")
        yield* Plan.write({ tags: ["news"], message: "Hello" }, file)
        const plan = Schema.decodeUnknownSync(PlanJson)(readJson(file))
        writeJson(file, { ...readJson(file), audience: edit(plan.audience) })
        const error = yield* refusal(Plan.verify(file, { allowEmpty: false }))
        expect(error._tag).toBe("PlanMismatch")
        expect(error.message).toMatch(/audience_sha256/)
      }).pipe(Effect.provide(layer)))
  }

  it.effect("an edited audience with its hash recomputed is still refused: the seal covers the audience hash", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("rehashed.json")
      yield* Plan.write({ tags: ["news"], message: "Hello" }, file)
      const original = readJson(file)
      const dropped = Schema.decodeUnknownSync(PlanJson)(original).audience.slice(1)
      const hash = createHash("sha256")
      for (const [msisdn, role] of dropped) hash.update(`${msisdn} ${role}\n`)
      writeJson(file, { ...original, audience: dropped, audience_sha256: hash.digest("hex") })
      const error = yield* refusal(Plan.verify(file, { allowEmpty: false }))
      expect(error._tag).toBe("PlanMismatch")
      expect(error.message).toMatch(/plan_sha256/)
    }).pipe(Effect.provide(layer)))

  it.effect("a plan made under another short name is refused", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("other-name.json")
      yield* Plan.write({ tags: ["news"], message: "Hello" }, file).pipe(Effect.provide(Account.layer(acme)))
      const error = yield* refusal(
        Plan.verify(file, { allowEmpty: false }).pipe(Effect.provide(Account.layer({ ...acme, short_name: "OTHER" })))
      )
      expect(error._tag).toBe("PlanMismatch")
      expect(error.message).toMatch(/short name ACME, not OTHER/)
    }).pipe(Effect.provide(MemoryStore.layer)))

  it.effect("a plan whose audience changed since is refused: a new contact with the tag", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("stale-added.json")
      yield* Plan.write({ tags: ["news"], message: "Hello" }, file)
      yield* seed([{ tags: ["news"], monitoring: false, optedOut: false }], 50)
      const error = yield* refusal(Plan.verify(file, { allowEmpty: false }))
      expect(error._tag).toBe("PlanMismatch")
      expect(error.message).toMatch(/audience changed/)
    }).pipe(Effect.provide(layer)))

  it.effect("a plan whose audience changed since is refused: a new monitor, a recipient opted out, a tag removed", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const changes = [
        seed([{ tags: [], monitoring: true, optedOut: false }], 60),
        ContactBook.optOut(msisdnOf(0)),
        ContactBook.editContact(msisdnOf(1), { tags: ["sport"] })
      ]
      for (const change of changes) {
        const file = tempFile("stale.json")
        yield* Plan.write({ tags: ["news"], message: "Hello", allowEmpty: true }, file)
        yield* change
        const error = yield* refusal(Plan.verify(file, { allowEmpty: true }))
        expect(error._tag).toBe("PlanMismatch")
        expect(error.message).toMatch(/audience changed/)
      }
    }).pipe(Effect.provide(layer)))

  it.effect("a change outside the audience (a contact without the tag, a name) does not stale the plan", () =>
    Effect.gen(function*() {
      yield* seed(book)
      const file = tempFile("unaffected.json")
      const written = yield* Plan.write({ tags: ["news"], message: "Hello" }, file)
      yield* seed([{ tags: ["other"], monitoring: false, optedOut: false }, { tags: ["news"], monitoring: true, optedOut: true }], 70)
      yield* ContactBook.editContact(msisdnOf(0), { first_name: "Renamed" })
      expect((yield* Plan.verify(file, { allowEmpty: false })).plan_sha256).toBe(written.plan_sha256)
    }).pipe(Effect.provide(layer)))

  it.effect("an unreadable path is refused as InvalidParameter --plan", () =>
    Effect.gen(function*() {
      for (const file of [path.join(temporary, "missing.json"), temporary]) {
        const error = yield* refusal(Plan.verify(file, { allowEmpty: false }))
        expect(error._tag).toBe("InvalidParameter")
        if (error._tag === "InvalidParameter") {
          expect(error.parameter).toBe("--plan")
          expect(error.value).toBe(file)
        }
      }
    }).pipe(Effect.provide(layer)))

  it.effect("a file that is not JSON, or JSON that is not a plan, is bad input (InvalidParameter on --plan, exit 2)", () =>
    Effect.gen(function*() {
      for (const text of ["", "{", "not json", "[]", "{}", `{"smsbook_plan": 2}`, `{"audience": [["447400100000", "boss"]]}`]) {
        const file = tempFile("junk.json")
        fs.writeFileSync(file, text)
        const error = yield* refusal(Plan.verify(file, { allowEmpty: false }))
        expect([text, error._tag]).toStrictEqual([text, "InvalidParameter"])
      }
    }).pipe(Effect.provide(layer)))
})

describe("BroadcastId.digestId", () => {
  it("is the same for the same tags in any order and case, differs with the text or the short name, fits an id", async () => {
    const { digestId } = await import("../../src/internal/broadcastId.ts")
    const id = digestId(["News", "vip"], "Hello", "ACME")
    expect(digestId([" vip", "news", "NEWS"], "Hello", "ACME")).toBe(id)
    expect(digestId(["news", "vip"], "Hello!", "ACME")).not.toBe(id)
    expect(digestId(["news", "vip"], "Hello", "ACME2")).not.toBe(id)
    expect(id.length).toBeLessThanOrEqual(40)
  })
})
