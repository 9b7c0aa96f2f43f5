// The create and edit form of a service (spec section 5): the same fields, with the edit form's
// duration rule (at least 15 minutes, by steps of 15).

import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from "react"
import { Currencies, currencyDecimals } from "../../src/platform/money"
import { ApiError } from "../api/client"
import type { Category, Photo, Place, ServiceRequest } from "../api/contract"
import { placesApi } from "../api/endpoints"
import { CREATE_LOCATE, locate } from "../catalogue/geolocation"
import { placeLabel } from "../catalogue/places"
import {
  checkServiceForm,
  EDIT_DURATION_STEP,
  OTHER_CATEGORY,
  serviceRequestOf,
  type ServiceField,
  type ServiceFormValues,
  type ServiceProblem
} from "../catalogue/rules"
import { Duration } from "./catalogue"
import { Alert, SelectField, SubmitButton, TextArea, TextField, useFocusFirstInvalid } from "./forms"
import { PhotoEditor } from "./PhotoEditor"

/** The currency a provider most likely bills in, from their payout account's country. */
export const currencyForCountry = (country: string | null | undefined): string => {
  switch (country) {
    case "CA":
      return "CAD"
    case "US":
      return "USD"
    case "GB":
      return "GBP"
    case "CH":
      return "CHF"
    default:
      return "EUR"
  }
}

const problemTexts: Record<ServiceProblem, MessageDescriptor> = {
  required: msg`Ce champ est requis.`,
  priceInvalid: msg`Le prix doit être un nombre supérieur à 0, avec au plus 2 décimales.`,
  priceWhole: msg`Le prix doit être un nombre entier supérieur à 0 dans cette devise.`,
  durationCreate: msg`La durée doit être un nombre entier de minutes supérieur à 0.`,
  durationEdit: msg`La durée doit être d'au moins 15 minutes, par tranches de 15 minutes.`,
  categoryRequired: msg`Veuillez sélectionner une catégorie ou en créer une nouvelle.`,
  latitude: msg`La latitude doit être un nombre entre -90 et 90.`,
  longitude: msg`La longitude doit être un nombre entre -180 et 180.`
}

export interface ServiceFormInitial extends ServiceFormValues {
  readonly currency: string
}

export const EMPTY_SERVICE_FORM: ServiceFormInitial = {
  title: "",
  description: "",
  price: "",
  duration: "",
  location: "",
  category: "",
  newCategoryName: "",
  lat: "",
  lng: "",
  currency: "EUR"
}

type Errors = Partial<Record<ServiceField | "currency", string>>

/** A titled group of the form's fields (what, price, where, photos), so the form reads in steps. */
const FormSection = ({ title, children }: { title: string; children: ReactNode }) => {
  const id = useId()
  return (
    <section className="form-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  )
}

export const ServiceForm = ({
  mode,
  initial,
  categories,
  onSubmit,
  submitLabel,
  blocked = false,
  before,
  photos
}: {
  mode: "create" | "edit"
  initial: ServiceFormInitial
  categories: ReadonlyArray<Category> | undefined
  /**
   * Sends the request; an ApiError is shown by the form (422 per field, others in the red banner).
   * `files`: the photos chosen on the create form, in order, to send once the service exists.
   */
  onSubmit: (body: ServiceRequest & { currency: string }, files: ReadonlyArray<File>) => Promise<void>
  submitLabel: string
  /** Without a payment account the create form cannot be sent. */
  blocked?: boolean
  before?: ReactNode
  /** The edited service's photos (saved as they change); absent on the create form. */
  photos?: { readonly serviceId: string; readonly initial: ReadonlyArray<Photo> }
}) => {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState<ServiceFormInitial>(initial)
  const [errors, setErrors] = useState<Errors>({})
  const formRef = useFocusFirstInvalid(errors)
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [locating, setLocating] = useState(false)
  const [located, setLocated] = useState<"ok" | "error">()
  const [files, setFiles] = useState<ReadonlyArray<File>>([])

  const priceStep = 10 ** -currencyDecimals(values.currency)
  const field = <K extends keyof ServiceFormInitial>(name: K) => ({
    name,
    value: values[name],
    error: errors[name as ServiceField],
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value }))
  })

  // The location offers the gazetteer's places as it is typed; picking one fills in its coordinates.
  const [places, setPlaces] = useState<ReadonlyArray<Place>>([])
  const labelOf = (place: Place) => placeLabel(place, i18n.locale)
  const currencyNames = useMemo(() => new Intl.DisplayNames([i18n.locale], { type: "currency" }), [i18n.locale])
  useEffect(() => {
    const typed = values.location.trim()
    const picked = places.find((p) => labelOf(p) === typed)
    if (picked) {
      setValues((current) => ({ ...current, lat: picked.lat.toFixed(6), lng: picked.lng.toFixed(6) }))
      return
    }
    if (typed.length < 2) return
    let live = true
    const timer = setTimeout(() => {
      placesApi.suggest(typed).then(
        ({ data }) => live && setPlaces(data.places),
        () => undefined
      )
    }, 250)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [values.location])

  const detect = async () => {
    setLocating(true)
    setLocated(undefined)
    try {
      const position = await locate(CREATE_LOCATE)
      // The coordinates name their place (the nearest city) when the location is still empty.
      const nearest = await placesApi.reverse(position).then(
        ({ data }) => data.place,
        () => null
      )
      setValues((current) => ({
        ...current,
        lat: position.lat.toFixed(6),
        lng: position.lng.toFixed(6),
        location: current.location.trim() === "" && nearest ? labelOf(nearest) : current.location
      }))
      setLocated("ok")
    } catch {
      setLocated("error")
    } finally {
      setLocating(false)
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problems = checkServiceForm(values, mode)
    const texts: Errors = Object.fromEntries(Object.entries(problems).map(([key, problem]) => [key, i18n._(problemTexts[problem])]))
    setErrors(texts)
    setFailure(undefined)
    if (Object.keys(problems).length > 0) {
      const missing = Object.values(problems).includes("required")
      setFailure(missing ? t`Veuillez remplir tous les champs obligatoires.` : t`Certains champs sont invalides. Vérifiez le formulaire.`)
      return
    }
    setBusy(true)
    try {
      await onSubmit({ ...serviceRequestOf(values), currency: values.currency }, files)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      if (error.status === 422 && error.details.length > 0) setErrors(error.fieldErrors() as Errors)
      setFailure(error.message || t`L'enregistrement du service a échoué. Réessayez plus tard.`)
      setBusy(false)
    }
  }

  const other = values.category === OTHER_CATEGORY
  const durationValue = Number(values.duration)
  const durationHint =
    Number.isInteger(durationValue) && durationValue > 0 ? (
      <>
        {mode === "edit" ? t`En minutes, par tranches de 15 minutes.` : t`En minutes.`} (<Duration minutes={durationValue} />)
      </>
    ) : mode === "edit" ? (
      t`En minutes, par tranches de 15 minutes.`
    ) : (
      t`En minutes.`
    )

  return (
    <>
      {failure ? <Alert kind="error">{failure}</Alert> : null}
      <form className="form service-form" noValidate ref={formRef} onSubmit={(event) => void submit(event)}>
        {before}
        <FormSection title={t`Votre prestation`}>
          <TextField label={t`Titre`} maxLength={120} {...field("title")} />
          <TextArea
            label={t`Description`}
            maxLength={5000}
            hint={t`Sans coordonnées (téléphone, e-mail, lien, réseau social) : le client les reçoit une fois la réservation confirmée.`}
            {...field("description")}
          />
          <SelectField
            label={t`Catégorie`}
            placeholder={categories === undefined ? t`Chargement des catégories…` : t`Choisissez une catégorie`}
            options={[
              ...(categories ?? []).map((c) => ({ value: String(c.id), label: c.name })),
              { value: OTHER_CATEGORY, label: t`Autre (nouvelle catégorie)` }
            ]}
            {...field("category")}
            error={errors.categoryId}
          />
          {other ? (
            <TextField label={t`Nouvelle catégorie`} maxLength={60} hint={t`Entre 2 et 60 caractères.`} {...field("newCategoryName")} />
          ) : null}
        </FormSection>
        <FormSection title={t`Tarif et durée`}>
          <div className="field-row">
            <TextField
              label={t`Prix horaire`}
              type="number"
              inputMode="decimal"
              min={priceStep}
              step={priceStep}
              hint={t`Montant par heure, supérieur à 0.`}
              {...field("price")}
            />
            <SelectField
              label={t`Devise`}
              placeholder={t`Choisissez une devise`}
              // Every currency the server accepts (src/platform/money.ts).
              options={Currencies.map((code) => ({ value: code, label: `${code} · ${currencyNames.of(code) ?? code}` }))}
              {...field("currency")}
            />
            <TextField
              label={t`Durée (minutes)`}
              type="number"
              inputMode="numeric"
              min={mode === "edit" ? EDIT_DURATION_STEP : 1}
              step={mode === "edit" ? EDIT_DURATION_STEP : 1}
              hint={durationHint}
              {...field("duration")}
            />
          </div>
        </FormSection>
        <FormSection title={t`Où vous intervenez`}>
          <TextField
            label={t`Lieu`}
            autoComplete="address-level2"
            maxLength={200}
            hint={t`Ville ou quartier où vous intervenez : choisir une ville proposée remplit ses coordonnées.`}
            suggestions={places.map(labelOf)}
            {...field("location")}
          />
          <fieldset className="coordinates">
            <legend>{t`Coordonnées (facultatif)`}</legend>
            <p className="field-hint">{t`Elles permettent de trier les services par distance. Laissées vides, elles valent 0.`}</p>
            <div className="field-row">
              <TextField label={t`Latitude`} required={false} inputMode="decimal" {...field("lat")} />
              <TextField label={t`Longitude`} required={false} inputMode="decimal" {...field("lng")} />
            </div>
            <div className="actions">
              <button
                type="button"
                className="button-secondary"
                onClick={() => void detect()}
                disabled={locating}
                aria-busy={locating || undefined}
              >
                {locating ? <span className="spinner" aria-hidden="true" /> : null}
                {t`Détecter ma position`}
              </button>
              <span role="status">{located === "ok" ? t`Position détectée.` : null}</span>
            </div>
            {located === "error" ? (
              <p className="field-error" role="alert">
                {t`Impossible de détecter votre position. Saisissez les coordonnées ou laissez-les vides.`}
              </p>
            ) : null}
          </fieldset>
        </FormSection>
        <PhotoEditor
          title={values.title.trim()}
          initial={photos?.initial ?? []}
          {...(photos ? { serviceId: photos.serviceId } : { onPendingChange: setFiles })}
        />
        <SubmitButton busy={busy} disabled={blocked}>
          {submitLabel}
        </SubmitButton>
      </form>
    </>
  )
}
