// The risk-factor taxonomy: primary / secondary / tertiary categories in one snake_case
// vocabulary (used by both the risk-factor and the risk-category data sets), each with the phrase
// a generated risk factor says about the company.

export const TAXONOMY: Record<string, Record<string, Record<string, string>>> = {
  financial_and_market: {
    credit_and_liquidity: {
      access_to_capital_and_financing: 'may not obtain financing on acceptable terms when it needs capital',
      debt_covenants_and_refinancing: 'must meet covenants in its debt agreements and refinance maturing borrowings',
      liquidity_and_cash_management: 'could face liquidity shortfalls if cash flows fall short of obligations',
    },
    market_and_economic_conditions: {
      macroeconomic_downturn: 'depends on consumer and business spending that weakens in economic downturns',
      interest_rate_changes: 'is exposed to changes in interest rates affecting borrowing costs and asset values',
      foreign_exchange_exposure: 'earns revenue in currencies other than the US dollar and is exposed to exchange-rate moves',
      inflation_and_input_costs: 'faces rising input, labor and freight costs it may not pass on to customers',
    },
  },
  operational: {
    supply_chain: {
      supplier_concentration: 'relies on a limited number of suppliers, some of them single-source, for key components',
      component_shortages: 'could be unable to meet demand if components are in short supply',
      logistics_disruption: 'depends on shipping and logistics networks that natural disasters or conflicts can disrupt',
    },
    technology_and_systems: {
      cybersecurity_breaches: 'could suffer cyberattacks that compromise its systems or the data it holds',
      system_outages: 'relies on information systems whose failure could interrupt its operations',
    },
    people: {
      talent_retention: 'competes intensely for skilled employees and may fail to attract or retain them',
      labor_relations: 'could be affected by strikes, work stoppages or changes in labor law',
    },
  },
  legal_and_regulatory: {
    regulation: {
      data_privacy_regulation: 'is subject to evolving privacy and data-protection laws in many jurisdictions',
      antitrust_and_competition_law: 'faces antitrust scrutiny that could limit its business practices',
      environmental_regulation: 'must comply with environmental laws that may become more stringent and costly',
      tax_law_changes: 'could see its effective tax rate rise with changes in tax law or in their interpretation',
    },
    litigation: {
      intellectual_property_disputes: 'is party to intellectual-property claims that could be costly or restrict its products',
      product_liability_claims: 'could face product-liability claims and recalls',
    },
  },
  strategic_and_competitive: {
    competition: {
      pricing_pressure: 'operates in markets where competitors may cut prices and compress its margins',
      new_market_entrants: 'may lose share to new entrants with different business models',
    },
    innovation: {
      technology_shifts: 'must keep pace with rapid technological change, including artificial intelligence',
      product_development_failure: 'invests in new products that may not succeed commercially',
    },
    growth: {
      acquisition_integration: 'may not realise the expected benefits of acquisitions',
      international_expansion: 'expands in international markets with risks it does not face at home',
    },
  },
  governance_and_stakeholder: {
    organizational_and_management: {
      key_personnel_dependence: 'depends on the continued service of its senior management',
      performance_management_and_accountability: 'relies on management systems and incentives that may not drive the intended results',
    },
    shareholder_matters: {
      share_price_volatility: 'has a share price that may be volatile and decline regardless of its performance',
      concentrated_voting_control: 'has shareholders whose voting control limits the influence of other holders',
    },
  },
  environmental_and_social: {
    climate: {
      physical_climate_risk: 'has facilities and suppliers exposed to extreme weather and other physical effects of climate change',
      low_carbon_transition: 'could be affected by policies and market shifts toward a low-carbon economy',
    },
    reputation: {
      brand_damage: 'depends on a reputation and brands that adverse publicity could harm',
      sustainability_expectations: 'faces stakeholder expectations on sustainability that it may not meet',
    },
  },
  geopolitical: {
    trade: {
      tariffs_and_trade_restrictions: 'is exposed to tariffs and trade restrictions between the countries where it operates',
      export_controls: 'is subject to export controls that restrict sales of some products to some countries',
    },
    political: {
      political_instability: 'operates in regions where political instability could disrupt its business',
      sanctions: 'must comply with sanctions regimes that may restrict its activities',
    },
  },
};
