/** A provider's connected (payout) account as the product sees it. */
export interface PaymentAccount {
  readonly userId: string
  readonly gateway: "stripe" | "sandbox"
  readonly accountId: string
  readonly country: string
  readonly chargesEnabled: boolean
  readonly payoutsEnabled: boolean
  readonly detailsSubmitted: boolean
}

/** A provider can publish services and be paid once the gateway lets the account take charges. */
export const canTakeCharges = (account: PaymentAccount | undefined) => account?.chargesEnabled === true
