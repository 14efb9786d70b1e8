import * as z from 'zod';
import { CATEGORY_TYPES, PLAN_PERIODS, PLAN_TYPES } from '../enums.js';
import { LIMITS } from '../limits.js';
import { boundedNumber, int64, isoDate, openEnum, queryInt } from '../primitives.js';

// Categories -------------------------------------------------------------------------------------

export const Category = z.looseObject({
  id: int64,
  name: z.string(),
  type: openEnum(CATEGORY_TYPES),
  parentId: int64.nullable().optional(),
  enabledForPlannedTransactions: z.boolean().optional(),
});
export type Category = z.output<typeof Category>;

export const CreateCategoryRequest = z.strictObject({
  name: z.string().min(1),
  /** Required, but ignored when parentId is given (the child takes the parent's type). */
  type: z.enum(CATEGORY_TYPES),
  parentId: int64.nullable().optional(),
});
export type CreateCategoryRequest = z.output<typeof CreateCategoryRequest>;

export const UpdateCategoryRequest = z.strictObject({
  name: z.string().min(1).optional(),
  type: z.enum(CATEGORY_TYPES).optional(),
});
export type UpdateCategoryRequest = z.output<typeof UpdateCategoryRequest>;

// Scenarios --------------------------------------------------------------------------------------

export const Scenario = z.looseObject({ id: int64, name: z.string(), isBaseCase: z.boolean() });
export type Scenario = z.output<typeof Scenario>;

// Plans ------------------------------------------------------------------------------------------

/**
 * Date rule of the spec: MONTHLY plans sit on the first day of the month, WEEKLY plans on the
 * first day of the week (assumption: ISO weeks, Monday). Returns a message when the rule is broken.
 */
export function planDateProblem(period: string, date: string): string | undefined {
  const day = new Date(`${date}T00:00:00Z`);
  if (period === 'MONTHLY' && day.getUTCDate() !== 1)
    return 'MONTHLY plans must be dated on the first day of a month';
  if (period === 'WEEKLY' && day.getUTCDay() !== 1)
    return 'WEEKLY plans must be dated on a Monday (first day of the ISO week)';
  return undefined;
}

export const PlanRequest = z
  .strictObject({
    categoryId: int64.optional(),
    categoryName: z.string().min(1).optional(),
    amount: boundedNumber(LIMITS.amount.min, LIMITS.amount.max),
    period: z.enum(PLAN_PERIODS),
    date: isoDate,
    type: z.enum(PLAN_TYPES),
    name: z.string().min(LIMITS.planName.min).max(LIMITS.planName.max),
    scenarioId: int64.optional(),
    scenarioName: z.string().min(1).optional(),
    replaceCurrentValuesForThePeriod: z.boolean().optional(),
  })
  .superRefine((plan, ctx) => {
    const problem = planDateProblem(plan.period, plan.date);
    if (problem) ctx.addIssue({ code: 'custom', path: ['date'], message: problem });
  });
export type PlanRequest = z.output<typeof PlanRequest>;

export const CreatePlanResponse = z.looseObject({ success: z.boolean(), message: z.string(), planId: int64 });
export type CreatePlanResponse = z.output<typeof CreatePlanResponse>;

/** Assumption: the plan bulk endpoint has the same 1..1000 limit as the other bulk endpoints. */
export const BulkPlansRequest = z.array(PlanRequest).min(LIMITS.bulkItems.min).max(LIMITS.bulkItems.max);
export type BulkPlansRequest = z.output<typeof BulkPlansRequest>;

export const BulkPlansResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  createdCount: z.int(),
  planIds: z.array(int64),
});
export type BulkPlansResponse = z.output<typeof BulkPlansResponse>;

export const DeletePlansQuery = z.strictObject({ categoryId: queryInt(), scenarioId: queryInt() });
export type DeletePlansQuery = z.output<typeof DeletePlansQuery>;

export const DeletePlansResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  deletedCount: z.int(),
});
export type DeletePlansResponse = z.output<typeof DeletePlansResponse>;
