/**
 * The port contract suite against the memory store, the reference every other adapter is checked
 * against: it must pass the same suite, and with more property runs, since it is cheap.
 */
import { MemoryStore } from "@smsbook/core"
import { ContractSuite } from "@smsbook/testing"

ContractSuite.run("memory", () => MemoryStore.layer, { numRuns: 50 })
