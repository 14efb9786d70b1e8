/**
 * The spec's "Codes per operation" table (partner API specification, section "Codes per operation"),
 * transcribed as the project's own contract data: `npm test` checks that the sandbox answers every row,
 * and `npm run spec:check` (run by CI when the specification sits beside the repository) checks that
 * this table still matches the specification's text.
 */
export interface ErrorTableRow {
  operation: string;
  status: number;
  /** The `error` code, or "(code not shown)" where the spec gives none (our assumption is tested). */
  error: string;
  condition: string;
}

export const ERROR_TABLE: readonly ErrorTableRow[] = [
  {
    operation: 'SSO init',
    status: 400,
    error: 'INVALID_REQUEST',
    condition: 'Body malformed or userId missing/non-numeric',
  },
  { operation: 'SSO init', status: 400, error: 'MISSING_ACCOUNT_HEADER', condition: 'Header absent' },
  {
    operation: 'SSO init',
    status: 401,
    error: 'INVALID_CREDENTIALS',
    condition: 'Token missing, expired, invalid',
  },
  {
    operation: 'SSO init',
    status: 403,
    error: 'SSO_NOT_ENABLED',
    condition: 'Partner lacks the embedded SSO feature',
  },
  {
    operation: 'SSO init',
    status: 404,
    error: 'USER_NOT_FOUND',
    condition:
      'User does not exist, or account/user not accessible (returned instead of 403 so existence cannot be probed)',
  },
  {
    operation: 'SSO init',
    status: 409,
    error: 'USER_INACTIVE',
    condition: 'User disabled, deleted or blocked from login',
  },
  {
    operation: 'SSO init',
    status: 429,
    error: 'RATE_LIMITED',
    condition: 'Too many init-token requests for the partner; header `Retry-After` gives the wait',
  },
  { operation: 'SSO init', status: 500, error: 'INTERNAL_ERROR', condition: 'Unexpected' },
  {
    operation: 'Create account',
    status: 400,
    error: 'INVALID_REQUEST',
    condition: 'Body malformed or invalid',
  },
  {
    operation: 'Create account',
    status: 403,
    error: 'INSUFFICIENT_SCOPE',
    condition: 'Lacks account write scope',
  },
  {
    operation: 'Create account',
    status: 409,
    error: 'ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS',
    condition: 'externalId already used for this partner',
  },
  {
    operation: 'Create account',
    status: 409,
    error: 'USER_EMAIL_ALREADY_EXISTS',
    condition: "Initial user's email in use",
  },
  { operation: 'List accounts', status: 400, error: 'INVALID_REQUEST', condition: 'Invalid query parameter' },
  {
    operation: 'Get/Update/Delete account',
    status: 400,
    error: 'MISSING_ACCOUNT_HEADER',
    condition: 'Header absent',
  },
  {
    operation: 'Get/Update/Delete account',
    status: 404,
    error: 'ACCOUNT_NOT_FOUND',
    condition: 'No such account or not accessible',
  },
  {
    operation: 'Update account',
    status: 400,
    error: 'INVALID_REQUEST',
    condition: 'Body malformed or invalid',
  },
  { operation: 'Create user', status: 400, error: 'INVALID_REQUEST', condition: 'Body malformed or invalid' },
  {
    operation: 'Create user',
    status: 400,
    error: 'MAX_USERS_REACHED',
    condition: "Account reached the plan's user limit",
  },
  { operation: 'Create user', status: 404, error: 'ACCOUNT_NOT_FOUND', condition: 'No account for header' },
  {
    operation: 'Create user',
    status: 404,
    error: 'COMPANY_NOT_FOUND',
    condition: 'companyId not in the account',
  },
  {
    operation: 'Create user',
    status: 409,
    error: 'USER_EXTERNAL_ID_ALREADY_EXISTS',
    condition: 'externalId used in the account',
  },
  { operation: 'Create user', status: 409, error: 'USER_EMAIL_ALREADY_EXISTS', condition: 'Email in use' },
  { operation: 'List users', status: 400, error: 'INVALID_REQUEST', condition: 'Invalid query parameter' },
  {
    operation: 'List users',
    status: 404,
    error: 'ACCOUNT_NOT_FOUND',
    condition: 'Account missing or not accessible',
  },
  {
    operation: 'Get/Update/Delete user',
    status: 404,
    error: 'ACCOUNT_NOT_FOUND',
    condition: 'Account missing or not accessible',
  },
  {
    operation: 'Get/Update/Delete user',
    status: 404,
    error: 'USER_NOT_FOUND',
    condition: 'No such user in the account',
  },
  { operation: 'Update user', status: 400, error: 'INVALID_REQUEST', condition: 'Body malformed or invalid' },
  {
    operation: 'Delete user',
    status: 409,
    error: 'USER_CANNOT_BE_DELETED',
    condition: 'Only remaining user of the account',
  },
  {
    operation: 'Delete user',
    status: 409,
    error: 'LAST_ADMIN_CANNOT_BE_DELETED',
    condition: 'Only remaining admin of the account',
  },
  {
    operation: 'Create bank account',
    status: 400,
    error: 'INVALID_REQUEST',
    condition: 'Body malformed or invalid',
  },
  {
    operation: 'Create bank account',
    status: 400,
    error: 'MAX_BANK_ACCOUNTS_REACHED',
    condition: 'Subscription bank-account limit reached',
  },
  {
    operation: 'Create bank account',
    status: 404,
    error: 'COMPANY_NOT_FOUND',
    condition: 'Company missing or inaccessible',
  },
  {
    operation: 'Update/Delete bank account',
    status: 404,
    error: 'BANK_ACCOUNT_NOT_FOUND',
    condition: 'Missing or inaccessible',
  },
  {
    operation: 'Update/Delete bank account',
    status: 409,
    error: 'BANK_ACCOUNT_NOT_MODIFIABLE',
    condition: 'Account not managed by the partner surface',
  },
  {
    operation: 'Update bank account',
    status: 400,
    error: 'INVALID_REQUEST',
    condition: 'Body malformed or invalid',
  },
  {
    operation: 'Convert bank account',
    status: 400,
    error: 'INVALID_REQUEST',
    condition: 'Body malformed or targetProvider missing/invalid',
  },
  {
    operation: 'Convert bank account',
    status: 400,
    error: 'PROVIDER_CONVERSION_TOO_SOON',
    condition: 'Converted within the last 30 days',
  },
  {
    operation: 'Convert bank account',
    status: 400,
    error: 'MAX_BANK_ACCOUNTS_REACHED',
    condition: 'Conversion to API would exceed the limit',
  },
  {
    operation: 'Convert bank account',
    status: 404,
    error: 'BANK_ACCOUNT_NOT_FOUND',
    condition: 'Missing or inaccessible',
  },
  {
    operation: 'Convert bank account',
    status: 409,
    error: 'PROVIDER_CONVERSION_NOT_ALLOWED',
    condition: 'Current or target provider is not API/OFFLINE',
  },
  {
    operation: 'Transaction writes',
    status: 409,
    error: 'BANK_ACCOUNT_NOT_MODIFIABLE',
    condition: 'Account managed by another surface',
  },
  {
    operation: 'Bulk create (invoices, transactions)',
    status: 400,
    error: '(code not shown)',
    condition: 'More than 1000 items',
  },
  {
    operation: 'Any bank account or user or account operation',
    status: 401,
    error: 'INVALID_CREDENTIALS',
    condition: 'Token missing, expired, invalid',
  },
  { operation: 'Any of the above', status: 403, error: 'INSUFFICIENT_SCOPE', condition: 'Scope lacking' },
  { operation: 'Any of the above', status: 500, error: 'INTERNAL_ERROR', condition: 'Unexpected' },
];
