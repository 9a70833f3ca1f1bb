// Anchors of the synthetic economy series: [date, percent] points, linearly interpolated. Their
// shapes loosely follow the 2021–2026 cycle; the values are synthetic.

export const INFLATION_RATE: readonly (readonly [string, number])[] = [
  ['2020-01-01', 2.0], ['2021-06-01', 5.0], ['2022-06-01', 9.0], ['2023-06-01', 3.5], ['2024-06-01', 3.0], ['2025-06-01', 2.7], ['2026-12-01', 2.5],
];
export const SHORT_RATE: readonly (readonly [string, number])[] = [
  ['2020-01-01', 0.05], ['2022-03-01', 0.3], ['2022-12-31', 4.3], ['2023-08-01', 5.45], ['2024-08-01', 5.3], ['2024-12-31', 4.3], ['2025-12-31', 3.7], ['2026-12-31', 3.4],
];
export const TEN_YEAR: readonly (readonly [string, number])[] = [
  ['2020-01-01', 1.5], ['2021-11-20', 1.6], ['2022-10-20', 4.1], ['2023-04-01', 3.5], ['2023-10-19', 4.95], ['2024-09-15', 3.65], ['2025-01-14', 4.75], ['2025-09-01', 4.2], ['2026-12-31', 4.1],
];

/** Treasury yield fields and their tenor in years. */
export const TENORS: readonly (readonly [string, number])[] = [
  ['yield_1_month', 1 / 12], ['yield_3_month', 0.25], ['yield_6_month', 0.5], ['yield_1_year', 1], ['yield_2_year', 2], ['yield_3_year', 3],
  ['yield_5_year', 5], ['yield_7_year', 7], ['yield_10_year', 10], ['yield_20_year', 20], ['yield_30_year', 30],
];
