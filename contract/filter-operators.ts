/** The comparison operators of `filter` and `customFields` (docs/api.md#list-parameters). */
export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'includes'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
