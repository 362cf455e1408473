/** The suppression-list law on the memory and SQLite stores (sequential; the races are in ConcurrencyLaws). */
import * as Books from "./laws/Books.ts"
import * as Suppression from "./laws/Suppression.ts"

Suppression.run(Books.memory, 60)
Suppression.run(Books.sqlite(), 30)
