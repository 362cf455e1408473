import { InvalidStoreUrl } from "@smsbook/core"
import { describe, expect, it } from "vitest"
import * as Store from "../src/Store.ts"

describe("Store.locate", () => {
  it.each([
    ["./smsbook.db", { kind: "sqlite", path: "./smsbook.db" }],
    ["book.db", { kind: "sqlite", path: "book.db" }],
    ["sqlite:book.db", { kind: "sqlite", path: "book.db" }],
    ["sqlite://book.db", { kind: "sqlite", path: "book.db" }],
    ["sqlite:///var/lib/smsbook.db", { kind: "sqlite", path: "/var/lib/smsbook.db" }],
    ["memory:", { kind: "memory" }],
    ["postgres://u:p@127.0.0.1:5432/db", { kind: "postgres", url: "postgres://u:p@127.0.0.1:5432/db" }],
    ["postgresql://127.0.0.1/db", { kind: "postgres", url: "postgresql://127.0.0.1/db" }]
  ])("%s", (url, location) => expect(Store.locate(url)).toEqual(location))

  it("refuses an unknown scheme, an empty URL and a file-less sqlite URL, never showing a password", () => {
    const mysql = Store.locate("mysql://user:secret@host/db")
    expect(mysql).toBeInstanceOf(InvalidStoreUrl)
    expect(JSON.stringify(mysql)).not.toContain("secret")
    expect(Store.locate("  ")).toBeInstanceOf(InvalidStoreUrl)
    expect(Store.locate("sqlite:")).toBeInstanceOf(InvalidStoreUrl)
  })

  it("refuses a file: URI, which SQLite would open as another file than the one every check of the book looks at; ./file:… is a path", () => {
    for (const url of ["file:book.db", "file:book.db?mode=rw", "sqlite:file:book.db", "file:///tmp/book.db"]) {
      expect([url, Store.locate(url) instanceof InvalidStoreUrl]).toEqual([url, true])
    }
    expect(Store.locate("./file:book.db")).toEqual({ kind: "sqlite", path: "./file:book.db" })
  })
})
