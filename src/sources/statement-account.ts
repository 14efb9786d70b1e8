/** The account a bank statement is for, as its file names it, and the statement's currency. */
export interface StatementAccount {
  /** IBAN, camt `Othr/Id` or MT940 `:25:`, as accountKey gives it. */
  account: string;
  currency?: string;
  /**
   * The statement gives the account as another identifier than an IBAN (camt `Acct/Id/Othr/Id`),
   * whatever it looks like: bankAccounts: auto creates no account for it.
   */
  otherId?: true;
}

/** An account identifier as compared: banks print IBANs in groups of four, feeds may too. */
export const accountKey = (id: string): string => id.replace(/\s+/g, '').toUpperCase();
