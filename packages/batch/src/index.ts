/**
 * @smsbook/batch as a library: the jobs behind the `smsbook` command line, for programs that run an
 * import, a broadcast or a report themselves, and the errors they raise. The command line is `bin`.
 */
export * as Broadcast from "./jobs/Broadcast.ts"
export * as BroadcastPlan from "./jobs/BroadcastPlan.ts"
export * as CliErrors from "./CliErrors.ts"
export * as Import from "./jobs/Import.ts"
export * as Inspection from "./jobs/Inspection.ts"
export * as Report from "./jobs/Report.ts"
export { FileFailure, InvalidSettings, PlanMismatch, TooManyRejects } from "./CliErrors.ts"
export * as Main from "./Main.ts"
