import { I18nProvider } from "@lingui/react"
import { useLingui } from "@lingui/react/macro"
import { useAtomValue } from "jotai"
import { lazy, Suspense, useEffect } from "react"
import { Link, Redirect, Route, Switch, useLocation, useSearch } from "wouter"
import { CookieBanner } from "./components/CookieBanner"
import { Header } from "./components/Nav"
import { Loading } from "./components/page"
import { Toasts } from "./components/Toasts"
import { i18n } from "./i18n"
import { decideAccess } from "./routing/access"
import { sessionStatusAtom, userAtom } from "./state/session"
import { siteName } from "./brand"
import { CurrencyPicker } from "./components/CurrencyPicker"

// Every screen is its own chunk: the first load carries only the shell.
const Login = lazy(() => import("./screens/Login"))
const Register = lazy(() => import("./screens/Register"))
const ForgotPassword = lazy(() => import("./screens/ForgotPassword"))
const ResetPassword = lazy(() => import("./screens/ResetPassword"))
const VerifyEmail = lazy(() => import("./screens/VerifyEmail"))
const ConfirmEmail = lazy(() => import("./screens/ConfirmEmail"))
const DataExport = lazy(() => import("./screens/DataExport"))
const VerificationRequired = lazy(() => import("./screens/VerificationRequired"))
const About = lazy(() => import("./screens/About"))
const Favorites = lazy(() => import("./screens/Favorites"))
const Contact = lazy(() => import("./screens/Contact"))
const Cookies = lazy(() => import("./screens/Cookies"))
const Services = lazy(() => import("./screens/Services"))
const ServiceDetail = lazy(() => import("./screens/ServiceDetail"))
const ServiceCreate = lazy(() => import("./screens/ServiceCreate"))
const ServiceEdit = lazy(() => import("./screens/ServiceEdit"))
const MyServices = lazy(() => import("./screens/MyServices"))
const Search = lazy(() => import("./screens/Search"))
const PaymentsSetup = lazy(() => import("./screens/PaymentsSetup"))
const PaymentsRequired = lazy(() => import("./screens/PaymentsRequired"))
const BecomeProvider = lazy(() => import("./screens/BecomeProvider"))
const AdminApplications = lazy(() => import("./screens/AdminApplications"))
const AdminApplicationDetail = lazy(() => import("./screens/AdminApplicationDetail"))
const AdminDashboard = lazy(() => import("./screens/AdminDashboard"))
const AdminUsers = lazy(() => import("./screens/AdminUsers"))
const AdminBookings = lazy(() => import("./screens/AdminBookings"))
const AdminBookingDetail = lazy(() => import("./screens/AdminBookingDetail"))
const AdminServices = lazy(() => import("./screens/AdminServices"))
const AdminFinancial = lazy(() => import("./screens/AdminFinancial"))
const AdminAnalytics = lazy(() => import("./screens/AdminAnalytics"))
const AdminReports = lazy(() => import("./screens/AdminReports"))
const AdminReportDetail = lazy(() => import("./screens/AdminReportDetail"))
const AdminAudit = lazy(() => import("./screens/AdminAudit"))
const AdminRates = lazy(() => import("./screens/AdminRates"))
const Profile = lazy(() => import("./screens/Profile"))
const PublicProfile = lazy(() => import("./screens/PublicProfile"))
const Bookings = lazy(() => import("./screens/Bookings"))
const ProviderCalendar = lazy(() => import("./screens/ProviderCalendar"))
const ProviderAvailability = lazy(() => import("./screens/ProviderAvailability"))
const ProviderEarnings = lazy(() => import("./screens/ProviderEarnings"))
const Receipt = lazy(() => import("./screens/Receipt"))
const Messaging = lazy(() => import("./screens/Messaging"))
const Settings = lazy(() => import("./screens/Settings"))
const NotFound = lazy(() => import("./screens/NotFound"))

const Routes = () => {
  const [location] = useLocation()
  const search = useSearch()
  const user = useAtomValue(userAtom)
  const status = useAtomValue(sessionStatusAtom)
  const access = decideAccess(search ? `${location}?${search}` : location, user)
  if (access.kind === "redirect") {
    // While a stored session is being checked, wait rather than send a logged-in user to /login.
    return status === "checking" ? <Loading /> : <Redirect to={access.to} replace />
  }
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/services" component={Services} />
        <Route path="/services/create" component={ServiceCreate} />
        <Route path="/services/my" component={MyServices} />
        <Route path="/services/:id/edit" component={ServiceEdit} />
        <Route path="/services/:id" component={ServiceDetail} />
        <Route path="/search" component={Search} />
        <Route path="/favorites" component={Favorites} />
        <Route path="/bookings" component={Bookings} />
        <Route path="/bookings/:id/receipt" component={Receipt} />
        <Route path="/provider/calendar" component={ProviderCalendar} />
        <Route path="/provider/availability" component={ProviderAvailability} />
        <Route path="/provider/earnings" component={ProviderEarnings} />
        <Route path="/messaging" component={Messaging} />
        <Route path="/messages" component={Messaging} />
        <Route path="/provider/payments/setup" component={PaymentsSetup} />
        <Route path="/provider/payments/required" component={PaymentsRequired} />
        <Route path="/become-provider" component={BecomeProvider} />
        <Route path="/admin/applications" component={AdminApplications} />
        <Route path="/admin/applications/:id" component={AdminApplicationDetail} />
        <Route path="/admin" component={AdminDashboard} />
        <Route path="/admin/users" component={AdminUsers} />
        <Route path="/admin/bookings" component={AdminBookings} />
        <Route path="/admin/bookings/:id" component={AdminBookingDetail} />
        <Route path="/admin/services" component={AdminServices} />
        <Route path="/admin/financial" component={AdminFinancial} />
        <Route path="/admin/analytics" component={AdminAnalytics} />
        <Route path="/admin/reports" component={AdminReports} />
        <Route path="/admin/reports/:id" component={AdminReportDetail} />
        <Route path="/admin/audit" component={AdminAudit} />
        <Route path="/admin/rates" component={AdminRates} />
        <Route path="/profile" component={Profile} />
        <Route path="/profile/:id" component={PublicProfile} />
        <Route path="/login" component={Login} />
        <Route path="/register" component={Register} />
        <Route path="/forgot-password" component={ForgotPassword} />
        <Route path="/reset-password/:token" component={ResetPassword} />
        <Route path="/verify-email/:token" component={VerifyEmail} />
        <Route path="/confirm-email/:token" component={ConfirmEmail} />
        <Route path="/account/export/:token" component={DataExport} />
        <Route path="/email-verification-required" component={VerificationRequired} />
        <Route path="/about" component={About} />
        <Route path="/contact" component={Contact} />
        <Route path="/cookies" component={Cookies} />
        <Route path="/settings" component={Settings} />
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  )
}

const Footer = () => {
  const { t } = useLingui()
  const year = new Date().getFullYear()
  return (
    <footer className="site-footer">
      <nav aria-label={t`Liens de bas de page`}>
        <ul>
          <li>
            <Link href="/about">{t`À propos`}</Link>
          </li>
          <li>
            <Link href="/contact">{t`Contact`}</Link>
          </li>
          <li>
            <Link href="/cookies">{t`Cookies`}</Link>
          </li>
        </ul>
      </nav>
      <CurrencyPicker />
      <p>{t`© ${year} ${siteName()}, Montréal`}</p>
    </footer>
  )
}

const Shell = () => {
  const { t } = useLingui()
  const [location] = useLocation()
  // Block body on purpose: recent browsers return a Promise from scrollTo, and an effect must not
  // return anything but a cleanup function.
  useEffect(() => {
    window.scrollTo(0, 0)
  }, [location])
  return (
    <>
      <a className="skip-link" href="#main">
        {t`Aller au contenu`}
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <Routes />
      </main>
      <Footer />
      <Toasts />
      <CookieBanner />
    </>
  )
}

// I18nProvider re-renders its consumers when i18n.activate() switches the language.
export const App = () => (
  <I18nProvider i18n={i18n}>
    <Shell />
  </I18nProvider>
)
