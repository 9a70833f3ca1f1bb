// Every repository's contract, run against every engine (SQLite always, PostgreSQL when
// DATABASE_URL is set): the same tests hold both engines to the same observable behaviour.
import { describe } from 'vitest';
import { engines } from '../helpers/engines.js';
import { runCorporateActionsRepoContract } from './contracts/corporate-actions.contract.js';
import { runDatasetsRepoContract } from './contracts/datasets.contract.js';
import { runKeysRepoContract } from './contracts/keys.contract.js';
import { runMarketRepoContract } from './contracts/market.contract.js';
import { runMetaRepoContract } from './contracts/meta.contract.js';
import { runNewsRepoContract } from './contracts/news.contract.js';
import { runOptionsRepoContract } from './contracts/options.contract.js';
import { runReferenceRepoContract } from './contracts/reference.contract.js';
import { runSnapshotReadsRepoContract } from './contracts/snapshot-reads.contract.js';
import { runSocialRepoContract } from './contracts/social.contract.js';
import { runStoreContract } from './contracts/store.contract.js';
import { runUsageRepoContract } from './contracts/usage.contract.js';

for (const engine of engines()) {
  describe(`store contracts (${engine.name})`, () => {
    runStoreContract(engine.open);
    runMetaRepoContract(engine.open);
    runKeysRepoContract(engine.open);
    runReferenceRepoContract(engine.open);
    runMarketRepoContract(engine.open);
    runSnapshotReadsRepoContract(engine.open);
    runOptionsRepoContract(engine.open);
    runUsageRepoContract(engine.open);
    runDatasetsRepoContract(engine.open);
    runCorporateActionsRepoContract(engine.open);
    runNewsRepoContract(engine.open);
    runSocialRepoContract(engine.open);
  });
}
