import { PlanRequest } from '../../contract/index.js';
import { type KindDefinition, NO_CHUNK_SETTINGS } from '../definition.js';
import { PLAN_FIELDS } from './fields.js';
import { syncPlansChunk } from './strategy.js';

export const plans: KindDefinition<PlanRequest> = {
  chunk: NO_CHUNK_SETTINGS,
  description: 'planned values per category, scenario and period (`replaceCurrentValuesForThePeriod`)',
  fields: PLAN_FIELDS,
  create: PlanRequest,
  amountField: 'amount',
  identityFields: [
    'categoryId',
    'categoryName',
    'date',
    'name',
    'period',
    'scenarioId',
    'scenarioName',
    'type',
  ],
  // The API has no externalId for plans: it only names the record in reports.
  sendsExternalId: false,
  // The feed-level switch applies to every row whose mapping does not set it per row.
  payloadDefaults: (feed) => ({ replaceCurrentValuesForThePeriod: feed.replaceCurrentValuesForThePeriod }),
  sync: (records, _settings, ctx) => syncPlansChunk(records, ctx),
};
