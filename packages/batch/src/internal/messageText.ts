/**
 * The text of a `--message-file`: decoded as UTF-8 or by `--encoding`, refused rather than repaired, and checked as
 * `--message` is (`Message.checkText`) — what reaches every handset is what the operator meant to write.
 */
import { InvalidField, Message } from "@smsbook/core"
import { Effect, Result } from "effect"
import iconv from "iconv-lite"
import * as Files from "./files.ts"
import * as WholeInput from "./wholeInput.ts"

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

/**
 * The bytes of a message file as text: UTF-8 (a BOM is dropped) unless `encoding` names another; bytes that are
 * not valid in that encoding are refused, never replaced. One trailing line end is dropped.
 */
export const decode = (bytes: Uint8Array, path: string, encoding: string | undefined): Result.Result<string, InvalidField> => {
  let text: string
  if (encoding === undefined || encoding.toLowerCase().replace(/[^a-z0-9]/g, "") === "utf8") {
    if (bytes.includes(0)) {
      return Result.fail(
        new InvalidField({
          field: "--message-file",
          value: path,
          reason: "holds NUL bytes: it looks like UTF-16 or UTF-32 without a byte order mark; give its encoding with --encoding (e.g. utf-16le)"
        })
      )
    }
    try {
      text = utf8.decode(bytes)
    } catch {
      return Result.fail(
        new InvalidField({ field: "--message-file", value: path, reason: "is not valid UTF-8: give its encoding with --encoding" })
      )
    }
  } else if (!iconv.encodingExists(encoding)) {
    return Result.fail(new InvalidField({ field: "--encoding", value: encoding, reason: "unknown encoding" }))
  } else {
    text = iconv.decode(Buffer.from(bytes), encoding, { stripBOM: true })
  }
  return Message.checkText(text.replace(/\r?\n$/, ""), "--message-file")
}

/** Reads and checks a message file; a file that cannot be read is refused with the reason in words. */
export const readFile = (path: string, encoding: string | undefined): Effect.Effect<string, InvalidField> =>
  Effect.try({
    try: () => WholeInput.read(path),
    catch: (cause) => new InvalidField({ field: "--message-file", value: path, reason: `cannot be read: ${Files.reasonOf(cause, "no such file")}` })
  }).pipe(Effect.flatMap((bytes) => Effect.fromResult(decode(bytes, path, encoding))))
