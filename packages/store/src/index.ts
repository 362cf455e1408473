/**
 * @smsbook/store: the storage adapters of smsbook's ports — SQLite (`node:sqlite`) and PostgreSQL —
 * and the choice of one by URL.
 */
export * as ApiKeyStore from "./ApiKeyStore.ts"
export * as PartStore from "./PartStore.ts"
export * as PostgresStore from "./PostgresStore.ts"
export * as SqliteStore from "./SqliteStore.ts"
export * as Store from "./Store.ts"
