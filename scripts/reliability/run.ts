/**
 * `npm run test:reliability`: the laws of issue 16 over real `smsbook` processes, on SQLite and (when
 * SMSBOOK_TEST_POSTGRES_URL is set) PostgreSQL; prints every check and ends with `N passed, M failed` (exit 1 on any failure).
 */
import * as Harness from "./Harness.ts"
import * as Scenarios from "./Scenarios.ts"

/** Rounds per scenario: few enough to stay within a few minutes on a two-core machine. `RELIABILITY_SCALE` multiplies them. */
const scale = Math.max(1, Number(process.env["RELIABILITY_SCALE"] ?? "1") || 1)

const scenarios: ReadonlyArray<readonly [string, Scenarios.Scenario, number]> = [
  ["kill -9 import", Scenarios.killedImport, 2],
  ["kill -9 broadcast", Scenarios.killedBroadcast, 3],
  ["kill -9 report", Scenarios.killedReport, 2],
  ["STOP races", Scenarios.stopRaces, 2],
  ["moved book", Scenarios.movedBook, 2],
  ["overlapping imports", Scenarios.overlappingImports, 1],
  ["command-line fuzz", Scenarios.fuzz, 25]
]

const stores: ReadonlyArray<readonly [string, () => Harness.Book]> = [
  ["sqlite", Harness.sqliteBook],
  ...(process.env["SMSBOOK_TEST_POSTGRES_URL"] === undefined || process.env["SMSBOOK_TEST_POSTGRES_URL"] === ""
    ? []
    : [["postgres", () => Harness.postgresBook(process.env["SMSBOOK_TEST_POSTGRES_URL"] ?? "")] as const])
]

const only = process.argv.slice(2)

const main = async () => {
  const started = Date.now()
  let passed = 0
  let failed = 0
  if (stores.length === 1) console.log("PostgreSQL: not run (SMSBOOK_TEST_POSTGRES_URL is not set)")
  for (const [storeName, makeBook] of stores) {
    for (const [name, scenario, rounds] of scenarios) {
      if (only.length > 0 && !only.some((word) => `${storeName} ${name}`.includes(word))) continue
      const book = makeBook()
      const at = Date.now()
      let checks: ReadonlyArray<Scenarios.Check>
      try {
        checks = await scenario(book, rounds * scale)
      } catch (error) {
        checks = [{ name: `${name}: ran to its end`, failure: error instanceof Error ? error.stack ?? error.message : String(error) }]
      } finally {
        Harness.killAll()
        book.drop()
      }
      for (const result of checks) {
        if (result.failure === undefined) passed++
        else {
          failed++
          console.log(`  FAIL [${storeName}] ${result.name}: ${result.failure}`)
        }
      }
      const bad = checks.filter((result) => result.failure !== undefined).length
      console.log(`${bad === 0 ? "ok  " : "FAIL"} [${storeName}] ${name}: ${checks.length - bad}/${checks.length} in ${((Date.now() - at) / 1000).toFixed(1)} s`)
    }
  }
  console.log(`${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  process.exitCode = failed === 0 ? 0 : 1
}

process.on("SIGINT", () => {
  Harness.killAll()
  process.exit(130)
})

await main()
