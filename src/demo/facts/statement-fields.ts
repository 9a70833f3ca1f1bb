// Field names of the financial statements: the flows that add up over quarters (annual and TTM
// rows are sums of four quarters) and the fields shown even when zero.

export const INCOME_FLOWS = [
  'revenue', 'cost_of_revenue', 'gross_profit', 'selling_general_administrative', 'research_development',
  'depreciation_depletion_amortization', 'other_operating_expenses', 'total_operating_expenses', 'operating_income',
  'interest_income', 'interest_expense', 'other_income_expense', 'total_other_income_expense', 'income_before_income_taxes',
  'income_taxes', 'consolidated_net_income_loss', 'noncontrolling_interest', 'preferred_stock_dividends_declared',
  'net_income_loss_attributable_common_shareholders', 'ebitda',
];

export const CASH_FLOWS = [
  'net_income', 'depreciation_depletion_and_amortization', 'change_in_other_operating_assets_and_liabilities_net',
  'other_operating_activities', 'cash_from_operating_activities_continuing_operations', 'net_cash_from_operating_activities',
  'purchase_of_property_plant_and_equipment', 'sale_of_property_plant_and_equipment', 'other_investing_activities',
  'net_cash_from_investing_activities_continuing_operations', 'net_cash_from_investing_activities',
  'short_term_debt_issuances_repayments', 'long_term_debt_issuances_repayments', 'dividends', 'other_financing_activities',
  'net_cash_from_financing_activities_continuing_operations', 'net_cash_from_financing_activities',
  'effect_of_currency_exchange_rate', 'change_in_cash_and_equivalents',
];

/** Shown on every row even when zero (other zero-valued lines are left out). */
export const ALWAYS = ['revenue', 'net_income', 'total_assets', 'total_liabilities', 'total_equity', 'change_in_cash_and_equivalents', 'cash_and_equivalents'];
