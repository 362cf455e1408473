/** The suppression-list law on the memory and SQLite stores (sequential; the races are in ConcurrencyLaws). */
import { Laws } from "@smsbook/testing"
import * as Books from "./laws/Books.ts"

Laws.Suppression.run(Laws.memory, 60)
Laws.Suppression.run(Books.sqlite(), 30)
