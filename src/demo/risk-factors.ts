// Rows of the risk-category data set, one per tertiary category of the taxonomy.

import type { DatasetRecord } from '../store/repos/datasets.js';
import { TAXONOMY } from './facts/risk-taxonomy.js';

const display = (s: string) => s.replace(/_/g, ' ');

export function riskCategoryRows(): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  for (const [primary, seconds] of Object.entries(TAXONOMY)) {
    for (const [secondary, thirds] of Object.entries(seconds)) {
      for (const [tertiary, phrase] of Object.entries(thirds)) {
        out.push({
          taxonomy: 1,
          primary_category: primary,
          secondary_category: secondary,
          tertiary_category: tertiary,
          description: `Risk that the company ${phrase} (${display(primary)} / ${display(secondary)}).`,
        });
      }
    }
  }
  return out;
}
