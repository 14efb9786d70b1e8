/** How a cell is read into a service field. */
export type FieldType = 'string' | 'date' | 'amount' | 'integer' | 'boolean';

/** One service field a mapping may fill: its cell type and whether the service requires it. */
export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  /** Value used when the mapping does not name the field at all. */
  implicit?: string | number | boolean;
}

/** A kind's mappable fields by service name, in the order they are read. */
export type KindFields = Readonly<Record<string, FieldSpec>>;

/**
 * The field by which a record of a customer account's kind (users, categories) names its account:
 * the account's externalId, resolved per record (src/kinds/account-route.ts).
 */
export const ACCOUNT_FIELD = 'accountExternalId';
export const ACCOUNT_FIELD_SPEC: FieldSpec = { type: 'string' };
