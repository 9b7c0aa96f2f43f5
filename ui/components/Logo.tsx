import { siteName } from "../brand"

/** The logo mark (the same drawing as ui/public/favicon.svg): a "P" drawn as a path with an amber dot, on the primary colour. */
export const LogoMark = ({ size = 32 }: { size?: number }) => (
  <svg className="logo-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect width="32" height="32" rx="9" fill="var(--primary, #0f766e)" />
    <path
      d="M11.5 24.5V9.5h5.5a5.25 5.25 0 0 1 0 10.5h-5.5"
      fill="none"
      stroke="#fff"
      strokeWidth="3.2"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
    <circle cx="22.5" cy="23.5" r="2.4" fill="#fbbf24" />
  </svg>
)

/** The brand in the header: the mark and the name (the link's accessible name is the name). */
export const Brand = () => (
  <>
    <LogoMark />
    <span className="brand-name">{siteName()}</span>
  </>
)
