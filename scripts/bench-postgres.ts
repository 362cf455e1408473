/**
 * `npm run bench -- postgres`: the import into PostgreSQL against what the server itself can do with the same rows —
 * `psql \copy` of the normalised contacts into a staging table plus the same merge — and the two ways a Node driver
 * can stage them (`unnest` arrays over `@effect/sql-pg`, which smsbook uses; `COPY FROM STDIN` over `pg` +
 * `pg-copy-streams`, measured only). Every case loads a fresh database; prints the table, updates docs/benchmarks.md.
 */
import { PgClient } from "@effect/sql-pg"
import { parse } from "csv-parse/sync"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pipeline } from "node:stream/promises"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import pg from "pg"
import { from as copyFrom } from "pg-copy-streams"
import * as Child from "./bench/Child.ts"
import * as Flags from "./bench/Flags.ts"
import * as ContactsFile from "./bench/ContactsFile.ts"

const repo = fileURLToPath(new URL("..", import.meta.url))
const bin = path.join(repo, "packages/batch/src/bin.ts")
const log = (text: string): void => void process.stderr.write(`[bench:pg ${new Date().toISOString().slice(11, 19)}] ${text}\n`)

/** The staged columns, in the order of the normalised file. */
const columns = [
  "msisdn", "phone_number", "first_name", "last_name", "full_name", "country_code", "tags", "profile_uid", "first_name_lower",
  "last_name_lower"
] as const

const stagingTable = `CREATE TABLE staging (msisdn text COLLATE "C" NOT NULL, phone_number text NOT NULL, first_name text NOT NULL,
  last_name text NOT NULL, full_name text NOT NULL, country_code text NOT NULL, tags jsonb NOT NULL, profile_uid text NOT NULL,
  first_name_lower text NOT NULL, last_name_lower text NOT NULL)`

/** The merge of a first import, as smsbook's set-based import does it: contacts in key order, then their tags. */
const merge = [
  `INSERT INTO contacts (msisdn, phone_number, first_name, last_name, full_name, country_code, added_from, status, tags, profile_uid,
    monitoring, first_name_lower, last_name_lower, full_name_lower)
   SELECT s.msisdn, s.phone_number, s.first_name, s.last_name, s.full_name, s.country_code, 'FILE_UPLOAD',
     CASE WHEN EXISTS (SELECT 1 FROM suppressions AS sp WHERE sp.msisdn = s.msisdn) THEN 'CANCELLED' ELSE 'SUBSCRIBED' END,
     s.tags, s.profile_uid, false, s.first_name_lower, s.last_name_lower,
     CASE WHEN s.first_name_lower = '' THEN s.last_name_lower WHEN s.last_name_lower = '' THEN s.first_name_lower
       ELSE s.first_name_lower || ' ' || s.last_name_lower END
   FROM staging AS s ORDER BY s.msisdn ON CONFLICT (msisdn) DO NOTHING`,
  `INSERT INTO contact_tags (tag, msisdn) SELECT DISTINCT lower(k.key), s.msisdn FROM staging AS s, jsonb_array_elements_text(s.tags) AS k (key)
   ORDER BY 1, 2 ON CONFLICT DO NOTHING`,
  "ANALYZE contacts",
  "ANALYZE contact_tags"
]

const psql = (url: string, args: ReadonlyArray<string>): void => {
  const run = spawnSync("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, ...args], { encoding: "utf8" })
  if (run.status !== 0) throw new Error(`psql ${args.join(" ")}: ${run.stderr}`)
}

/** A fresh database with smsbook's schema (created by `smsbook init`, so it is the schema the import writes to). */
const freshBook = (server: string, name: string, dir: string): string => {
  psql(server, ["-c", `DROP DATABASE IF EXISTS ${name}`, "-c", `CREATE DATABASE ${name}`])
  const url = new URL(server)
  url.pathname = `/${name}`
  const init = spawnSync(process.execPath, [bin, "init", "--no-input", "--force", "--store", url.href], { cwd: dir, encoding: "utf8" })
  if (init.status !== 0) throw new Error(`smsbook init: ${init.stderr}`)
  return url.href
}

const contactCount = (url: string): number => {
  const run = spawnSync("psql", ["-X", "-At", "-d", url, "-c", "SELECT count(*) FROM contacts"], { encoding: "utf8" })
  return Number(run.stdout.trim())
}

interface Measured {
  readonly case: string
  readonly seconds: number
  readonly cpuSeconds: number | undefined
  readonly contacts: number
}

/** Times `run` (wall); the database work happens in the server, so wall time is the measure that counts. */
const timed = async (name: string, url: string, run: () => Promise<number | undefined> | number | undefined): Promise<Measured> => {
  const started = performance.now()
  const cpuSeconds = await run()
  const seconds = (performance.now() - started) / 1000
  const measured = { case: name, seconds, cpuSeconds, contacts: contactCount(url) }
  log(`${name}: ${seconds.toFixed(1)} s, ${measured.contacts} contacts`)
  return measured
}

/** The normalised rows of a book, as CSV in {@link columns} order (the staging table's input). */
const exportRows = (url: string, file: string): void =>
  psql(url, ["-c", `\\copy (SELECT ${columns.join(", ")} FROM contacts ORDER BY profile_uid) TO '${file}' WITH (FORMAT csv)`])

/** The normalised file's rows of fields, read by csv-parse as every CSV smsbook reads. */
const readRows = (file: string): ReadonlyArray<ReadonlyArray<string>> => parse(fs.readFileSync(file))

const stageByUnnest = (url: string, rows: ReadonlyArray<ReadonlyArray<string>>, batch: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql.unsafe(stagingTable.replace("CREATE TABLE", "CREATE TEMP TABLE") + " ON COMMIT DROP")
      for (let at = 0; at < rows.length; at += batch) {
        const slice = rows.slice(at, at + batch)
        const column = (index: number) => slice.map((row) => row[index] ?? "")
        yield* sql`INSERT INTO staging SELECT * FROM unnest(${column(0)}::text[], ${column(1)}::text[], ${column(2)}::text[],
          ${column(3)}::text[], ${column(4)}::text[], ${column(5)}::text[], ${column(6)}::jsonb[], ${column(7)}::text[],
          ${column(8)}::text[], ${column(9)}::text[])`
      }
      for (const statement of merge.slice(0, 2)) yield* sql.unsafe(statement)
    }))
    for (const statement of merge.slice(2)) yield* sql.unsafe(statement)
  }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url) })))

const stageByCopy = async (url: string, file: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("BEGIN")
    await client.query(stagingTable.replace("CREATE TABLE", "CREATE TEMP TABLE") + " ON COMMIT DROP")
    await pipeline(fs.createReadStream(file), client.query(copyFrom(`COPY staging (${columns.join(", ")}) FROM STDIN WITH (FORMAT csv)`)))
    for (const statement of merge.slice(0, 2)) await client.query(statement)
    await client.query("COMMIT")
    for (const statement of merge.slice(2)) await client.query(statement)
  } finally {
    await client.end()
  }
}

const usage = `npm run bench -- postgres [flags]

  --rows N      contacts in the generated file (default 200,000)
  --url URL     the PostgreSQL server (default SMSBOOK_TEST_POSTGRES_URL; scripts/postgres.sh start runs one)
  --no-doc      do not update docs/benchmarks.md
`

const main = async (): Promise<number> => {
  const values = Flags.read(usage, () =>
    parseArgs({ options: { rows: { type: "string" }, url: { type: "string" }, "no-doc": { type: "boolean" }, help: { type: "boolean", short: "h" } } }))
  const server = values.url ?? process.env["SMSBOOK_TEST_POSTGRES_URL"]
  if (server === undefined || server === "") {
    process.stderr.write("a PostgreSQL server is needed: --url postgres://… or SMSBOOK_TEST_POSTGRES_URL (scripts/postgres.sh start)\n")
    return 2
  }
  const rows = Number((values.rows ?? "200000").replaceAll(/[,_]/g, ""))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-bench-pg-"))
  try {
    const input = path.join(dir, "contacts.csv")
    const stats = await ContactsFile.write(input, rows)
    log(ContactsFile.describe(stats).split("\n")[0] ?? "")
    const results: Array<Measured> = []
    const first = freshBook(server, "smsbook_bench_import", dir)
    const imported = await timed("smsbook import (CSV file, numbers read, staged by unnest, merged)", first, async () => {
      const run = await Child.run(bin, ["import", input, "--default-country", "GB", "--store", first, "--json"], { cwd: dir })
      if (run.code !== 0) throw new Error(`smsbook import: ${run.stderr}`)
      return run.cpuSeconds
    })
    results.push(imported)
    const normalised = path.join(dir, "normalised.csv")
    exportRows(first, normalised)
    const book = freshBook(server, "smsbook_bench_copy", dir)
    results.push(await timed("psql \\copy of the normalised rows into staging + the merge (reference)", book, () => {
      psql(book, ["-c", `${stagingTable.replace("CREATE TABLE", "CREATE TEMP TABLE")}`, "-c",
        `\\copy staging (${columns.join(", ")}) FROM '${normalised}' WITH (FORMAT csv)`, ...merge.flatMap((statement) => ["-c", statement])])
      return undefined
    }))
    const parsed = readRows(normalised)
    for (const batch of [1000, 10_000]) {
      const url = freshBook(server, `smsbook_bench_unnest_${batch}`, dir)
      results.push(await timed(`@effect/sql-pg: unnest arrays into staging (${batch} rows a statement) + the merge`, url, async () => {
        const cpu = process.cpuUsage()
        await Effect.runPromise(stageByUnnest(url, parsed, batch))
        const used = process.cpuUsage(cpu)
        return (used.user + used.system) / 1e6
      }))
    }
    const copied = freshBook(server, "smsbook_bench_pgcopy", dir)
    results.push(await timed("pg + pg-copy-streams: COPY FROM STDIN into staging + the merge", copied, async () => {
      const cpu = process.cpuUsage()
      await stageByCopy(copied, normalised)
      const used = process.cpuUsage(cpu)
      return (used.user + used.system) / 1e6
    }))
    const reference = results[1]?.seconds ?? Number.NaN
    const table = [
      "| case | seconds | × psql \\copy + merge | client CPU s | contacts |",
      "|---|---:|---:|---:|---:|",
      ...results.map((r) =>
        `| ${r.case} | ${r.seconds.toFixed(1)} | ${(reference / r.seconds).toFixed(2)}× | ${r.cpuSeconds === undefined ? "—" : r.cpuSeconds.toFixed(1)} | ${r.contacts.toLocaleString("en")} |`
      )
    ]
    process.stdout.write(`${table.join("\n")}\n`)
    if (values["no-doc"] !== true) {
      const doc = path.join(repo, "docs/benchmarks.md")
      const load = os.loadavg().map((n) => n.toFixed(2)).join(" / ")
      const section = [
        "<!-- pg-bench:start -->",
        `## PostgreSQL import (\`npm run bench -- postgres --rows ${rows}\`) — ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
        "",
        `${rows.toLocaleString("en")} rows of the multi-country bench file (${stats.valid.toLocaleString("en")} distinct valid numbers); each case loads a fresh database of PostgreSQL ${serverVersion(server)} on 127.0.0.1 (the same machine, load average ${load} at the end). Seconds are wall time: the server's work is most of it. The reference is what PostgreSQL itself needs for these contacts: \`psql \\copy\` of the normalised rows (smsbook's own result, exported) into a staging table, then the merge smsbook runs (contacts in key order, their tags, ANALYZE).`,
        "",
        ...table,
        "<!-- pg-bench:end -->"
      ].join("\n")
      const text = fs.readFileSync(doc, "utf8")
      const start = text.indexOf("<!-- pg-bench:start -->")
      const end = text.indexOf("<!-- pg-bench:end -->")
      fs.writeFileSync(doc, start >= 0 && end > start
        ? text.slice(0, start) + section + text.slice(end + "<!-- pg-bench:end -->".length)
        : `${text.trimEnd()}\n\n${section}\n`)
      log("wrote docs/benchmarks.md")
    }
    for (const name of ["import", "copy", "unnest_1000", "unnest_10000", "pgcopy"]) psql(server, ["-c", `DROP DATABASE IF EXISTS smsbook_bench_${name}`])
    return 0
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const serverVersion = (url: string): string =>
  spawnSync("psql", ["-X", "-At", "-d", url, "-c", "SHOW server_version"], { encoding: "utf8" }).stdout.trim().split(" ")[0] ?? "?"

process.exitCode = await main()
