import type { MessageDescriptor } from "@lingui/core"
import { msg } from "@lingui/core/macro"
import { useLingui } from "@lingui/react/macro"
import { useEffect, useState, type FormEvent } from "react"
import { ApiError } from "../api/client"
import { contactApi } from "../api/endpoints"
import { CONTACT_SUBJECTS, type ContactSubject } from "../api/contract"
import { useCancellationPolicy, useCancellationPolicyText } from "../components/booking/Cancellation"
import { Alert, SelectField, SubmitButton, TextArea, TextField, useFocusFirstInvalid } from "../components/forms"
import { Page } from "../components/page"
import { problemTexts } from "../components/problems"
import { checkEmail, type Problems } from "../validation"
import { siteName } from "../brand"

const SENT_MS = 5000

const subjects: Record<ContactSubject, MessageDescriptor> = {
  general: msg`Question générale`,
  technical: msg`Problème technique`,
  account: msg`Mon compte`,
  payment: msg`Paiement`,
  privacy: msg`Confidentialité`,
  bug: msg`Signaler un bug`,
  feature: msg`Suggestion de fonctionnalité`,
  other: msg`Autre`
}

type Fields = "name" | "email" | "subject" | "message"
const EMPTY: Record<Fields, string> = { name: "", email: "", subject: "", message: "" }

/** Line icons of the support channels (decorative: each channel has its own term). */
const channelIcons = {
  phone: "M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z",
  hours: "M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z",
  address: "M12 21s-7-6.1-7-11a7 7 0 0 1 14 0c0 4.9-7 11-7 11zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z"
} as const

const ChannelIcon = ({ path }: { path: string }) => (
  <svg className="channel-icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
    <path d={path} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
)

const Faq = () => {
  const { t } = useLingui()
  const policy = useCancellationPolicy()
  const policyText = useCancellationPolicyText()
  const entries = [
    {
      q: t`Comment réserver un service ?`,
      a: t`Choisissez un service, indiquez la date, l'heure et l'adresse, puis validez le paiement. Le prestataire confirme ensuite votre demande.`
    },
    {
      q: t`Quand ma carte est-elle débitée ?`,
      a: t`Le montant est réservé sur votre carte avant la prestation et n'est débité qu'une fois le service rendu et validé, ou, si vous annulez tardivement une réservation confirmée, à hauteur des frais d'annulation.`
    },
    {
      q: t`Comment devenir prestataire ?`,
      a: t`Créez un compte client, puis demandez à devenir prestataire depuis le menu. Vous devrez configurer un compte de paiement pour recevoir vos revenus.`
    },
    {
      q: t`Puis-je annuler une réservation ?`,
      a: [t`Oui, depuis la page Mes réservations, jusqu'au début de la prestation.`, policy ? policyText(policy) : ""].join(" ").trim()
    }
  ]
  return (
    <section className="faq-section" aria-labelledby="faq">
      <h2 id="faq">{t`Questions fréquentes`}</h2>
      {entries.map((entry) => (
        <details key={entry.q} className="faq">
          <summary>{entry.q}</summary>
          <p>{entry.a}</p>
        </details>
      ))}
    </section>
  )
}

export default function Contact() {
  const { t, i18n } = useLingui()
  const [values, setValues] = useState(EMPTY)
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({})
  const formRef = useFocusFirstInvalid(errors)
  const [failure, setFailure] = useState<{ network: boolean; text: string }>()
  const [sent, setSent] = useState<string>()
  const [busy, setBusy] = useState(false)
  const field = (name: Fields) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value }))
  })

  // The confirmation stays 5 s, then the form comes back empty.
  useEffect(() => {
    if (!sent) return
    const timer = setTimeout(() => {
      setSent(undefined)
      setValues(EMPTY)
    }, SENT_MS)
    return () => clearTimeout(timer)
  }, [sent])

  const send = async () => {
    const problems: Problems<Fields> = {}
    for (const name of ["name", "subject", "message"] as const) if (values[name].trim() === "") problems[name] = "required"
    const emailProblem = checkEmail(values.email)
    if (emailProblem) problems.email = emailProblem
    setErrors(problemTexts(i18n, problems))
    setFailure(undefined)
    if (Object.keys(problems).length > 0) return
    setBusy(true)
    try {
      const answer = await contactApi.send({ ...values, subject: values.subject as ContactSubject }, true)
      setSent(answer.message ?? t`Votre message a été envoyé.`)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      if (error.status === 0)
        setFailure({ network: true, text: t`Erreur réseau : impossible d'envoyer le message. Vérifiez votre connexion et réessayez.` })
      else if (error.status === 422 && error.details.length > 0) setErrors(error.fieldErrors())
      else {
        const reason = error.message || t`erreur inconnue`
        setFailure({ network: false, text: t`Erreur lors de l'envoi : ${reason}` })
      }
    } finally {
      setBusy(false)
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    void send()
  }

  return (
    <Page title={t`Contact`} intro={t`Une question, un problème ? Notre équipe vous répond sous 24 à 48 heures ouvrables.`}>
      <div className="contact-layout">
        <section className="card contact-form-card" aria-labelledby="contact-form">
          <h2 id="contact-form">{t`Envoyer un message`}</h2>
          {sent ? (
            <Alert kind="success">{sent}</Alert>
          ) : (
            <>
              {failure ? (
                <Alert kind="error">
                  <p>{failure.text}</p>
                  {failure.network ? (
                    <button type="button" className="button-secondary" onClick={() => void send()}>
                      {t`Réessayer`}
                    </button>
                  ) : null}
                </Alert>
              ) : null}
              <form className="form" noValidate ref={formRef} onSubmit={submit}>
                <div className="form-row">
                  <TextField label={t`Nom`} autoComplete="name" {...field("name")} />
                  <TextField label={t`Email`} type="email" autoComplete="email" {...field("email")} />
                </div>
                <SelectField
                  label={t`Sujet`}
                  placeholder={t`Choisissez un sujet`}
                  options={CONTACT_SUBJECTS.map((value) => ({ value, label: i18n._(subjects[value]) }))}
                  {...field("subject")}
                />
                <TextArea label={t`Message`} maxLength={5000} {...field("message")} />
                <SubmitButton busy={busy}>{t`Envoyer`}</SubmitButton>
              </form>
            </>
          )}
        </section>
        <aside className="contact-info" aria-labelledby="contact-info">
          <h2 id="contact-info">{t`Nous joindre`}</h2>
          <dl className="contact-channels">
            <div className="contact-channel">
              <dt>
                <ChannelIcon path={channelIcons.phone} />
                {t`Téléphone du support`}
              </dt>
              <dd>
                <a href="tel:+15145550142">+1 514 555-0142</a>
              </dd>
            </div>
            <div className="contact-channel">
              <dt>
                <ChannelIcon path={channelIcons.hours} />
                {t`Horaires`}
              </dt>
              <dd>{t`Du lundi au vendredi, de 9 h à 17 h (heure de l'Est)`}</dd>
            </div>
            <div className="contact-channel">
              <dt>
                <ChannelIcon path={channelIcons.address} />
                {t`Adresse`}
              </dt>
              <dd>
                <address>
                  {siteName()}
                  <br />
                  1250, rue Sainte-Catherine Ouest
                  <br />
                  Montréal (Québec) H3G 1P1
                  <br />
                  Canada
                </address>
              </dd>
            </div>
          </dl>
        </aside>
      </div>
      <Faq />
    </Page>
  )
}
