/**
 * What beneath the book a failure comes from (`StoreProblem`), read by each adapter from its driver's codes: here from
 * real node:sqlite errors, and from PostgreSQL's SQLSTATEs and the driver's connection reasons.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DatabaseSync } from "node:sqlite"
import { SqlError } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import * as PgConnection from "../src/internal/postgres/connection.ts"
import * as SqliteErrors from "../src/internal/sqlite/errors.ts"

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smsbook-store-problems-"))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** What `run` throws (it must throw). */
const thrown = (run: () => unknown): unknown => {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error("expected a throw")
}

describe("SQLite: the problem of a node:sqlite error, by SQLite's result code", () => {
  const book = path.join(dir, "book.db")
  const setUp = new DatabaseSync(book)
  setUp.exec("CREATE TABLE t (x TEXT)")
  setUp.close()

  it("a write to a book opened read-only is read-only", () => {
    const db = new DatabaseSync(book, { readOnly: true })
    expect(SqliteErrors.problemOf(thrown(() => db.exec("INSERT INTO t VALUES ('a')")))).toEqual({ problem: "read-only" })
    db.close()
  })

  it("a write past the book's room is a full disk", () => {
    const db = new DatabaseSync(book)
    const pages = Number((db.prepare("PRAGMA page_count").get() as { page_count: number }).page_count)
    db.exec(`PRAGMA max_page_count = ${pages}`)
    const error = thrown(() =>
      db.exec(`INSERT INTO t WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
        SELECT hex(randomblob(1000)) FROM n`)
    )
    expect(SqliteErrors.problemOf(error)).toEqual({ problem: "disk-full" })
    db.close()
  })

  it("a book whose table pages are corrupt is damaged", () => {
    const corrupt = path.join(dir, "corrupt.db")
    const db = new DatabaseSync(corrupt)
    db.exec("CREATE TABLE t (x TEXT); INSERT INTO t WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT hex(randomblob(100)) FROM n")
    db.close()
    // Every page but the first (the header and the schema) overwritten.
    const pageSize = fs.readFileSync(corrupt).readUInt16BE(16)
    const size = fs.statSync(corrupt).size
    const fd = fs.openSync(corrupt, "r+")
    fs.writeSync(fd, Buffer.alloc(size - pageSize, 0x5a), 0, size - pageSize, pageSize)
    fs.closeSync(fd)
    const reader = new DatabaseSync(corrupt)
    expect(SqliteErrors.problemOf(thrown(() => reader.prepare("SELECT count(*) FROM t").get()))).toEqual({ problem: "damaged" })
    reader.close()
  })

  it("a file that is no database at all names no problem: most often the wrong path, which the message says", () => {
    const garbage = path.join(dir, "contacts.csv")
    fs.writeFileSync(garbage, "msisdn,first_name\n".repeat(500))
    const error = thrown(() => new DatabaseSync(garbage).exec("SELECT * FROM sqlite_schema"))
    expect(SqliteErrors.problemOf(error)).toEqual({})
  })

  it("an error of the statement itself, or no SQLite error at all, names no problem", () => {
    const db = new DatabaseSync(":memory:")
    expect(SqliteErrors.problemOf(thrown(() => db.exec("SELECT * FROM nowhere")))).toEqual({})
    expect(SqliteErrors.problemOf(new Error("database or disk is full"))).toEqual({})
    expect(SqliteErrors.problemOf("SQLITE_FULL")).toEqual({})
    db.close()
  })
})

describe("PostgreSQL: the problem of a driver error, by its reason and the server's SQLSTATE", () => {
  const serverError = (code: string) =>
    new SqlError.SqlError({ reason: new SqlError.UnknownError({ cause: Object.assign(new Error("server said no"), { code }), message: "query failed" }) })

  it("a lost or refused connection, and the server's connection exceptions and shutdowns, are the connection", () => {
    const lost = new SqlError.SqlError({ reason: new SqlError.ConnectionError({ cause: new Error("read ECONNRESET"), message: "PgConnection: Socket error" }) })
    expect(PgConnection.problemOf(lost)).toEqual({ problem: "connection" })
    for (const code of ["08006", "08001", "08P01", "57P01", "57P02", "57P03"]) {
      expect(PgConnection.problemOf(serverError(code))).toEqual({ problem: "connection" })
    }
  })

  it("the server's full disk, read-only transaction, I/O error, corruption, refusals and a missing database are named", () => {
    expect(PgConnection.problemOf(serverError("53100"))).toEqual({ problem: "disk-full" })
    expect(PgConnection.problemOf(serverError("25006"))).toEqual({ problem: "read-only" })
    expect(PgConnection.problemOf(serverError("58030"))).toEqual({ problem: "disk-io" })
    expect(PgConnection.problemOf(serverError("XX001"))).toEqual({ problem: "damaged" })
    expect(PgConnection.problemOf(serverError("28P01"))).toEqual({ problem: "access-denied" })
    expect(PgConnection.problemOf(serverError("42501"))).toEqual({ problem: "access-denied" })
    expect(PgConnection.problemOf(serverError("3D000"))).toEqual({ problem: "no-database" })
    const refused = new SqlError.SqlError({ reason: new SqlError.AuthenticationError({ cause: new Error("no"), message: "auth" }) })
    expect(PgConnection.problemOf(refused)).toEqual({ problem: "access-denied" })
  })

  it("an error of the statement or the data names no problem", () => {
    for (const code of ["23505", "42601", "40001", "22P02"]) expect(PgConnection.problemOf(serverError(code))).toEqual({})
    expect(PgConnection.problemOf(new Error("connection refused"))).toEqual({})
  })
})
