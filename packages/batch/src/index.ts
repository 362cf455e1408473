/**
 * @smsbook/batch: the `smsbook` command line, also runnable from code (`Main.program(args)` gives the exit code).
 * Most users install it for the `smsbook` command; the library entry is for embedding or testing the commands.
 */
export * as Main from "./Main.ts"
