import { MemoryStore } from "../src/testing.ts"
import * as ContractSuite from "../src/testing/ContractSuite.ts"

ContractSuite.run("memory", () => MemoryStore.layer, { numRuns: 50 })
