import type { KindFields } from '../../sources/field-spec.js';

export const PLAN_FIELDS: KindFields = {
  /** Not sent (plans have no externalId in the API); names the record in reports. */
  externalId: { type: 'string' },
  name: { type: 'string', required: true },
  amount: { type: 'amount', required: true },
  period: { type: 'string', required: true },
  date: { type: 'date', required: true },
  type: { type: 'string', implicit: 'ONE_TIME' },
  categoryId: { type: 'integer' },
  categoryName: { type: 'string' },
  scenarioId: { type: 'integer' },
  scenarioName: { type: 'string' },
  replaceCurrentValuesForThePeriod: { type: 'boolean' },
};
