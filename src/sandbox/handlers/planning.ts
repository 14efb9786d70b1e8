import { handlers, ok } from '../context.js';
import { publicView } from '../state.js';
import { recordAt } from './path-ids.js';
import { categoryHandlers } from './planning-categories.js';
import { planHandlers } from './planning-plans.js';

/** Scenarios are read only: every account has exactly one base case, made with the account. */
const scenarioHandlers = handlers({
  listScenarios: {
    handle: (ctx) => ok([...ctx.account.scenarios.values()].map(publicView)),
  },
  getScenario: {
    handle: (ctx) =>
      ok(
        publicView(
          recordAt(ctx.account.scenarios, ctx.params, 'scenarioId', 'SCENARIO_NOT_FOUND', 'scenario'),
        ),
      ),
  },
});

/** Categories, scenarios and plans (bare bodies for categories and scenarios, per the spec). */
export const planningHandlers = handlers({ ...categoryHandlers, ...scenarioHandlers, ...planHandlers });
