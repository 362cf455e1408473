/**
 * The laws of issue 16, each checked over real `smsbook` processes on one store: kill -9 at random moments of
 * import, broadcast and report; STOP racing edit, import and add; a book moved by export and import keeping its
 * opt-outs; overlapping imports; a fuzz of the command line.
 */
import * as fc from "fast-check"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as Harness from "./Harness.ts"

/** One law checked once: its name and, when it failed, why. */
export interface Check {
  readonly name: string
  readonly failure?: string
}

export type Scenario = (book: Harness.Book, rounds: number) => Promise<ReadonlyArray<Check>>

const check = (name: string, holds: boolean, why: string): Check => holds ? { name } : { name, failure: why }

const brief = (outcome: Harness.Outcome) => `exit ${outcome.code}, stderr ${JSON.stringify(outcome.stderr.slice(-300))}`

const store = (book: Harness.Book) => ["--store", book.url]

/** A random pause in [min, max) ms. */
const pause = (min: number, max: number) => Harness.sleep(min + Math.floor(Math.random() * (max - min)))

/** kill -9 of an import at a random moment: the book is as before or complete, never half; the re-run completes it. */
export const killedImport: Scenario = async (book, rounds) => {
  const checks: Array<Check> = []
  fs.writeFileSync(path.join(book.dir, "seed.csv"), Harness.contactsCsv(0, 50, "seed"))
  const seeded = await Harness.run(["import", "seed.csv", ...store(book)], { cwd: book.dir })
  checks.push(check("import: seed", seeded.code === 0, brief(seeded)))
  for (let round = 0; round < rounds; round++) {
    const file = `big${round}.csv`
    fs.writeFileSync(path.join(book.dir, file), Harness.contactsCsv(round * 20_000, 20_000, `round${round}`))
    const before = Harness.digest(book)
    const job = Harness.start(["import", file, ...store(book)], { cwd: book.dir })
    await pause(400, 4000)
    const killed = await Harness.kill(job)
    const after = Harness.digest(book)
    const rerun = await Harness.run(["import", file, "--json", ...store(book)], { cwd: book.dir })
    const complete = Harness.digest(book)
    const again = await Harness.run(["import", file, "--json", ...store(book)], { cwd: book.dir })
    const summary = again.code === 0 ? JSON.parse(again.stdout) as { read: number; unchanged: number } : undefined
    checks.push(
      check(`import kill ${round}: book unchanged or complete (killed: ${killed.signal ?? `exit ${killed.code}`})`,
        after === before || after === complete, "the killed import left a book that is neither the one before nor the complete one"),
      check(`import kill ${round}: re-run succeeds`, rerun.code === 0, brief(rerun)),
      check(`import kill ${round}: a further run changes nothing`, summary !== undefined && summary.unchanged === 20_000 && Harness.digest(book) === complete,
        again.stdout.slice(0, 300)),
      check(`import kill ${round}: no partial rejects file left after the re-run`,
        !fs.readdirSync(book.dir).some((name) => name.endsWith(".partial")), fs.readdirSync(book.dir).join(" "))
    )
  }
  return checks
}

interface Row {
  readonly id: string
  readonly status: string
  readonly total_recipients: string
  readonly sent_count: string
}

/**
 * kill -9 of a broadcast (no `--id`: its digest id) at a random moment, then the same command again: one message,
 * SENT, every recipient handed every part exactly once, nothing PROCESSING; a re-run after completion is refused.
 */
export const killedBroadcast: Scenario = async (book, rounds) => {
  const checks: Array<Check> = []
  fs.writeFileSync(path.join(book.dir, "audience.csv"), Harness.contactsCsv(500_000, 12_000, "crowd"))
  const seeded = await Harness.run(["import", "audience.csv", ...store(book)], { cwd: book.dir })
  checks.push(check("broadcast: seed", seeded.code === 0, brief(seeded)))
  for (let round = 0; round < rounds; round++) {
    const text = `Shop opens at ${round + 9}, round ${round}`
    const args = ["broadcast", "--tags", "crowd", "--message", text, ...store(book)]
    const job = Harness.start(args, { cwd: book.dir })
    await pause(300, 5000)
    const killed = await Harness.kill(job)
    const rerun = await Harness.run(args, { cwd: book.dir })
    const finishedBefore = killed.code === 0
    const messages = book.query(`SELECT coalesce(id, ''), status, total_recipients, sent_count FROM messages WHERE message = '${text.replace(/'/g, "''")}'`)
      .map(([id = "", status = "", total_recipients = "", sent_count = ""]): Row => ({ id, status, total_recipients, sent_count }))
    const parts = book.query(
      `SELECT count(*) FROM outbox o JOIN messages m ON m.message_id = o.message_id WHERE m.message = '${text.replace(/'/g, "''")}'`
    )[0]?.[0]
    const doubles = book.query(
      `SELECT o.msisdn, o.part, count(*) FROM outbox o JOIN messages m ON m.message_id = o.message_id WHERE m.message = '${
        text.replace(/'/g, "''")
      }' GROUP BY o.msisdn, o.part HAVING count(*) > 1`
    )
    const handed = book.query(
      `SELECT count(DISTINCT o.msisdn) FROM outbox o JOIN messages m ON m.message_id = o.message_id WHERE m.message = '${text.replace(/'/g, "''")}'`
    )[0]?.[0]
    const what = `killed: ${killed.signal ?? `exit ${killed.code}`}`
    checks.push(
      // A broadcast that had finished is the same one sent again: refused as a duplicate (exit 1), sending nothing.
      check(
        `broadcast kill ${round}: the re-run finishes it (${what})`,
        finishedBefore ? rerun.code === 1 && rerun.stderr.includes("DUPLICATE_SEND") : rerun.code === 0,
        brief(rerun)
      ),
      check(`broadcast kill ${round}: one message, SENT`, messages.length === 1 && messages[0]?.status === "SENT", JSON.stringify(messages)),
      check(`broadcast kill ${round}: no double sends`, doubles.length === 0, `${doubles.length} numbers got a part twice`),
      check(`broadcast kill ${round}: no losses`, handed === "12000" && messages[0]?.total_recipients === "12000",
        `handed to ${handed}, recipients ${messages[0]?.total_recipients}`),
      // The counts move with each committed batch: through the kill and the re-run they count every part handed over.
      check(`broadcast kill ${round}: sent_count counts every part handed over`, messages[0]?.sent_count === parts,
        `sent_count ${messages[0]?.sent_count}, parts ${parts}`),
      check(`broadcast kill ${round}: nothing PROCESSING`, book.query("SELECT count(*) FROM messages WHERE status IN ('PENDING', 'PROCESSING')")[0]?.[0] === "0",
        "a message was left unfinished")
    )
  }
  return checks
}

/** kill -9 of a report at a random moment: the output is the earlier file or the whole report, never half; the book is unchanged. */
export const killedReport: Scenario = async (book, rounds) => {
  const checks: Array<Check> = []
  // Enough messages that a kill lands while the report is being written, on either store.
  const count = book.kind === "sqlite" ? "60000" : "30000"
  const seeded = spawnSync(process.execPath, [path.join(Harness.repo, "scripts/bench/SeedMessages.ts"), book.url, count], { encoding: "utf8" })
  checks.push(check(`report: seed ${count} messages`, seeded.status === 0, seeded.stderr))
  const clean = await Harness.run(["report", "--out", "clean.csv", ...store(book)], { cwd: book.dir })
  checks.push(check("report: clean run", clean.code === 0, brief(clean)))
  const whole = Harness.fileDigest(path.join(book.dir, "clean.csv"))
  for (let round = 0; round < rounds; round++) {
    const out = path.join(book.dir, "out.csv")
    fs.writeFileSync(out, "the earlier report\n")
    const earlier = Harness.fileDigest(out)
    const before = Harness.digest(book)
    const job = Harness.start(["report", "--out", "out.csv", ...store(book)], { cwd: book.dir })
    await pause(300, 3000)
    const killed = await Harness.kill(job)
    const left = Harness.fileDigest(out)
    checks.push(
      check(`report kill ${round}: output earlier or whole (killed: ${killed.signal ?? `exit ${killed.code}`})`, left === earlier || left === whole,
        "a half-written report is in place"),
      check(`report kill ${round}: book unchanged`, Harness.digest(book) === before, "the report changed the book")
    )
    const rerun = await Harness.run(["report", "--out", "out.csv", ...store(book)], { cwd: book.dir })
    checks.push(
      check(`report kill ${round}: re-run gives the whole report`, rerun.code === 0 && Harness.fileDigest(out) === whole, brief(rerun)),
      check(`report kill ${round}: no partial file left after the re-run`, !fs.readdirSync(book.dir).some((name) => name.includes(".partial")),
        fs.readdirSync(book.dir).join(" "))
    )
  }
  return checks
}

const statusOf = (book: Harness.Book, msisdn: string): string | undefined =>
  book.query(`SELECT status FROM contacts WHERE msisdn = '${msisdn}'`)[0]?.[0]

const inbound = (book: Harness.Book, msisdn: string): number =>
  Number(book.query(`SELECT count(*) FROM messages WHERE direction = 'MO' AND msisdn = '${msisdn}'`)[0]?.[0] ?? "0")

/**
 * STOP (`receive --message STOP`) racing `contacts edit`, `import` and `contacts add` of the same number, as real
 * concurrent processes with a random stagger: the contact ends CANCELLED and the inbound message is recorded.
 */
export const stopRaces: Scenario = async (book, rounds) => {
  const checks: Array<Check> = []
  const seeded = await Harness.run(["import", "-", ...store(book)], { cwd: book.dir, input: Harness.contactsCsv(900_000, 1, "seed") })
  checks.push(check("stop race: seed", seeded.code === 0, brief(seeded)))
  for (let round = 0; round < rounds; round++) {
    for (const kind of ["edit", "import", "add"] as const) {
      const msisdn = `4474${String(700_000 + round * 10 + ["edit", "import", "add"].indexOf(kind)).padStart(8, "0")}`
      if (kind !== "add") {
        const added = await Harness.run(["contacts", "add", msisdn, "--first-name", "Ann", ...store(book)], { cwd: book.dir })
        checks.push(check(`stop race ${kind} ${round}: setup`, added.code === 0, brief(added)))
      }
      const rival = kind === "edit"
        ? ["contacts", "edit", msisdn, "--first-name", `Edited${round}`]
        : kind === "import"
        ? ["import", "-"]
        : ["contacts", "add", msisdn, "--first-name", "Late"]
      const stagger = Math.floor(Math.random() * 400) - 200
      const stop = async () => {
        if (stagger > 0) await Harness.sleep(stagger)
        return Harness.run(["receive", "--msisdn", msisdn, "--message", "STOP", ...store(book)], { cwd: book.dir })
      }
      const other = async () => {
        if (stagger < 0) await Harness.sleep(-stagger)
        return Harness.run([...rival, ...store(book)], { cwd: book.dir, input: `msisdn,first_name\n${msisdn},Imported${round}\n` })
      }
      const [stopped, rivalled] = await Promise.all([stop(), other()])
      const rivalOk = rivalled.code === 0 || (kind === "add" && rivalled.code === 1 && rivalled.stderr.includes("CONTACT_EXISTS"))
      checks.push(
        check(`stop race ${kind} ${round}: STOP recorded (inbound never lost)`, stopped.code === 0 && inbound(book, msisdn) === 1, brief(stopped)),
        check(`stop race ${kind} ${round}: ${kind} succeeds or is refused cleanly`, rivalOk, brief(rivalled)),
        check(`stop race ${kind} ${round}: ends CANCELLED`, statusOf(book, msisdn) === "CANCELLED", `status ${statusOf(book, msisdn)}`)
      )
    }
  }
  return checks
}

/**
 * A book moved with `contacts export` + `import` and `suppressions export` + `suppressions import` into a new SQLite
 * book, each load killed at a random moment and run again: every number that opted out (by STOP) and still has its
 * contact is CANCELLED in the new book, every other contact SUBSCRIBED, and the suppression list is the old one exactly,
 * with the opt-outs of deleted contacts and of numbers that never had one.
 */
export const movedBook: Scenario = async (book, rounds) => {
  const checks: Array<Check> = []
  const people = 3_000
  const number = (n: number) => `4474${String(3_000_000 + n).padStart(8, "0")}`
  const seeded = await Harness.run(["import", "-", ...store(book)], { cwd: book.dir, input: Harness.contactsCsv(3_000_000, people, "moved") })
  checks.push(check("moved book: seed", seeded.code === 0, brief(seeded)))
  const setUp = async (args: ReadonlyArray<string>) => {
    const ran = await Harness.run([...args, ...store(book)], { cwd: book.dir })
    if (ran.code !== 0) checks.push(check(`moved book: ${args.join(" ")}`, false, brief(ran)))
  }
  const stopped = new Set<string>()
  for (let i = 0; i < people; i += 97) stopped.add(number(i))
  for (const msisdn of stopped) await setUp(["receive", "--msisdn", msisdn, "--message", "STOP"])
  // Some of them then deleted (their opt-out stays), and numbers never in the book opted out by hand.
  const deleted = new Set([...stopped].filter((_, i) => i % 3 === 0))
  for (const msisdn of deleted) await setUp(["contacts", "rm", msisdn])
  const alone = [1, 2, 3, 4, 5].map((i) => number(people + i * 11))
  for (const msisdn of alone) await setUp(["suppressions", "add", msisdn])
  const suppressedBefore = new Set([...stopped, ...alone])
  for (const [what, args] of [["contacts", ["contacts", "export", "--out", "moved.csv"]], ["suppressions", ["suppressions", "export", "--out", "suppressed.csv"]]] as const) {
    const exported = await Harness.run([...args, ...store(book)], { cwd: book.dir })
    checks.push(check(`moved book: ${what} export`, exported.code === 0, brief(exported)))
  }
  for (let round = 0; round < rounds; round++) {
    const target = path.join(book.dir, `moved${round}.db`)
    // The contacts first: `import` creates the book, which `suppressions import` needs.
    for (const load of [["import", "moved.csv"], ["suppressions", "import", "suppressed.csv"]]) {
      const job = Harness.start([...load, "--store", target], { cwd: book.dir })
      await pause(100, 1500)
      await Harness.kill(job)
      const again = await Harness.run([...load, "--json", "--store", target], { cwd: book.dir })
      checks.push(check(`moved book ${round}: ${load.join(" ")}, run again after kill -9, succeeds`, again.code === 0, brief(again)))
    }
    const db = new DatabaseSync(target, { readOnly: true })
    try {
      const statuses = new Map(db.prepare("SELECT msisdn, status FROM contacts").all().map((row) => [String(row["msisdn"]), String(row["status"])]))
      const suppressed = new Set(db.prepare("SELECT msisdn FROM suppressions").all().map((row) => String(row["msisdn"])))
      const wrong = [...statuses].filter(([msisdn, status]) => (status === "CANCELLED") !== stopped.has(msisdn))
      const missing = [...suppressedBefore].filter((msisdn) => !suppressed.has(msisdn))
      checks.push(
        check(`moved book ${round}: every contact moved, none invented`, statuses.size === people - deleted.size && [...deleted].every((m) => !statuses.has(m)),
          `${statuses.size} contacts for ${people - deleted.size}`),
        check(`moved book ${round}: exactly the opted-out numbers are CANCELLED`, wrong.length === 0, `${wrong.length} wrong, e.g. ${JSON.stringify(wrong.slice(0, 3))}`),
        check(`moved book ${round}: the suppression list moved whole (deleted contacts' and lone numbers' opt-outs too)`,
          missing.length === 0 && suppressed.size === suppressedBefore.size,
          `${suppressed.size} suppressed for ${suppressedBefore.size}; missing ${JSON.stringify(missing.slice(0, 3))}`)
      )
    } finally {
      db.close()
    }
  }
  return checks
}

/** Imports of overlapping files at once: all succeed, and the book holds the union. */
export const overlappingImports: Scenario = async (book, rounds) => {
  const checks: Array<Check> = []
  for (let round = 0; round < rounds; round++) {
    const first = 2_000_000 + round * 10_000
    const files = [0, 1, 2].map((i) => {
      const file = `overlap${round}-${i}.csv`
      fs.writeFileSync(path.join(book.dir, file), Harness.contactsCsv(first + i * 1_000, 3_000, `overlap${i}`))
      return file
    })
    const outcomes = await Promise.all(files.map((file) => Harness.run(["import", file, ...store(book)], { cwd: book.dir })))
    outcomes.forEach((outcome, i) => checks.push(check(`overlapping imports ${round}: import ${i} succeeds`, outcome.code === 0, brief(outcome))))
    const count = book.query(
      `SELECT count(*) FROM contacts WHERE msisdn >= '4474${String(first).padStart(8, "0")}' AND msisdn < '4474${String(first + 5_000).padStart(8, "0")}'`
    )[0]?.[0]
    checks.push(check(`overlapping imports ${round}: the book holds the union`, count === "5000", `${count} contacts`))
  }
  return checks
}

/** Whether `file` is still a SQLite database: a regular file opening with SQLite's header. */
const isSqliteFile = (file: string): boolean => {
  if (!fs.statSync(file).isFile()) return false
  const header = Buffer.alloc(16)
  const fd = fs.openSync(file, "r")
  try {
    fs.readSync(fd, header, 0, 16, 0)
  } finally {
    fs.closeSync(fd)
  }
  return header.toString("latin1") === "SQLite format 3\u0000"
}

/** Hostile bytes for a file: valid rows mixed with NUL, BOMs, lone CR, escapes, quotes, invalid UTF-8, wide text. */
const hostileFile = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.array(
    fc.oneof(
      fc.constantFrom("msisdn,first_name\n", "+447400123456,Ann\n", "07400 123457,Bob\r", "\"unclosed,", "a\"b\",c\n", "sep=;\n"),
      fc.constantFrom("\u0000", "\u001b]0;pwned\u0007", "\u202e", "\r\n", "\uFEFF", "\uFFFD", "\u0085"),
      fc.string({ unit: "binary", maxLength: 20 })
    ),
    { maxLength: 12 }
  ).map((parts) => Buffer.from(parts.join(""), "utf8")),
  fc.string({ maxLength: 60 }).map((text) => Buffer.from(`msisdn,first_name\n${text}\n`, "utf16le"))
)

/**
 * Symbolic links beside the book, by name, to what they lead to (relative to the book's folder): an output named by
 * one is written through it, and the link stays a link; one that leads to an input or the store (its -wal too, there or
 * not) is refused as that file is. The store's links are made for a SQLite book only.
 */
const links = {
  "in-link.csv": "in.csv",
  "book-link.db": "book.db",
  "wal-link.csv": "book.db-wal",
  "out-link.csv": "reports/out.csv",
  "dangling.csv": "reports/none/out.csv"
} as const

/**
 * Flag values a careless script passes: empty, blank, dash-led, control characters, the input or the store. NUL
 * is left out: no process can receive it in an argument.
 */
const hostileValue = fc.oneof(
  fc.constantFrom("", " ", "-", "--", "-5", "-h", "$UNSET", "\u0001", "\u001b[31m", "../in.csv", "in.csv", "book.db", "book.db-wal", "/dev/null", "/dev/full", "."),
  fc.constantFrom(...Object.keys(links)),
  fc.string({ maxLength: 30 }).filter((text) => !text.includes("\u0000"))
)

/** The command lines of the fuzz: each reads `in.csv` or `msg.txt` and may write over something it must not. */
const commandLine = fc.oneof(
  fc.tuple(fc.constant("import"), hostileValue, hostileValue).map(([, rejects, encoding]) =>
    ["import", "in.csv", "--rejects", rejects, ...(encoding === "" ? [] : ["--encoding", encoding])]
  ),
  fc.tuple(hostileValue, fc.boolean()).map(([value, dry]) => ["import", "in.csv", ...(dry ? ["--dry-run"] : []), "--default-country", value]),
  fc.tuple(hostileValue, hostileValue).map(([message, tags]) => ["broadcast", "--tags", tags, "--message", message]),
  fc.tuple(hostileValue, fc.boolean()).map(([plan, dry]) => ["broadcast", "--tags", "fuzz", "--message-file", "msg.txt", ...(dry ? ["--dry-run"] : []), "--plan", plan]),
  hostileValue.map((out) => ["report", "--out", out]),
  hostileValue.map((out) => ["contacts", "export", "--out", out]),
  hostileValue.map((name) => ["contacts", "add", "447400999999", "--first-name", name]),
  hostileValue.map((value) => ["contacts", "list", "--query", value]),
  hostileValue.map((value) => ["send", "--to", "447400123456", "--message", value]),
  hostileValue.map((value) => ["contacts", "list", "--store", value])
)

/**
 * The command line over generated hostile files and flag values: no crash (no stack trace), an exit code in
 * {0, 1, 2, 3}, the book unchanged when the command failed, and no input or store file overwritten by an output.
 */
export const fuzz: Scenario = async (book, rounds) => {
  const checks: Array<Check> = []
  fs.writeFileSync(path.join(book.dir, "seed.csv"), Harness.contactsCsv(3_000_000, 20, "fuzz"))
  const seeded = await Harness.run(["import", "seed.csv", ...store(book)], { cwd: book.dir })
  checks.push(check("fuzz: seed", seeded.code === 0, brief(seeded)))
  const storeFile = book.kind === "sqlite" ? book.url : undefined
  fs.mkdirSync(path.join(book.dir, "reports"), { recursive: true })
  const made: Array<string> = []
  for (const [link, target] of Object.entries(links)) {
    const to = link === "book-link.db" || link === "wal-link.csv"
      ? storeFile === undefined ? undefined : storeFile + target.slice("book.db".length)
      : path.join(book.dir, target)
    if (to === undefined) continue
    fs.symlinkSync(to, path.join(book.dir, link))
    made.push(path.join(book.dir, link))
  }
  const isLink = (file: string) => fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true
  let runs = 0
  await fc.assert(
    fc.asyncProperty(hostileFile, hostileFile, commandLine, async (input, message, args) => {
      runs++
      fs.writeFileSync(path.join(book.dir, "in.csv"), input)
      fs.writeFileSync(path.join(book.dir, "msg.txt"), message)
      const kept = { input: Harness.fileDigest(path.join(book.dir, "in.csv")), message: Harness.fileDigest(path.join(book.dir, "msg.txt")) }
      const before = Harness.digest(book)
      const storeArgs = args.includes("--store") ? [] : store(book)
      const outcome = await Harness.run([...args, ...storeArgs], { cwd: book.dir })
      const label = JSON.stringify(args)
      const problems = [
        ...(outcome.code !== null && [0, 1, 2, 3].includes(outcome.code) ? [] : [`exit ${outcome.code} ${outcome.signal ?? ""}`]),
        ...(Harness.looksLikeCrash(outcome.stderr) ? [`a crash on stderr: ${outcome.stderr.slice(0, 400)}`] : []),
        ...(outcome.code !== 0 && Harness.digest(book) !== before ? ["the book changed though the command failed"] : []),
        // A file is protected where the command reads it; any other path is an output the user named.
        ...(args[0] === "import" && Harness.fileDigest(path.join(book.dir, "in.csv")) !== kept.input ? ["in.csv was overwritten"] : []),
        ...(args.includes("msg.txt") && Harness.fileDigest(path.join(book.dir, "msg.txt")) !== kept.message ? ["msg.txt was overwritten"] : []),
        ...(storeFile !== undefined && !isSqliteFile(storeFile) ? ["the store is gone or was written over"] : []),
        ...(fs.statSync("/dev/null").isCharacterDevice() ? [] : ["/dev/null was replaced"]),
        ...(made.every(isLink) ? [] : ["a symbolic link named as an output was replaced or removed"])
      ]
      if (problems.length > 0) throw new Error(`${label}: ${problems.join("; ")}`)
    }),
    { numRuns: rounds, endOnFailure: true }
  ).then(
    () => checks.push({ name: `fuzz: ${runs} hostile command lines` }),
    (error: unknown) => checks.push({ name: `fuzz: ${runs} hostile command lines`, failure: String(error).slice(0, 3000) })
  )
  return checks
}
