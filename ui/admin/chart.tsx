// The back-office's charts (analytics, finance: issue 16 item 3). uPlot is loaded by a dynamic import
// when a chart first mounts, so it sits in a lazy chunk of its own and never in the first load
// (test/ui/budget.test.ts). Each chart has its title, a legend in words, axis titles in the reader's
// language, colours from the stylesheet's custom properties (ui/styles/charts.css) and, behind a
// <details>, the table of its figures: the canvas is hidden from assistive technologies, the table is not.

import { useLingui } from "@lingui/react/macro"
import { useEffect, useRef, useState } from "react"
import type uPlot from "uplot"

export interface ChartSeries {
  readonly label: string
  /** One value per category; integers (counts, minor units). */
  readonly values: ReadonlyArray<number>
  /** The custom property that holds its colour (charts.css: --chart-1, --chart-2, --chart-3). */
  readonly color: `--chart-${1 | 2 | 3}`
}

export interface ChartProps {
  /** Prefix of the element ids (heading, table), unique on the page. */
  readonly id: string
  readonly title: string
  readonly kind: "line" | "bars"
  /** The x axis's title, and one label per point (a day, a month, a status). */
  readonly xLabel: string
  readonly categories: ReadonlyArray<string>
  /** The same labels, in full, for the data table (the axis may use short ones). */
  readonly rowLabels?: ReadonlyArray<string>
  readonly yLabel: string
  /** A value as the table writes it ("1 234,00 $"), and as the y axis does (shorter). */
  readonly format: (value: number) => string
  readonly formatAxis?: (value: number) => string
  readonly series: ReadonlyArray<ChartSeries>
}

/** Axis labels need about this much room each: the x axis shows one label in every `step`. */
const LABEL_SPACE = 72
const heightFor = (width: number) => (width < 480 ? 240 : 300)
/** Whole steps only: counts and minor units are integers. */
const INTEGER_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500]
  .flatMap((n) => [n, n * 1000, n * 1_000_000, n * 1_000_000_000])
  .sort((a, b) => a - b)
  .filter((n, i, all) => all.indexOf(n) === i)

export const Chart = (props: ChartProps) => {
  const { t, i18n } = useLingui()
  const box = useRef<HTMLDivElement>(null)
  const [failed, setFailed] = useState(false)
  // The latest props for the plot's callbacks (formatters are new functions at every render).
  const latest = useRef(props)
  latest.current = props
  const { kind, categories, series, xLabel, yLabel } = props
  const dataKey = JSON.stringify([kind, categories, series, xLabel, yLabel, i18n.locale])

  useEffect(() => {
    const element = box.current
    if (element === null) return
    let plot: uPlot | undefined
    let observer: ResizeObserver | undefined
    let cancelled = false
    import("uplot").then(
      ({ default: UPlot }) => {
        if (cancelled) return
        const style = getComputedStyle(element)
        const color = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback
        const text = color("--text", "#111827")
        const grid = color("--border", "#d1d5db")
        const font = `12px ${style.fontFamily}`
        const { categories, series } = latest.current
        const n = categories.length
        const xs = categories.map((_, i) => i)
        const bars = kind === "bars"
        const width = Math.max(element.clientWidth, 200)
        // Bars' labels are all written: turned when side by side they would not fit (about 7 px a character).
        const longest = Math.max(0, ...categories.map((c) => c.length))
        const crowded = (u: uPlot) => bars && n * (longest * 7 + 12) > u.width - 60
        const yValues = (values: ReadonlyArray<number>) => values.map((v) => (latest.current.formatAxis ?? latest.current.format)(v))
        plot = new UPlot(
          {
            width,
            height: heightFor(width),
            legend: { show: false },
            cursor: { drag: { x: false, y: false } },
            scales: {
              x: { time: false, range: () => (bars || n < 2 ? [-0.5, n - 0.5] : [0, n - 1]) },
              y: { range: (_u, _min, max) => [0, Math.max(max, 1)] }
            },
            axes: [
              {
                label: xLabel,
                labelFont: `bold ${font}`,
                font,
                stroke: text,
                grid: { show: false },
                ticks: { stroke: grid },
                // Every label when they fit, else one in every `step` (days), turned when still crowded (statuses).
                splits: (u) => {
                  const step = bars ? 1 : Math.max(1, Math.ceil(n / Math.max(1, Math.floor((u.width - 60) / LABEL_SPACE))))
                  return xs.filter((i) => i % step === 0)
                },
                values: (_u, splits) => splits.map((i) => categories[i] ?? ""),
                rotate: (u) => (crowded(u) ? -45 : 0),
                size: (u) => (crowded(u) ? 24 + longest * 5 : 40)
              },
              {
                label: yLabel,
                labelFont: `bold ${font}`,
                font,
                stroke: text,
                grid: { stroke: grid, width: 1 },
                ticks: { stroke: grid },
                incrs: INTEGER_STEPS,
                values: (_u, splits) => yValues(splits),
                size: (_u, values) => (values ? Math.max(...values.map((v) => v.length)) * 8 + 24 : 56)
              }
            ],
            series: [
              {},
              ...series.map((s) => {
                const stroke = color(s.color, "#1d4ed8")
                return bars
                  ? {
                      label: s.label,
                      stroke,
                      fill: stroke,
                      width: 0,
                      points: { show: false },
                      paths: UPlot.paths.bars?.({ size: [0.6, 64] })
                    }
                  : { label: s.label, stroke, width: 2, points: { show: n <= 31, size: 5, fill: stroke } }
              })
            ]
          },
          [xs, ...series.map((s) => [...s.values])],
          element
        )
        // Follow the container's width (a phone's 375 px, a rotated tablet).
        observer = new ResizeObserver(() => {
          const next = Math.max(element.clientWidth, 200)
          if (plot && next !== plot.width) plot.setSize({ width: next, height: heightFor(next) })
        })
        observer.observe(element)
      },
      () => {
        if (!cancelled) setFailed(true)
      }
    )
    return () => {
      cancelled = true
      observer?.disconnect()
      plot?.destroy()
    }
  }, [dataKey])

  const rows = props.rowLabels ?? categories
  return (
    <section className="chart" aria-labelledby={`${props.id}-title`} data-testid={props.id}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {series.length > 1 ? (
        <ul className="chart-legend">
          {series.map((s) => (
            <li key={s.label}>
              <span className="chart-swatch" style={{ background: `var(${s.color})` }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      {/* The drawing repeats the table below, which is what assistive technologies read. */}
      <div className="chart-plot" ref={box} aria-hidden="true" />
      {failed ? <p className="alert alert-error">{t`Le graphique n'a pas pu être chargé : ses données sont dans le tableau.`}</p> : null}
      <details className="chart-data">
        <summary>{t`Afficher les données`}</summary>
        {/* Scrolls when long: focusable so that a keyboard can scroll it too. */}
        <div className="table-wrap" role="region" aria-label={t`Données : ${props.title}`} tabIndex={0}>
          <table>
            <caption className="sr-only">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{xLabel}</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((label, i) => (
                <tr key={`${i}-${label}`}>
                  <th scope="row">{label}</th>
                  {series.map((s) => (
                    <td key={s.label}>{props.format(s.values[i] ?? 0)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  )
}
