import { useLingui } from "@lingui/react/macro"
import { useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode } from "react"

interface FieldProps {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly error?: string | undefined
  readonly hint?: ReactNode
  readonly type?: "text" | "email" | "tel" | "password" | "number" | "date" | "datetime-local"
  readonly autoComplete?: string
  readonly required?: boolean
  readonly inputMode?: "text" | "email" | "tel" | "numeric" | "decimal"
  readonly min?: number | string
  readonly max?: number | string
  readonly step?: number | "any"
  readonly maxLength?: number
  /** Values offered as the text is typed (a native datalist: the browser lists them accessibly). */
  readonly suggestions?: ReadonlyArray<string>
}

/** Describes the input by its hint and error, so screen readers read both after the label. */
const describedBy = (id: string, hint: unknown, error: unknown) =>
  [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined

const FieldMessages = ({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | undefined }) => (
  <>
    {hint ? (
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
    ) : null}
    {error ? (
      <p className="field-error" id={`${id}-error`}>
        {error}
      </p>
    ) : null}
  </>
)

export const TextField = ({
  label,
  name,
  value,
  onChange,
  error,
  hint,
  type = "text",
  autoComplete,
  required = true,
  inputMode,
  min,
  max,
  step,
  maxLength,
  suggestions
}: FieldProps) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        required={required}
        autoComplete={autoComplete}
        inputMode={inputMode}
        min={min}
        max={max}
        step={step}
        maxLength={maxLength}
        list={suggestions ? `${id}-suggestions` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
      />
      {suggestions ? (
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((text) => (
            <option key={text} value={text} />
          ))}
        </datalist>
      ) : null}
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  )
}

/** A password input with a show/hide toggle; the toggle is named by its text, not aria-label,
 * so a label lookup for "Mot de passe" finds only the input. */
export const PasswordField = (props: Omit<FieldProps, "type" | "inputMode">) => {
  const { t } = useLingui()
  const id = useId()
  const [visible, setVisible] = useState(false)
  const { label, name, value, onChange, error, hint, autoComplete, required = true } = props
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password">
        <input
          id={id}
          name={name}
          type={visible ? "text" : "password"}
          value={value}
          required={required}
          autoComplete={autoComplete}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          onChange={(event) => onChange(event.target.value)}
        />
        <button type="button" className="button-ghost" aria-controls={id} aria-pressed={visible} onClick={() => setVisible(!visible)}>
          {visible ? t`Masquer` : t`Afficher`}
          <span className="sr-only"> {label}</span>
        </button>
      </div>
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  )
}

interface SelectFieldProps {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }>
  readonly placeholder: string
  readonly error?: string | undefined
}

export const SelectField = ({ label, name, value, onChange, options, placeholder, error }: SelectFieldProps) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldMessages id={id} error={error} />
    </div>
  )
}

interface TextAreaProps {
  readonly label: string
  readonly name: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly error?: string | undefined
  readonly maxLength?: number
  readonly required?: boolean
  readonly rows?: number
  readonly hint?: ReactNode
}

export const TextArea = ({ label, name, value, onChange, error, maxLength, required = true, rows = 6, hint }: TextAreaProps) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        value={value}
        rows={rows}
        required={required}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  )
}

export type AlertKind = "info" | "success" | "warning" | "error"

/** An inline message; errors and warnings are announced at once (role=alert). */
export const Alert = ({ kind, children, title }: { kind: AlertKind; children: ReactNode; title?: string }) => (
  <div className={`alert alert-${kind}`} role={kind === "error" || kind === "warning" ? "alert" : "status"}>
    {title ? <p className="alert-title">{title}</p> : null}
    {children}
  </div>
)

export const SubmitButton = ({ busy, children, disabled = false }: { busy: boolean; children: ReactNode; disabled?: boolean }) => (
  <button type="submit" className="button" disabled={busy || disabled} aria-busy={busy || undefined}>
    {busy ? <span className="spinner" aria-hidden="true" /> : null}
    {children}
  </button>
)

/** A dialog form's buttons: submit, and a secondary button that closes without doing anything. */
export const DialogActions = ({
  busy,
  submit,
  dismiss,
  onDismiss
}: {
  busy: boolean
  submit: ReactNode
  dismiss: ReactNode
  onDismiss: () => void
}) => (
  <div className="actions">
    <SubmitButton busy={busy}>{submit}</SubmitButton>
    <button type="button" className="button-secondary" onClick={onDismiss}>
      {dismiss}
    </button>
  </div>
)

/**
 * After a failed submit the first field in error takes focus, so keyboard and screen reader users
 * land on it. `errors` is a new value on every submit; attach the returned ref to the form.
 */
export const useFocusFirstInvalid = (errors: unknown) => {
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [errors])
  return form
}
