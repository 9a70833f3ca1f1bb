// Records of upstream REST bodies of reference data that no file importer reads (exchanges,
// conditions, ticker types, upcoming holidays), checked field by field like the market records
// (rest-market-records.ts). The other data sets' bodies load through their file importers
// (rest-page-writer.ts).
import type { ConditionRecord, ExchangeRecord, TickerTypeRecord } from '../store/records.js';
import { RecordShapeError, resultsOf } from '../upstream/rest-market-records.js';

type Obj = Record<string, unknown>;

/** Drops keys whose value is undefined (the stored bodies hold only the fields upstream gave). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function exchangesOf(body: Obj): ExchangeRecord[] {
  return resultsOf(body).map((f) =>
    defined({
      id: f.int('id'),
      type: f.str('type'),
      asset_class: f.str('asset_class') as ExchangeRecord['asset_class'],
      locale: f.str('locale') as ExchangeRecord['locale'],
      name: f.str('name'),
      acronym: f.str('acronym', true),
      mic: f.str('mic', true),
      operating_mic: f.str('operating_mic', true),
      participant_id: f.str('participant_id', true),
      url: f.str('url', true),
    }),
  );
}

export function conditionsOf(body: Obj): ConditionRecord[] {
  return resultsOf(body).map((f) => {
    const sip = f.obj('sip_mapping');
    if (sip && !Object.values(sip).every((v) => typeof v === 'string')) throw new RecordShapeError('sip_mapping', 'must map SIP names to strings');
    return defined({
      id: f.int('id'),
      type: f.str('type'),
      name: f.str('name'),
      abbreviation: f.str('abbreviation', true),
      description: f.str('description', true),
      asset_class: f.str('asset_class') as ConditionRecord['asset_class'],
      sip_mapping: sip as Record<string, string> | undefined,
      exchange: f.int('exchange', true),
      legacy: f.bool('legacy'),
      data_types: f.strings('data_types'),
      update_rules: f.obj('update_rules') as ConditionRecord['update_rules'],
    });
  });
}

export function tickerTypesOf(body: Obj): TickerTypeRecord[] {
  return resultsOf(body).map((f) => ({
    code: f.str('code'),
    description: f.str('description'),
    asset_class: f.str('asset_class') as TickerTypeRecord['asset_class'],
    locale: f.str('locale') as TickerTypeRecord['locale'],
  }));
}

export interface UpstreamHoliday {
  exchange: string;
  name: string;
  date: string;
  status: string;
}

/** The upcoming holidays (the client hands a bare list over as the results). */
export function holidaysOf(body: Obj): UpstreamHoliday[] {
  return resultsOf(body).map((f) => ({ exchange: f.str('exchange'), name: f.str('name'), date: f.str('date'), status: f.str('status') }));
}
