/**
 * What the dispatch bench reads from its once-a-second samples: the dispatcher's resident memory against the parts the
 * SMSC had taken by then (is it flat, or does it grow with the parts?), and the parts per second of each tenth of the run.
 */

/**
 * One sample: seconds since the dispatcher started, its resident memory (MB), the parts the SMSC had taken, and the
 * JavaScript heap in use and held from the system (MB) as the dispatcher read them within a second (undefined if none).
 */
export interface Sample {
  readonly seconds: number
  readonly rssMB: number
  readonly parts: number
  readonly heapMB: number | undefined
  readonly heapTotalMB?: number | undefined
}

/** The first sample taken once at least `share` of `total` parts were at the SMSC (the last sample if none). */
export const at = (samples: ReadonlyArray<Sample>, total: number, share: number): Sample | undefined =>
  samples.find((sample) => sample.parts >= total * share) ?? samples[samples.length - 1]

/**
 * Least-squares slope of resident memory over parts, in MB per million parts, over the samples taken while parts went
 * out after the first tenth (start-up, the first claims and the JIT's warm-up are not growth with the parts).
 */
export const slopeMBPerMillion = (samples: ReadonlyArray<Sample>, total: number): number => {
  const sending = samples.filter((sample) => sample.parts >= total * 0.1 && sample.parts < total)
  if (sending.length < 3) return 0
  const n = sending.length
  const meanX = sending.reduce((sum, s) => sum + s.parts, 0) / n
  const meanY = sending.reduce((sum, s) => sum + s.rssMB, 0) / n
  let covariance = 0
  let variance = 0
  for (const s of sending) {
    covariance += (s.parts - meanX) * (s.rssMB - meanY)
    variance += (s.parts - meanX) ** 2
  }
  return variance === 0 ? 0 : (covariance / variance) * 1e6
}

/**
 * How far memory may grow over the second half of the parts and still be flat: 10 %, and at least 16 MB (the garbage
 * collector's swings). Caches that fill up early (SQLite's page cache, V8's heap reservation) do not count against flat;
 * memory held per part sent would grow by as much in the second half as in the first.
 */
export const flatTolerance = (atHalfMB: number): number => Math.max(16, atHalfMB * 0.1)

export interface Memory {
  readonly startMB: number
  readonly atTenthMB: number
  readonly atHalfMB: number
  readonly endMB: number
  readonly peakMB: number
  readonly slopeMBPerMillion: number
  /** From half the parts to the last, memory (its peak included) grew no more than `flatTolerance`. */
  readonly flat: boolean
}

/**
 * Start (the first sample with parts going out), a tenth, half, end (the last sample, receipts in) and peak; flat
 * when the second half of the parts added no more than the tolerance.
 */
export const memory = (samples: ReadonlyArray<Sample>, total: number): Memory => {
  const rss = (sample: Sample | undefined) => sample?.rssMB ?? 0
  const atHalfMB = rss(at(samples, total, 0.5))
  const endMB = rss(samples[samples.length - 1])
  const peakAfterHalf = Math.max(0, ...samples.filter((s) => s.parts >= total * 0.5).map((s) => s.rssMB))
  return {
    startMB: rss(samples.find((sample) => sample.parts > 0) ?? samples[0]),
    atTenthMB: rss(at(samples, total, 0.1)),
    atHalfMB,
    endMB,
    peakMB: Math.max(0, ...samples.map((s) => s.rssMB)),
    slopeMBPerMillion: slopeMBPerMillion(samples, total),
    flat: Math.max(endMB, peakAfterHalf) - atHalfMB <= flatTolerance(atHalfMB)
  }
}

/** A moment the SMSC's count was read: seconds since the dispatcher started, parts taken by then. */
export interface Progress {
  readonly seconds: number
  readonly parts: number
}

/**
 * Parts per second in each tenth of the parts: the time from the count's first reading at or past `k/10` of `total`
 * to its first at or past `(k+1)/10`. A tenth never reached is left out.
 */
export const tenths = (progress: ReadonlyArray<Progress>, total: number): ReadonlyArray<number> => {
  const first = (share: number) => progress.find((p) => p.parts >= total * share && p.parts > 0)
  const rates: Array<number> = []
  for (let k = 0; k < 10; k++) {
    const from = first(k / 10)
    const to = first((k + 1) / 10)
    if (from === undefined || to === undefined || to.seconds <= from.seconds) continue
    rates.push((to.parts - from.parts) / (to.seconds - from.seconds))
  }
  return rates
}

/** Parts per second from the first part at the SMSC to the last (`undefined` before the last arrived). */
export const rate = (progress: ReadonlyArray<Progress>, total: number): number | undefined => {
  const first = progress.find((p) => p.parts > 0)
  const last = progress.find((p) => p.parts >= total)
  if (first === undefined || last === undefined || last.seconds <= first.seconds) return undefined
  return (last.parts - first.parts) / (last.seconds - first.seconds)
}
