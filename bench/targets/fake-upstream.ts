// Benchmark target: the tests' fake upstream (generated minute bars of any ticker, paged at up to
// 50,000 as upstream's aggregates are) in its own process. Prints `LISTENING <url>`; GET /__calls
// answers how many requests it has had.
import { FakeUpstream, serveGeneratedMarket } from '../../test/helpers/fake-upstream-rest.js';

const fake = await FakeUpstream.start();
serveGeneratedMarket(fake);
fake.on(/^\/__calls$/, () => ({ body: { calls: fake.requests.filter((r) => r.path !== '/__calls').length } }));
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
process.stdout.write(`LISTENING ${fake.baseUrl}\n`);
