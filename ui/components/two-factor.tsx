// Two-step login on /settings (security): enrol with an authenticator app (QR code and secret,
// confirmed by a first code), the recovery codes shown once, and turning it off (password and code).

import { useLingui } from "@lingui/react/macro"
import { type FormEvent, useState } from "react"
import { useSearch } from "wouter"
import { ApiError } from "../api/client"
import { authApi } from "../api/endpoints"
import type { TwoFactorSetup } from "../api/contract"
import { useAsync } from "./async"
import { Alert, PasswordField, SubmitButton, TextField } from "./forms"
import { Loaded } from "./loaded"

const fieldError = (error: unknown, field: string) =>
  error instanceof ApiError ? (error.fieldErrors()[field] ?? (error.message || error.code)) : String(error)

/** Step 1 (QR code and secret) and step 2 (the first code) of an enrolment; answers the recovery codes. */
const Enrolment = ({ setup, onEnabled }: { setup: TwoFactorSetup; onEnabled: (codes: ReadonlyArray<string>) => void }) => {
  const { t } = useLingui()
  const [code, setCode] = useState("")
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const confirm = async (event: FormEvent) => {
    event.preventDefault()
    if (code.trim() === "") return setError(t`Saisissez le code à 6 chiffres affiché par votre application.`)
    setBusy(true)
    setError(undefined)
    try {
      onEnabled((await authApi.twoFactorEnable(code.trim())).data.recoveryCodes)
    } catch (cause) {
      setError(fieldError(cause, "code"))
      setBusy(false)
    }
  }
  return (
    <div className="two-factor-enrolment">
      <ol>
        <li>
          {t`Scannez ce QR code avec votre application d'authentification (Google Authenticator, Aegis, 1Password…).`}
          <img
            className="qr-code"
            src={`data:image/svg+xml;base64,${btoa(setup.qrCodeSvg)}`}
            alt={t`QR code de connexion en deux étapes`}
            width={200}
            height={200}
          />
        </li>
        <li>
          {t`Ou saisissez cette clé à la main :`} <code data-testid="two-factor-secret">{setup.secret}</code>
        </li>
      </ol>
      <form className="form" noValidate onSubmit={(event) => void confirm(event)}>
        <TextField
          label={t`Premier code de l'application`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={setCode}
          error={error}
        />
        <SubmitButton busy={busy}>{t`Activer`}</SubmitButton>
      </form>
    </div>
  )
}

const RecoveryCodes = ({ codes, onDone }: { codes: ReadonlyArray<string>; onDone: () => void }) => {
  const { t } = useLingui()
  return (
    <Alert kind="warning" title={t`Vos codes de secours`}>
      <p>{t`Chaque code permet une connexion si vous n'avez plus votre application. Notez-les en lieu sûr : ils ne seront plus affichés.`}</p>
      <ul className="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button-secondary" onClick={onDone}>
        {t`J'ai noté mes codes`}
      </button>
    </Alert>
  )
}

const Disable = ({ onDisabled }: { onDisabled: () => void }) => {
  const { t } = useLingui()
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({})
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found = {
      ...(password === "" ? { password: t`Saisissez votre mot de passe.` } : {}),
      ...(code.trim() === "" ? { code: t`Saisissez un code de l'application ou un code de secours.` } : {})
    }
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setBusy(true)
    try {
      await authApi.twoFactorDisable({ password, code: code.trim() })
      onDisabled()
    } catch (cause) {
      setErrors(cause instanceof ApiError && cause.status === 422 ? cause.fieldErrors() : { code: fieldError(cause, "code") })
      setBusy(false)
    }
  }
  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      <h4>{t`Désactiver la connexion en deux étapes`}</h4>
      <PasswordField
        label={t`Mot de passe`}
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={errors.password}
      />
      <TextField
        label={t`Code de l'application ou code de secours`}
        name="disable-code"
        autoComplete="one-time-code"
        value={code}
        onChange={setCode}
        error={errors.code}
      />
      <SubmitButton busy={busy}>{t`Désactiver`}</SubmitButton>
    </form>
  )
}

/** The security section of /settings. */
export const TwoFactorSection = () => {
  const { t } = useLingui()
  const asked = new URLSearchParams(useSearch()).get("twoFactor") === "required"
  const [state, reload] = useAsync(() => authApi.twoFactorStatus().then((answer) => answer.data.twoFactor), [])
  const [setup, setSetup] = useState<TwoFactorSetup>()
  const [codes, setCodes] = useState<ReadonlyArray<string>>()
  const [failure, setFailure] = useState<string>()

  const start = async () => {
    setFailure(undefined)
    try {
      setSetup((await authApi.twoFactorSetup()).data)
    } catch (cause) {
      setFailure(fieldError(cause, ""))
    }
  }

  return (
    <section className="settings-section" id="two-factor" aria-labelledby="two-factor-heading">
      <h3 id="two-factor-heading">{t`Connexion en deux étapes`}</h3>
      <Loaded
        state={state}
        loadingLabel={t`Chargement…`}
        failure={() => (
          <Alert kind="error" title={t`Impossible de charger l'état de la connexion en deux étapes.`}>
            <button type="button" className="button-secondary" onClick={() => reload()}>
              {t`Réessayer`}
            </button>
          </Alert>
        )}
      >
        {(status) => (
          <>
            {status.required && !status.enabled ? (
              <Alert kind="warning">
                {asked
                  ? t`Les administrateurs doivent activer la connexion en deux étapes avant d'utiliser l'administration.`
                  : t`La connexion en deux étapes est obligatoire pour votre compte.`}
              </Alert>
            ) : null}
            {failure ? <Alert kind="error">{failure}</Alert> : null}
            {codes ? (
              <RecoveryCodes
                codes={codes}
                onDone={() => {
                  setCodes(undefined)
                  reload()
                }}
              />
            ) : status.enabled ? (
              <>
                <p role="status">
                  {t`La connexion en deux étapes est activée.`} {t`Codes de secours restants : ${status.recoveryCodesLeft}`}
                </p>
                <Disable onDisabled={() => reload()} />
              </>
            ) : setup ? (
              <Enrolment
                setup={setup}
                onEnabled={(recoveryCodes) => {
                  setSetup(undefined)
                  setCodes(recoveryCodes)
                }}
              />
            ) : (
              <>
                <p>{t`Après votre mot de passe, un code de votre application d'authentification vous sera demandé à chaque connexion.`}</p>
                <button type="button" className="button" onClick={() => void start()}>
                  {t`Activer la connexion en deux étapes`}
                </button>
              </>
            )}
          </>
        )}
      </Loaded>
    </section>
  )
}
