/**
 * @smsbook/core/testing: the in-memory store and the port contract suite every adapter runs.
 */
export * as ContractSuite from "./testing/ContractSuite.ts"
export * as MemoryStore from "./MemoryStore.ts"
