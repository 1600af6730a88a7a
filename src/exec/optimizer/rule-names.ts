/**
 * The optimizer's rule names, in the order the rules run, and the parser of the setting that switches them
 * off: `SET lakegate.disabled_optimizer_rules = 'push_down_limit,simplify_expressions'`. Kept free of
 * imports so that the engine's setting table can validate names without loading the optimizer.
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

export const OPTIMIZER_RULE_NAMES = [
  'simplify_expressions',
  'or_equalities_to_any',
  'push_filter_below_projection',
  'subquery_to_semi_join',
  'eager_aggregation',
  'left_join_aggregate_per_row',
  'aggregate_below_left_join',
  'reorder_inner_joins',
  'push_down_join_conditions',
  'derive_or_filters',
  'join_dimension_branches',
  'semi_join_to_distinct_inner',
  'order_filtering_joins',
  'exists_pair_to_key_min_max',
  'push_down_filter',
  'split_subquery_filters',
  'correlated_aggregate_from_join',
  'aggregate_over_unique_rows',
  'key_columns_after_limit',
  'push_down_limit',
  'push_down_projection',
  'choose_build_side',
  'build_side_under_key_filters',
  'build_filtered_fact_side',
  'wide_probe_key_filters',
  'partial_aggregate',
  'aggregate_from_metadata',
  'prune_join_columns',
  'share_repeated_subplans',
] as const;

export type OptimizerRuleName = (typeof OPTIMIZER_RULE_NAMES)[number];

export const DISABLED_RULES_SETTING = 'lakegate.disabled_optimizer_rules';

/** the rule names of a setting value; 22023 for names that are not rules */
export function parseDisabledRules(value: string): OptimizerRuleName[] {
  const names = value.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0);
  const known = new Set<string>(OPTIMIZER_RULE_NAMES);
  const bad = names.filter((n) => !known.has(n));
  if (bad.length > 0) {
    throw pgError(SqlState.invalid_parameter_value, `invalid value for parameter "${DISABLED_RULES_SETTING}": "${value}"`, {
      detail: `Unknown optimizer rule${bad.length === 1 ? '' : 's'}: ${bad.join(', ')}.`,
      hint: `Available rules: ${OPTIMIZER_RULE_NAMES.join(', ')}.`,
    });
  }
  return names as OptimizerRuleName[];
}

/** the canonical stored value: known names, comma-separated, without blanks or duplicates */
export function normalizeDisabledRules(value: string): string {
  return [...new Set(parseDisabledRules(value))].join(',');
}
