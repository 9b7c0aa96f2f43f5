/**
 * Who the product is to the people it writes to: the brand's name (SITE_NAME) and its public origin
 * (PUBLIC_URL). AppConfig has both, so callers pass it as is; pages, mails and receipts take this.
 */
export interface Brand {
  readonly siteName: string
  readonly publicUrl: string
}
