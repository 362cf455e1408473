/**
 * What a run that failed in its store says besides the error, for whoever reads it at 3 a.m.: what is wrong beneath
 * the book, where the adapter could tell by the driver's codes (`StoreProblem`), what to do about it, and what the
 * command's work left behind, where the job said; the same for an output file that could not be written (a full disk
 * under the rejects file); and how to send again on purpose what was refused as a duplicate.
 */
import { DuplicateSend, StoreFailure, type StoreProblem, StoreUnavailable } from "@smsbook/core"
import { FileFailure } from "../CliErrors.ts"
import * as Interruption from "./interruption.ts"
import * as SendDigest from "./sendDigest.ts"

/** What to check or do for each problem. */
export const advice: { readonly [P in StoreProblem]: string } = {
  "connection": "the database server could not be reached or closed the connection: check that it is running and reachable from here",
  "disk-full": "the disk is full (the book's, or the database server's): free some space",
  "read-only": "the book cannot be written: check the permissions of its file and its folder (SQLite writes -wal and -shm " +
    "files beside the book), or that the server is not a read-only standby",
  "disk-io": "the disk failed a read or a write: check the device and its free space",
  "damaged": "the book's data is damaged: stop writing to it and restore it from a backup",
  "access-denied": "the server refused the user or its privileges: check the user and password of the store URL " +
    "(--store, SMSBOOK_STORE or smsbook.json) and the role's grants",
  "no-database": "the server has no database of the name the store URL gives: check the name, or create the database " +
    "(createdb NAME, or CREATE DATABASE as a role allowed to): smsbook creates its tables, not the database"
}

/** What to check or do when the file at `path` could not be written for `problem`. */
export const fileAdvice = (path: string, problem: NonNullable<FileFailure["problem"]>): string =>
  problem === "disk-full"
    ? `the disk that holds ${path} is full: free some space there, or write it elsewhere`
    : problem === "read-only"
    ? `${path} is on a read-only file system: write it elsewhere`
    : `the disk that holds ${path} failed a write: check the device, or write it elsewhere`

/** The problem beneath the book or the output file that `error` names, if it is a store's or a file's failure that names one. */
export const problemOf = (error: unknown): StoreProblem | undefined =>
  error instanceof StoreFailure || error instanceof StoreUnavailable || error instanceof FileFailure ? error.problem : undefined

/**
 * The hint lines for `error`: the problem's advice where the adapter named one, and, for a failure under way (not one
 * opening the store, before anything ran), what the job said stays if it stops now (`Interruption.keep`: the import,
 * that it is one transaction; a broadcast, its committed batches). A job that said nothing gets no such line: one
 * that commits in steps (`dispatch` into the outbox) keeps what it committed, so "nothing changed" would be false.
 */
export const of = (error: unknown): ReadonlyArray<string> => {
  if (error instanceof DuplicateSend) return SendDigest.isDigest(error.id) ? [SendDigest.sentAgainHint] : []
  if (error instanceof FileFailure) {
    // A file fails while the job runs: the job's word on what stays matters as much as it does for the store's failures.
    const kept = Interruption.keptSoFar()
    return [...(error.problem === undefined ? [] : [fileAdvice(error.path, error.problem)]), ...(kept === undefined ? [] : [kept])]
  }
  if (!(error instanceof StoreFailure || error instanceof StoreUnavailable)) return []
  const kept = error instanceof StoreFailure ? Interruption.keptSoFar() : undefined
  return [...(error.problem === undefined ? [] : [advice[error.problem]]), ...(kept === undefined ? [] : [kept])]
}
