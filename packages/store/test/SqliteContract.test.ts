import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ContractSuite } from "@smsbook/testing"
import { afterAll } from "vitest"
import * as SqliteStore from "../src/SqliteStore.ts"

const dir = mkdtempSync(join(tmpdir(), "smsbook-sqlite-contract-"))
let files = 0
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A new file per test and per property run: the suite needs a fresh, empty store each time.
// A small page size so every stream crosses pages.
ContractSuite.run("sqlite", () => SqliteStore.layer(join(dir, `contract-${files++}.db`), { pageSize: 3 }), { numRuns: 25 })
