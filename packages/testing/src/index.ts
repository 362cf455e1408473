/**
 * @smsbook/testing: what every package's tests share — the port contract suite, the model check of an
 * adapter against the memory store, and the fixtures. Never imported by production code.
 */
export * as Arbitraries from "./Arbitraries.ts"
export * as ContractSuite from "./ContractSuite.ts"
export * as Fixtures from "./Fixtures.ts"
export * as ModelCheck from "./ModelCheck.ts"
export * as Results from "./Results.ts"
export * as PostgresSchema from "./PostgresSchema.ts"
export * as Laws from "./Laws.ts"
