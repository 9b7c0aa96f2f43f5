// Helpers shared by the benchmark scripts of `make bench`.

import * as fs from "node:fs"

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere). */
export const cpuMsOf = (pid) => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100)
  } catch {
    return Number.NaN
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `target` answers 2xx (a server starting). */
export const waitFor = async (target, timeoutMs = 60_000) => {
  const start = Date.now()
  for (;;) {
    try {
      const res = await fetch(target)
      if (res.ok) return
    } catch {}
    if (Date.now() - start > timeoutMs) throw new Error(`timeout waiting for ${target}`)
    await sleep(50)
  }
}

export const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

/** Latency figures of a list of durations in milliseconds. */
export const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b)
  const r = (x) => +x.toFixed(2)
  return { n: sorted.length, p50ms: r(quantile(sorted, 0.5)), p95ms: r(quantile(sorted, 0.95)), p99ms: r(quantile(sorted, 0.99)), maxMs: r(sorted.at(-1)) }
}

/** One client, back to back, for `seconds` (after a short warm-up): latency figures. */
export const oneClient = async (fn, seconds) => {
  for (let i = 0; i < 50; i++) await fn()
  const times = []
  const end = performance.now() + seconds * 1000
  while (performance.now() < end) {
    const t = performance.now()
    await fn()
    times.push(performance.now() - t)
  }
  return stats(times)
}
