/**
 * The port contract suite against the SQLite adapter: a new file per test and per property run, since
 * the suite needs a fresh, empty store each time; pages of 3 rows so every stream crosses pages. Again with group
 * commit (the server's), where every transaction is a savepoint of a shared one.
 */
import { ContractSuite } from "@smsbook/testing"
import * as SqliteStore from "../src/SqliteStore.ts"
import * as SqliteFiles from "./sqliteFiles.ts"

const freshPath = SqliteFiles.folder()

ContractSuite.run("sqlite", () => SqliteStore.layer(freshPath(), { pageSize: 3 }), { numRuns: 25 })
ContractSuite.run("sqlite with group commit", () => SqliteStore.layer(freshPath(), { pageSize: 3, groupCommit: true }), { numRuns: 25 })
