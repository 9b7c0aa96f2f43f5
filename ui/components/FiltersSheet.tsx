import { plural } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useState, type ReactNode } from "react"
import { MOBILE_QUERY, useMediaQuery } from "./media"
import { Modal } from "./Modal"

/**
 * A list screen's secondary filters (category, price, place, sort): inline on wide screens; on a
 * phone, behind one "Filtres" button saying how many are set, opening them in a bottom sheet, so the
 * first result shows right under the search field. Each filter applies as it changes, as inline.
 */
export const FiltersSheet = ({
  active,
  found,
  children
}: {
  /** How many of the sheet's filters are set. */
  active: number
  /** How many services the filters find now (the sheet's button says it), when known. */
  found: number | undefined
  children: ReactNode
}) => {
  const { t } = useLingui()
  const phone = useMediaQuery(MOBILE_QUERY)
  const [open, setOpen] = useState(false)
  if (!phone) return <>{children}</>
  return (
    <>
      <button type="button" className="button-secondary filters-toggle" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {active > 0 ? t`Filtres (${active})` : t`Filtres`}
      </button>
      {open ? (
        <Modal title={t`Filtres`} onClose={() => setOpen(false)} sheet>
          <div className="sheet-fields">{children}</div>
          <button type="button" className="button sheet-done" onClick={() => setOpen(false)}>
            {found === undefined ? t`Voir les résultats` : plural(found, { one: "Voir # service", other: "Voir les # services" })}
          </button>
        </Modal>
      ) : null}
    </>
  )
}
