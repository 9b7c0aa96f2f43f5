import { type ReactNode, useLayoutEffect, useRef } from "react"

/** A header's visible words (its screen-reader-only text left out): the label its cells show when stacked. */
const visibleText = (cell: HTMLTableCellElement) => {
  let text = cell.textContent ?? ""
  for (const hidden of Array.from(cell.querySelectorAll(".sr-only"))) text = text.replace(hidden.textContent ?? "", "")
  return text.trim()
}

/** Gives every body cell its column's name (`data-label`), which the stacked layout shows before the value. */
export const labelCells = (table: HTMLTableElement) => {
  const heads = Array.from(table.tHead?.rows[0]?.cells ?? []).map(visibleText)
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      Array.from(row.cells).forEach((cell, index) => {
        const label = heads[index] ?? ""
        if (cell.dataset.label !== label) cell.dataset.label = label
      })
    }
  }
}

/**
 * The one table of the back-office's lists: a table from 768 px, stacked labelled rows under it (no
 * sideways scroll on a phone; status and actions stay in view). Screens write a plain `<thead>` and
 * `<tbody>`; each cell's label is read from its column's header, so it cannot drift from it. A header
 * whose words are all screen-reader-only (the actions column) gives its cells no visible label.
 */
export const DataTable = ({ caption, children, className }: { caption: string; children: ReactNode; className?: string }) => {
  const table = useRef<HTMLTableElement>(null)
  useLayoutEffect(() => {
    const element = table.current
    if (!element) return
    labelCells(element)
    // Rows come and go with paging and filters: label the new ones (attributes are not observed, so no loop).
    const observer = new MutationObserver(() => labelCells(element))
    observer.observe(element, { childList: true, subtree: true, characterData: true })
    return () => observer.disconnect()
  }, [])
  return (
    <div className="table-wrap">
      <table ref={table} className={className ? `data-table ${className}` : "data-table"}>
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  )
}
